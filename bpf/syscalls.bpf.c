// SPDX-License-Identifier: GPL-2.0
/*
 * syscalls: time in the kernel of the calls engines submit and reap I/O
 * with (io_submit, io_getevents, io_pgetevents, io_uring_enter, pread64,
 * pwrite64, preadv2, pwritev2), for the workload's threads only.
 *
 * Hooks, thin SEC() wrappers over one entry and one exit handler; user
 * space enables one set with bpf_program__set_autoload():
 *   tp_btf      raw_syscalls sys_enter/sys_exit, pt_regs BTF-typed:
 *               direct loads of the arguments and of the syscall number;
 *   raw_tp      the same hooks, registers read with BPF_CORE_READ;
 *   tracepoint  classic syscalls:sys_enter_<call>/sys_exit_<call>, one
 *               program per direction that user space attaches to each
 *               traced call's event (so only those calls fire it).
 * raw_syscalls fire for every system call of every process, so the tgid
 * compare comes first, then the syscall number against an 8-entry rodata
 * table; everything else returns after a few instructions.
 *
 * Per-thread "inside a traced call since start_ns" lives in a slot of a
 * plain array indexed by thread id (iodig/syscalls.h: SC_THREAD_SLOTS),
 * or in task local storage (use_task_storage, when the slots are
 * disabled).  Counters and histograms are per-CPU arrays: no hash map and
 * no allocation per call.  (The sampling family needs no
 * share of this state: it reads the call from the sampled thread's saved
 * registers, see bpf/sampling.bpf.c.)
 *
 * The filter is cheap, but every system call of the machine still runs
 * both programs, which is why the family is opt-in; a traced call's state
 * costs more per program run in task storage than in a thread slot
 * (figures: docs/overhead.md).
 * The per-call classic tracepoints run the programs only for the traced
 * calls, but the kernel builds a perf record for each first (not in the
 * BPF run time); see user/probes/syscalls.c for which is tried first.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "iodig/syscalls.h"
#include "tp_progs.bpf.h"
#include "workload.bpf.h"
#include "percpu_maps.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Syscall number of each enum sc_call, -1 when this architecture lacks it;
 * set by user space from <sys/syscall.h> before load. */
const volatile __s64 sc_nr[SC_CALL_NR] = { -1, -1, -1, -1, -1, -1, -1, -1 };
const volatile bool use_task_storage = false;
/* Entries of thread_slots, a power of two sized from the job. */
const volatile __u32 nr_thread_slots = SC_THREAD_SLOTS;

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);   /* required for task storage */
	__type(key, int);
	__type(value, struct sc_thread_state);
} thread_tls SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SC_THREAD_SLOTS);
	__type(key, __u32);
	__type(value, struct sc_thread_state);
} thread_slots SEC(".maps");

IODIG_PERCPU_SLOT(counters, struct sc_counters);

IODIG_PERCPU_HISTS(hists, SC_ROW_NR);

/* The syscall number the entry code saved (syscall_get_nr()). */
#if defined(__TARGET_ARCH_x86)
#define REGS_NR(regs)      ((regs)->orig_ax)
#define REGS_NR_CORE(regs) BPF_CORE_READ((regs), orig_ax)
#elif defined(__TARGET_ARCH_arm64)
#define REGS_NR(regs)      ((regs)->syscallno)
#define REGS_NR_CORE(regs) BPF_CORE_READ((regs), syscallno)
#else
#error "syscalls.bpf.c: no syscall-number register for this architecture"
#endif

static __always_inline bool traced(void)
{
	return iodig_current_slot() >= 0;
}

static __always_inline int call_of(long nr)
{
	for (int i = 0; i < SC_CALL_NR; i++)
		if (sc_nr[i] == nr)
			return i;
	return -1;
}

static __always_inline struct sc_counters *counters_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&counters, &zero);
}

/* @use_task_storage is a frozen rodata constant, so the verifier prunes
 * the branch not taken (and libbpf poisons the map load of a task-storage
 * map it was told not to create). */
static __always_inline struct sc_thread_state *state_get(bool create)
{
	struct sc_thread_state *st;
	__u32 tid, idx;

	if (use_task_storage)
		return bpf_task_storage_get(&thread_tls, bpf_get_current_task_btf(), 0,
					    create ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	tid = (__u32)bpf_get_current_pid_tgid();
	idx = tid & (nr_thread_slots - 1);
	st = bpf_map_lookup_elem(&thread_slots, &idx);
	if (!st)
		return NULL;
	if (create) {
		/* Another thread inside a call here loses that call. */
		if (st->start_ns && st->tid != tid) {
			struct sc_counters *c = counters_get();

			if (c)
				c->state_misses++;
		}
		st->tid = tid;
		return st;
	}
	return st->tid == tid ? st : NULL;
}

static __always_inline __u32 uring_row(__u64 to_submit, __u64 min_complete, __u64 flags)
{
	bool wait = flags & SC_IORING_ENTER_GETEVENTS;

	if (to_submit)
		return wait && min_complete ? SC_ROW_URING_SUBMIT_WAIT : SC_ROW_URING_SUBMIT;
	return wait ? SC_ROW_URING_WAIT : SC_ROW_URING_OTHER;
}

/* The report row of each call but io_uring_enter, whose arguments tell
 * its row (uring_row()).  Not static: the BTF libbpf 1.1 gives the kernel
 * places a static variable at offset 0 of .rodata, which it refuses. */
const __u32 call_rows[SC_CALL_NR] = {
	[SC_CALL_IO_SUBMIT] = SC_ROW_IO_SUBMIT,
	[SC_CALL_IO_GETEVENTS] = SC_ROW_IO_GETEVENTS,
	[SC_CALL_IO_PGETEVENTS] = SC_ROW_IO_PGETEVENTS,
	[SC_CALL_PREAD64] = SC_ROW_PREAD64,
	[SC_CALL_PWRITE64] = SC_ROW_PWRITE64,
	[SC_CALL_PREADV2] = SC_ROW_PREADV2,
	[SC_CALL_PWRITEV2] = SC_ROW_PWRITEV2,
};

static __always_inline void on_enter(long nr, __u32 row)
{
	struct sc_thread_state *st = state_get(true);
	struct sc_counters *c;

	if (!st) {
		c = counters_get();
		if (c)
			c->state_misses++;
		return;
	}
	st->nr = nr;
	st->row = row;
	st->start_ns = bpf_ktime_get_ns();
}

static __always_inline void on_exit(struct sc_thread_state *st, long nr, long ret)
{
	__u64 d = bpf_ktime_get_ns() - st->start_ns;
	struct sc_row_counters *r;
	struct sc_counters *c;
	__u32 row = st->row;

	st->start_ns = 0;
	c = counters_get();
	if (!c)
		return;
	if ((__u64)nr != st->nr) {
		c->mismatched++;
		return;
	}
	if (row >= SC_ROW_NR)
		return;
	r = &c->row[row];
	r->calls++;
	if (ret < 0)
		r->errors++;
	else
		r->ret_sum += ret;
	r->ns_sum += d;
	if (d > r->ns_max)
		r->ns_max = d;
	iodig_hist_add(&hists, row, d, 1);
}

/* Where a hook finds the call's number and arguments. */
enum hook {
	HOOK_BTF,       /* raw_syscalls via tp_btf: pt_regs loaded directly */
	HOOK_RAW,       /* raw_syscalls via raw_tp: pt_regs read with CO-RE */
	HOOK_TP,        /* syscalls:sys_{enter,exit}_<call>: fires for its call only */
	HOOK_TP_URING,  /* syscalls:sys_enter_io_uring_enter, arguments 1-3 read */
};

/*
 * The body of every entry program.  @hook is a constant in each caller,
 * so inlining leaves only its own branch: a HOOK_TP program never reads
 * @args, which the attach to a shorter event would refuse.
 */
static __always_inline int enter(enum hook hook, struct pt_regs *regs, long nr,
				 const __u64 *args)
{
	int call;

	if (!traced())
		return 0;
	call = hook == HOOK_TP_URING ? SC_CALL_URING_ENTER : call_of(nr);
	if (call < 0 || call >= SC_CALL_NR)
		return 0;
	if (call != SC_CALL_URING_ENTER)
		on_enter(nr, call_rows[call]);
	else if (hook == HOOK_BTF)
		on_enter(nr, uring_row(PT_REGS_PARM2_SYSCALL(regs),
				       PT_REGS_PARM3_SYSCALL(regs),
				       PT_REGS_PARM4_SYSCALL(regs)));
	else if (hook == HOOK_RAW)
		on_enter(nr, uring_row(PT_REGS_PARM2_CORE_SYSCALL(regs),
				       PT_REGS_PARM3_CORE_SYSCALL(regs),
				       PT_REGS_PARM4_CORE_SYSCALL(regs)));
	else if (hook == HOOK_TP_URING)
		on_enter(nr, uring_row(args[1], args[2], args[3]));
	return 0;
}

/*
 * The body of every exit program.  raw_syscalls exit for every call: the
 * number, read from @regs only once the thread is known to be traced, is
 * checked before the state is looked up, so the workload's other system
 * calls (futex, clock_nanosleep, ...) cost no lookup.  A per-call
 * tracepoint passes the number as @tp_nr.
 */
static __always_inline int leave(enum hook hook, struct pt_regs *regs, long tp_nr, long ret)
{
	struct sc_thread_state *st;
	long nr;

	if (!traced())
		return 0;
	if (hook == HOOK_BTF)
		nr = REGS_NR(regs);
	else if (hook == HOOK_RAW)
		nr = REGS_NR_CORE(regs);
	else
		nr = tp_nr;
	if (hook != HOOK_TP && call_of(nr) < 0)
		return 0;
	st = state_get(false);
	if (st && st->start_ns)
		on_exit(st, nr, ret);
	return 0;
}

/* sys_enter(struct pt_regs *regs, long id), sys_exit(regs, long ret) */
IODIG_TP_PROGS(sys_enter, sce, enter(btf ? HOOK_BTF : HOOK_RAW, (struct pt_regs *)ctx[0],
				     (long)ctx[1], NULL))
IODIG_TP_PROGS(sys_exit, scx, leave(btf ? HOOK_BTF : HOOK_RAW, (struct pt_regs *)ctx[0], 0,
				    (long)ctx[1]))

/*
 * The records perf_call_bpf_enter()/perf_call_bpf_exit() hand to programs
 * on syscalls:sys_{enter,exit}_<call>: the common header, the number as an
 * int, then the arguments (or the return value) as longs from offset 16.
 * A program may not read past the event's last field (the attach fails
 * with EACCES), so the io_uring_enter reader, which needs its arguments 1-3,
 * is a program of its own.
 */
struct sc_tp_enter {
	__u64 common;
	int nr;
	int pad;
	__u64 args[6];
};

struct sc_tp_exit {
	__u64 common;
	int nr;
	int pad;
	long ret;
};

SEC("tracepoint")
int iodig_sce_tp(struct sc_tp_enter *ctx)
{
	return enter(HOOK_TP, NULL, ctx->nr, NULL);
}

SEC("tracepoint")
int iodig_sceu_tp(struct sc_tp_enter *ctx)
{
	return enter(HOOK_TP_URING, NULL, ctx->nr, ctx->args);
}

SEC("tracepoint")
int iodig_scx_tp(struct sc_tp_exit *ctx)
{
	return leave(HOOK_TP, NULL, ctx->nr, ctx->ret);
}
