// SPDX-License-Identifier: GPL-2.0
/*
 * iouring: what io_uring did with the workload's requests.
 *
 * Hooks (io_uring tracepoints, plus task:task_rename to see io-wq workers
 * being born), each in three variants that are thin SEC() wrappers over one
 * handler; user space loads one set and attaches it by name:
 *   io_uring_submit_req        a request is issued (io_uring_submit_sqe
 *                              in v5.19 and before: user space picks
 *                              the name);
 *   io_uring_queue_async_work  handed to an io-wq worker ("punted"), because
 *                              the file cannot do non-blocking I/O, a
 *                              non-blocking attempt gave -EAGAIN, or
 *                              IOSQE_ASYNC asked for it;
 *   io_uring_complete          a CQE is posted;
 *   io_uring_poll_arm          waits on the file's poll instead;
 *   io_uring_task_add          a poll wake-up queued as task_work;
 *   task_rename                "iou-wrk-*" / "iou-sqp-*": io threads start.
 * Variants: tp_btf (BTF-typed arguments, direct loads), raw_tp (same
 * arguments, probe reads), tracepoint (classic records, fields by CO-RE).
 * The prototypes changed across kernels (see struct iouring_args); user
 * space reads this kernel's from BTF and sets the argument indices.
 *
 * Cost: per event a tgid compare and a per-CPU counter, but even that is
 * a program run per request, so by default neither per-request hook runs
 * on the inline path: io_uring_submit_req only with --detail (the
 * workload counts its requests), and io_uring_complete only from the
 * first punt on (user space attaches it when it sees punt_seen, within
 * ~200 ms; punts before that are counted untimed).  Only punted requests
 * are timed: queue_async_work stores the request's start in a hash, and
 * io_uring_complete looks there only while some punted request is
 * outstanding, so inline requests never pay a hash operation.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "iodig/iouring.h"
#include "tp_progs.bpf.h"
#include "workload.bpf.h"
#include "percpu_maps.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* This kernel's argument positions, from BTF; these defaults are v6.13+. */
const volatile struct iouring_args args = {
	.qaw_req = 0,
	.task_add_req = 0,
	.complete_req = 1,
	.complete_res = IOURING_ARG_NONE,
	.complete_cqe = 2,
};

/* Punted requests in punt_start: complete skips the lookup when 0. */
__s64 outstanding = 0;
/* Set on the first punt, for user space to attach io_uring_complete. */
__u32 punt_seen = 0;
/* Set by user space once io_uring_complete is attached: before that a
 * punt's start would never be taken out of punt_start. */
volatile bool complete_hooked = false;

#define IODIG_EAGAIN 11
/* PF_IO_WORKER (include/linux/sched.h, v5.12+): io-wq and SQPOLL threads. */
#define IODIG_PF_IO_WORKER 0x00000010
#define COMM_IOU_WRK 0x2d6b72772d756f69ull  /* "iou-wrk-" little endian */
#define COMM_IOU_SQP 0x2d7071732d756f69ull  /* "iou-sqp-" */

IODIG_PERCPU_SLOT(counters, struct iouring_counters);

/* Punted request (struct io_kiocb *) -> time of the punt. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, IOURING_MAX_PUNTED);
	__type(key, __u64);
	__type(value, __u64);
} punt_start SEC(".maps");

IODIG_PERCPU_HISTS(punt_hist, 1);

/* io thread id -> IOURING_THREAD_* */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, IOURING_MAX_THREADS);
	__type(key, __u32);
	__type(value, __u32);
} io_threads SEC(".maps");

/*
 * The request's owner: commit "io_uring: move struct io_kiocb from
 * task_struct to io_uring_task" (v6.13) replaced req->task with req->tctx,
 * whose ->task is the submitter.
 */
struct io_kiocb___old {
	struct task_struct *task;
} __attribute__((preserve_access_index));

static __always_inline __u32 req_owner_tgid(void *req)
{
	struct io_kiocb *r = req;
	struct task_struct *t;

	if (bpf_core_field_exists(r->tctx))
		t = BPF_CORE_READ(r, tctx, task);
	else
		t = BPF_CORE_READ((struct io_kiocb___old *)req, task);
	return BPF_CORE_READ(t, tgid);
}

static __always_inline bool traced(void)
{
	return iodig_traced_tgid(bpf_get_current_pid_tgid() >> 32);
}

static __always_inline struct iouring_counters *counters_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&counters, &zero);
}

/*
 * Raw argument @i.  @i is read-only data, so the verifier walks one case
 * only: a tp_btf program may not load an argument past the last one, and a
 * raw_tp program that does fails to attach.  Each load is its own asm
 * statement because clang would otherwise merge the cases into one load
 * from ctx + 8 * i, and the verifier rejects a ctx access at a variable
 * offset.
 */
#define CTX_LOAD(ctx, off) ({						\
	__u64 __v;							\
	asm volatile("%0 = *(u64 *)(%1 + " #off ")" : "=r"(__v) : "r"(ctx)); \
	__v;								\
})

static __always_inline __u64 arg_at(__u64 *ctx, __u32 i)
{
	switch (i) {
	case 0:
		return CTX_LOAD(ctx, 0);
	case 1:
		return CTX_LOAD(ctx, 8);
	case 2:
		return CTX_LOAD(ctx, 16);
	case 3:
		return CTX_LOAD(ctx, 24);
	default:
		return 0;
	}
}

static __always_inline __u32 thread_kind(__u64 comm_head)
{
	if (comm_head == COMM_IOU_WRK)
		return IOURING_THREAD_IOWQ;
	if (comm_head == COMM_IOU_SQP)
		return IOURING_THREAD_SQPOLL;
	return 0;
}

static __always_inline void thread_add(__u32 tid, __u32 kind)
{
	struct iouring_counters *c;

	if (!kind || bpf_map_lookup_elem(&io_threads, &tid))
		return;
	if (bpf_map_update_elem(&io_threads, &tid, &kind, BPF_NOEXIST) &&
	    !bpf_map_lookup_elem(&io_threads, &tid)) {
		c = counters_get();
		if (c)
			c->thread_drops++;
	}
}

/* Records current when it is an io thread (workers that post CQEs). */
static __always_inline void note_current_thread(bool btf)
{
	struct task_struct *t;
	__u64 head = 0;
	__u32 flags;

	if (btf) {
		t = bpf_get_current_task_btf();
		flags = t->flags;
	} else {
		t = (struct task_struct *)bpf_get_current_task();
		flags = BPF_CORE_READ(t, flags);
	}
	if (!(flags & IODIG_PF_IO_WORKER))
		return;
	bpf_probe_read_kernel(&head, sizeof(head), &t->comm);
	thread_add((__u32)bpf_get_current_pid_tgid(), thread_kind(head));
}

/* The counters for an event of a traced thread, NULL for any other. */
static __always_inline struct iouring_counters *traced_counters(void)
{
	if (!traced())
		return NULL;
	return counters_get();
}

static __always_inline int on_submit(void)
{
	struct iouring_counters *c = traced_counters();

	if (c)
		c->submitted++;
	return 0;
}

static __always_inline int on_punt(__u64 req)
{
	struct iouring_counters *c = traced_counters();
	__u64 now;
	long err;

	if (!c)
		return 0;
	c->punted++;
	if (!punt_seen)
		punt_seen = 1;
	if (!complete_hooked) {
		c->punt_unhooked++;
		return 0;
	}
	now = bpf_ktime_get_ns();
	/* A request punted again (io-wq retrying after -EAGAIN) keeps the
	 * time of its first punt. */
	err = bpf_map_update_elem(&punt_start, &req, &now, BPF_NOEXIST);
	if (!err)
		__sync_fetch_and_add(&outstanding, 1);
	else if (err != -17 /* EEXIST */)
		c->punt_untracked++;
	return 0;
}

static __always_inline int on_complete(__u64 req, int res, bool btf)
{
	struct iouring_counters *c = traced_counters();
	__u64 *start, d;

	if (!c)
		return 0;
	c->completed++;
	if (res < 0)
		c->failed++;
	if (res == -IODIG_EAGAIN)
		c->eagain++;
	note_current_thread(btf);
	if (outstanding <= 0 || !req)
		return 0;
	start = bpf_map_lookup_elem(&punt_start, &req);
	if (!start)
		return 0;
	d = bpf_ktime_get_ns() - *start;
	bpf_map_delete_elem(&punt_start, &req);
	__sync_fetch_and_add(&outstanding, -1);
	c->punt_timed++;
	c->punt_ns_sum += d;
	if (d > c->punt_ns_max)
		c->punt_ns_max = d;
	iodig_hist_add(&punt_hist, 0, d, 1);
	return 0;
}

static __always_inline int on_poll_arm(void)
{
	struct iouring_counters *c = traced_counters();

	if (c)
		c->poll_armed++;
	return 0;
}

/* Poll wake-ups run in whatever context woke the file, so the filter is
 * the request's owner, not current. */
static __always_inline int on_task_add(void *req)
{
	struct iouring_counters *c;

	if (!req || !iodig_traced_tgid(req_owner_tgid(req)))
		return 0;
	c = counters_get();
	if (c)
		c->task_add++;
	return 0;
}

static __always_inline void on_rename(__u32 tgid, __u32 tid, __u64 comm_head)
{
	if (iodig_traced_tgid(tgid))
		thread_add(tid, thread_kind(comm_head));
}

/* res of io_uring_complete: a value before v6.13, then in the CQE
 * (commit "io_uring: clean up cqe trace points"). */
static __always_inline int complete_res(__u64 *ctx, bool btf)
{
	struct io_uring_cqe *cqe;

	if (args.complete_res != IOURING_ARG_NONE)
		return (int)arg_at(ctx, args.complete_res);
	cqe = (struct io_uring_cqe *)arg_at(ctx, args.complete_cqe);
	if (!cqe)
		return 0;
	return btf ? cqe->res : BPF_CORE_READ(cqe, res);
}

static __always_inline __u64 complete_req(__u64 *ctx)
{
	if (args.complete_req == IOURING_ARG_NONE)
		return 0;
	return arg_at(ctx, args.complete_req);
}

/* task_rename(struct task_struct *task, const char *comm) */
static __always_inline int handle_rename(__u64 *ctx, bool btf)
{
	struct task_struct *t = (struct task_struct *)ctx[0];
	__u64 head = 0;
	__u32 tgid, tid;

	if (btf) {
		tgid = t->tgid;
		tid = t->pid;
	} else {
		tgid = BPF_CORE_READ(t, tgid);
		tid = BPF_CORE_READ(t, pid);
	}
	bpf_probe_read_kernel(&head, sizeof(head), (void *)ctx[1]);
	on_rename(tgid, tid, head);
	return 0;
}

IODIG_TP_PROGS(io_uring_submit_req, sub, on_submit())
IODIG_TP_PROGS(io_uring_queue_async_work, qaw, on_punt(arg_at(ctx, args.qaw_req)))
IODIG_TP_PROGS(io_uring_complete, cmp,
	       on_complete(complete_req(ctx), complete_res(ctx, btf), btf))
IODIG_TP_PROGS(io_uring_poll_arm, poll, on_poll_arm())
IODIG_TP_PROGS(io_uring_task_add, tadd,
	       on_task_add((void *)arg_at(ctx, args.task_add_req)))
IODIG_TP_PROGS(task_rename, ren, handle_rename(ctx, btf))

/*
 * Classic records.  Their fields are read by CO-RE: io_uring_complete got
 * its req field in v5.19 (absent before: no punt timing then); the other
 * records used here have always had one.
 */
SEC("tracepoint/io_uring/io_uring_submit_req")
int iodig_sub_tp(void *ctx)
{
	return on_submit();
}

SEC("tracepoint/io_uring/io_uring_queue_async_work")
int iodig_qaw_tp(struct trace_event_raw_io_uring_queue_async_work *ctx)
{
	return on_punt((__u64)ctx->req);
}

SEC("tracepoint/io_uring/io_uring_complete")
int iodig_cmp_tp(struct trace_event_raw_io_uring_complete *ctx)
{
	__u64 req = 0;

	if (bpf_core_field_exists(ctx->req))
		req = (__u64)ctx->req;
	return on_complete(req, ctx->res, false);
}

SEC("tracepoint/io_uring/io_uring_poll_arm")
int iodig_poll_tp(void *ctx)
{
	return on_poll_arm();
}

SEC("tracepoint/io_uring/io_uring_task_add")
int iodig_tadd_tp(struct trace_event_raw_io_uring_task_add *ctx)
{
	return on_task_add(ctx->req);
}

/* The record has the renamed task's pid, not its tgid: io threads name
 * themselves, so the renamed task is current. */
SEC("tracepoint/task/task_rename")
int iodig_ren_tp(struct trace_event_raw_task_rename *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u64 head = 0;

	if ((__u32)id != (__u32)ctx->pid)
		return 0;
	bpf_probe_read_kernel(&head, sizeof(head), ctx->newcomm);
	on_rename(id >> 32, (__u32)id, head);
	return 0;
}
