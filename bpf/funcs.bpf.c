// SPDX-License-Identifier: GPL-2.0
/*
 * funcs: exact latency of a table of kernel functions, entry to exit.
 *
 * Hooks, one slot per traced function (user/probes/funcs.c binds slot N to
 * a function and fills funcs_spec[N]); each slot has thin SEC() wrappers
 * over the two handlers below, user space loads one set:
 *   fentry/fexit       BPF trampoline: arguments at exit too, cheapest;
 *   kprobe/kretprobe   one perf kprobe per function and direction;
 *   kprobe.multi       one program for every function (fprobe, v5.18+),
 *                      the slot passed as the attach cookie.
 * Without any of them the family is missing and the other families'
 * tracepoints and sampling estimate what these functions cost.
 *
 * Timing: entry pushes (time, arguments needed at exit, the task's context
 * switch counts) on a per-thread stack in task local storage, exit pops the
 * innermost frame of the same function.  A stack, not one slot per thread,
 * because the traced functions nest (release_pages -> folios_put_refs ->
 * __folio_put; io_wq_submit_work -> io_issue_sqe) and interrupts nest calls
 * on top of a thread's.  Task storage, not a per-CPU array, because most
 * of them sleep (tag waits, page faults in GUP) and resume on another CPU.
 * Nothing is allocated per event: the thread's storage is created on its
 * first counted call, counters and histograms are per-CPU arrays.
 *
 * Filter: the workload's tgids (iodig/tgid_filter.h; io-wq workers are
 * threads of the workload's process, so io_wq_submit_work is its own).
 * Functions flagged FF_ANY_CONTEXT (page release) also count when nested in
 * a counted call on another thread, and bio_release_pages, which runs at
 * completion (softirq or a kworker, on whatever task was interrupted),
 * counts by its bio's disk when a target disk is known: the device, not
 * the interrupted task, says whose I/O it was.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "iodig/block.h"   /* BLOCK_KDEV */
#include "iodig/funcs.h"
#include "vm_fault.bpf.h"
#include "workload.bpf.h"
#include "percpu_maps.bpf.h"

char LICENSE[] SEC("license") = "GPL";

const volatile struct funcs_spec funcs_spec[FUNCS_MAX_FNS] = {};
/* BLOCK_KDEV of the target disk, 0 = none known. */
const volatile __u32 targ_dev = 0;
const volatile __u32 page_shift = 12;

IODIG_PERCPU_ARRAY(counters, FUNCS_MAX_FNS, struct funcs_fn_counters);

IODIG_PERCPU_SLOT(global, struct funcs_global);

/* Sized by user space to one row per function attached. */
IODIG_PERCPU_HISTS(hists, FUNCS_MAX_FNS);

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct funcs_overflow);
} first_overflow SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct funcs_stack);
} stacks SEC(".maps");

/* v6.6 (commit 1d024e7a8dab, "mm: remove enum page_entry_size") turned
 * dax_iomap_fault's pe_size (PTE 0, PMD 1, PUD 2) into a page order. */
enum page_entry_size___iodig { IODIG_PE_SIZE_PTE = 0 };
#define IODIG_PUD_ORDER_MIN 18   /* PUD_SHIFT - PAGE_SHIFT on 4 KiB pages */

/* -EIOCBQUEUED: io_issue_sqe's IOU_ISSUE_SKIP_COMPLETE, "queued, the
 * completion comes later" — not an error. */
#define IODIG_EIOCBQUEUED 529
#define IODIG_EAGAIN 11

/*
 * The kprobe context on x86-64: struct pt_regs, whose layout is the
 * kernel's ABI (arch/x86/include/uapi/asm/ptrace.h), declared here without
 * CO-RE so every register is a load at a constant offset.  With vmlinux.h's
 * preserve_access_index struct, clang turns a switch over the registers
 * into one load at a computed offset, which the verifier refuses for a
 * context pointer.  Other architectures would need their own layout.
 */
struct iodig_x86_regs {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8;
	unsigned long ax, cx, dx, si, di, orig_ax, ip, cs, flags, sp, ss;
};

/* @kp is a constant at every call site: kprobes read pt_regs, the
 * trampoline's context is read with the helpers the verifier inlines. */
static __always_inline __u64 arg_of(void *ctx, __u32 n, bool kp)
{
	__u64 v = 0;

	if (kp) {
		const struct iodig_x86_regs *regs = ctx;
		/* All six loaded, volatile so clang cannot merge them into
		 * one load at a computed offset; the verifier rewrites each
		 * into a plain register read. */
		__u64 a0 = *(const volatile unsigned long *)&regs->di;
		__u64 a1 = *(const volatile unsigned long *)&regs->si;
		__u64 a2 = *(const volatile unsigned long *)&regs->dx;
		__u64 a3 = *(const volatile unsigned long *)&regs->cx;
		__u64 a4 = *(const volatile unsigned long *)&regs->r8;
		__u64 a5 = *(const volatile unsigned long *)&regs->r9;

		switch (n) {
		case 0: return a0;
		case 1: return a1;
		case 2: return a2;
		case 3: return a3;
		case 4: return a4;
		case 5: return a5;
		default: return 0;
		}
	}
	bpf_get_func_arg(ctx, n, &v);
	return v;
}

static __always_inline __u64 ret_of(void *ctx, bool kp)
{
	__u64 v = 0;

	if (kp)
		return ((const struct iodig_x86_regs *)ctx)->ax;
	bpf_get_func_ret(ctx, &v);
	return v;
}

static __always_inline struct funcs_global *global_counters(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&global, &zero);
}

static __always_inline __u32 bio_kdev(struct bio *bio)
{
	struct gendisk *disk = BPF_CORE_READ(bio, bi_bdev, bd_disk);

	return BLOCK_KDEV(BPF_CORE_READ(disk, major), BPF_CORE_READ(disk, first_minor));
}

static __always_inline __u64 dax_size(__u64 arg)
{
	if (bpf_core_type_exists(enum page_entry_size___iodig))
		return arg < FV_NR ? arg : FV_PUD;
	if (!arg)
		return FV_PTE;
	return arg < IODIG_PUD_ORDER_MIN ? FV_PMD : FV_PUD;
}

static __always_inline __u64 iou_nonblock_flag(void)
{
	if (bpf_core_enum_value_exists(enum io_uring_cmd_flags, IO_URING_F_NONBLOCK))
		return (__u32)bpf_core_enum_value(enum io_uring_cmd_flags, IO_URING_F_NONBLOCK);
	return 0;
}

/* What entry keeps for exit, by kind (kretprobes cannot see arguments). */
static __always_inline void entry_aux(void *ctx, __u32 kind, __u32 a, __u32 b, bool kp,
				      __u64 *aux, __u64 *aux2)
{
	switch (kind) {
	case FK_PAGES_RET:
	case FK_PAGES_ARG:
	case FK_TAG:
		*aux = arg_of(ctx, a, kp);
		break;
	case FK_IOV_BYTES:
		*aux = arg_of(ctx, a, kp);
		*aux2 = arg_of(ctx, b, kp);
		break;
	case FK_FOLIO_BATCH: {
		struct folio_batch *fb = (void *)arg_of(ctx, a, kp);

		*aux = BPF_CORE_READ(fb, nr);
		break;
	}
	case FK_DAX:
		*aux = dax_size(arg_of(ctx, a, kp));
		break;
	case FK_IOU_ISSUE:
		*aux = arg_of(ctx, a, kp) & iou_nonblock_flag() ? FV_NOWAIT : FV_BLOCKING;
		break;
	default:
		break;
	}
}

static __always_inline void count_lost(struct funcs_stack *st, __u32 from, __u32 to)
{
	for (__u32 i = 0; i < FUNCS_MAX_DEPTH; i++) {
		struct funcs_fn_counters *c;
		__u32 s;

		if (i < from || i >= to)
			continue;
		s = st->f[i].slot;
		c = bpf_map_lookup_elem(&counters, &s);
		if (c)
			c->lost++;
	}
}

/*
 * fentry and fexit of one call run in one trampoline frame, whose address
 * is their ctx: it pairs an exit with its entry exactly, and frames of this
 * kernel stack at or below a new call's are calls that have returned with
 * their exit lost (a program run the kernel skipped: on PREEMPT_RT another
 * task preempted inside the program holds it on this CPU).  Kernel stacks
 * are 16 KiB and aligned to it (THREAD_SIZE, VMAP_STACK); frames on another
 * stack (an interrupt's) are left alone.
 */
#define FUNCS_STACK_SIZE 16384

/* Whether @sp, a ctx pointer, is at or above @frame on one kernel stack.
 * Comparisons only: the verifier allows no arithmetic on a ctx pointer. */
static __always_inline bool returned_below(__u64 frame, __u64 sp)
{
	__u64 lo = frame & ~(__u64)(FUNCS_STACK_SIZE - 1);

	return frame <= sp && sp < lo + FUNCS_STACK_SIZE;
}

static __always_inline __u32 drop_returned(struct funcs_stack *st, __u32 d, __u64 sp)
{
	__u32 top = d;

	for (int i = 0; i < FUNCS_MAX_DEPTH; i++) {
		const struct funcs_frame *fr;

		if (!d || d > FUNCS_MAX_DEPTH)
			break;
		fr = &st->f[(d - 1) & (FUNCS_MAX_DEPTH - 1)];
		if (!fr->sp || !returned_below(fr->sp, sp))
			break;
		d--;
	}
	if (d != top) {
		count_lost(st, d, top);
		st->depth = d;
	}
	return d;
}

/* Keeps the first full stack of the run: its task and frames. */
static __always_inline void note_overflow(const struct funcs_stack *st)
{
	__u32 zero = 0;
	struct funcs_overflow *o = bpf_map_lookup_elem(&first_overflow, &zero);

	if (!o || o->claimed || __sync_val_compare_and_swap(&o->claimed, 0, 1))
		return;
	o->tid = (__u32)bpf_get_current_pid_tgid();
	o->ts = bpf_ktime_get_ns();
	bpf_get_current_comm(o->comm, sizeof(o->comm));
	for (int i = 0; i < FUNCS_MAX_DEPTH; i++) {
		o->slot[i] = st->f[i].slot;
		o->entered[i] = st->f[i].ts;
	}
}

static __always_inline int on_entry(void *ctx, __u32 slot, bool kp)
{
	struct task_struct *task;
	struct funcs_global *g;
	struct funcs_stack *st;
	struct funcs_frame *fr;
	__u64 aux = 0, aux2 = 0;
	__u32 kind, flags, d;
	/* kprobes' pt_regs are not one frame for entry and exit */
	__u64 sp = kp ? 0 : (__u64)ctx;
	bool mine;

	if (slot >= FUNCS_MAX_FNS)
		return 0;
	kind = funcs_spec[slot].kind;
	flags = funcs_spec[slot].flags;
	mine = iodig_current_slot() >= 0;
	if (!mine && !(flags & FF_ANY_CONTEXT))
		return 0;
	if (kind == FK_BIO) {
		struct bio *bio = (void *)arg_of(ctx, funcs_spec[slot].arg_a, kp);

		if (targ_dev) {
			if (bio_kdev(bio) != targ_dev)
				return 0;
			mine = true;
		}
		aux = BPF_CORE_READ(bio, bi_vcnt);
	}
	task = bpf_get_current_task_btf();
	st = bpf_task_storage_get(&stacks, task, 0,
				  mine ? BPF_LOCAL_STORAGE_GET_F_CREATE : 0);
	if (!st) {
		if (mine && (g = global_counters()))
			g->no_storage++;
		return 0;
	}
	/* Another thread's call counts only inside a counted one. */
	if (!mine && !st->depth)
		return 0;
	d = st->depth;
	if (sp)
		d = drop_returned(st, d, sp);
	if (d >= FUNCS_MAX_DEPTH) {
		if (!sp)
			st->over++;
		if ((g = global_counters()))
			g->overflow++;
		note_overflow(st);
		return 0;
	}
	entry_aux(ctx, kind, funcs_spec[slot].arg_a, funcs_spec[slot].arg_b, kp, &aux, &aux2);
	/* The frame is taken before it is written: an interrupt that traces
	 * a call of its own on this thread meanwhile (a completion's page
	 * release) pushes above it.  Written first, it was overwritten by the
	 * interrupt's frame, which then stayed on the stack for good. */
	st->depth = d + 1;
	barrier();
	/* The compiler knows d is in range and would drop the mask; the
	 * verifier, after drop_returned's loop, does not. */
	barrier_var(d);
	fr = &st->f[d & (FUNCS_MAX_DEPTH - 1)];
	fr->slot = slot;
	fr->sp = sp;
	fr->aux = aux;
	fr->aux2 = aux2;
	fr->nvcsw = (__u32)BPF_CORE_READ(task, nvcsw);
	fr->nivcsw = (__u32)BPF_CORE_READ(task, nivcsw);
	/* Last, so the probe's own work above is not timed. */
	fr->ts = bpf_ktime_get_ns();
	return 0;
}

static __always_inline __u32 errno_class(__s64 ret)
{
	if (ret == -IODIG_EAGAIN)
		return FR_EAGAIN;
	return ret < 0 ? FR_ERROR : FR_OK;
}

static __always_inline void hctx_add(struct blk_mq_alloc_data *data, __u64 ns, bool slept)
{
	struct funcs_global *g = global_counters();
	__u32 q = BPF_CORE_READ(data, hctx, queue_num);

	if (!g)
		return;
	if (q >= FUNCS_MAX_HCTX)
		q = FUNCS_MAX_HCTX - 1;
	g->hctx[q].calls++;
	g->hctx[q].ns_sum += ns;
	if (slept)
		g->hctx[q].slept++;
}

/* The kind's pages and result class. */
static __always_inline void exit_kind(struct funcs_fn_counters *c, __u32 kind, __s64 ret,
				      __u64 aux, __u64 aux2, __u64 ns, bool slept)
{
	__u32 res = FR_OK;

	switch (kind) {
	case FK_PAGES_RET:
		if (ret > 0)
			c->pages += ret;
		res = ret < 0 ? errno_class(ret) : (__u64)ret >= aux ? FR_OK : FR_SHORT;
		break;
	case FK_PAGES_ARG:
	case FK_BIO:
	case FK_FOLIO_BATCH:
		c->pages += aux;
		break;
	case FK_ONE_PAGE:
		c->pages += 1;
		break;
	case FK_IOV_BYTES:
		if (ret > 0) {
			__u64 off = 0, psz = 1ull << (page_shift & 31);

			/* *offset0: where the data starts in the first page. */
			bpf_probe_read_kernel(&off, sizeof(off), (void *)aux);
			c->pages += (off + (__u64)ret + psz - 1) >> (page_shift & 31);
		}
		res = ret < 0 ? errno_class(ret) : ret ? FR_OK : FR_SHORT;
		break;
	case FK_TAG:
		/* BLK_MQ_NO_TAG: a BLK_MQ_REQ_NOWAIT caller found none free. */
		res = (__u32)ret == (__u32)-1 ? FR_ERROR : FR_OK;
		hctx_add((void *)aux, ns, slept);
		break;
	case FK_DAX:
		c->variant[aux < FV_NR ? aux : FV_PUD]++;
		res = iodig_vm_fault_class((__u32)ret, FR_OK, FR_FALLBACK, FR_ERROR,
					   FR_OTHER);
		break;
	case FK_IOU_ISSUE:
		c->variant[aux ? FV_BLOCKING : FV_NOWAIT]++;
		if (ret == -IODIG_EIOCBQUEUED)
			res = FR_OK;
		else if (ret == -IODIG_EAGAIN)
			res = aux == FV_NOWAIT ? FR_EAGAIN : FR_ERROR;
		else
			res = ret < 0 ? FR_ERROR : FR_OK;
		break;
	default:
		break;
	}
	c->res[res < FR_NR ? res : FR_OTHER]++;
}

static __always_inline int on_exit(void *ctx, __u32 slot, bool kp)
{
	__u64 now = bpf_ktime_get_ns(), ns, aux, aux2;
	struct funcs_fn_counters *c;
	struct task_struct *task;
	struct funcs_stack *st;
	__u32 d, kind, flags, key, nv, niv;
	int idx = -1;
	__u64 sp = kp ? 0 : (__u64)ctx;
	__s64 ret;
	bool slept;

	if (slot >= FUNCS_MAX_FNS)
		return 0;
	/* Read while the verifier knows the bound: kprobe.multi's slot is a
	 * variable, and once spilled to the stack its range is forgotten. */
	kind = funcs_spec[slot].kind;
	flags = funcs_spec[slot].flags;
	task = bpf_get_current_task_btf();
	st = bpf_task_storage_get(&stacks, task, 0, 0);
	if (!st)
		return 0;
	/* Entries past the depth limit were the innermost ones: their exits
	 * come first (LIFO), and were never pushed.  (fexit finds its own
	 * frame by its address, below.) */
	if (!sp && st->over) {
		st->over--;
		return 0;
	}
	d = st->depth;
	if (!d || d > FUNCS_MAX_DEPTH)
		return 0;
	/* This call's frame (fexit), or the innermost one of this function
	 * (kretprobe).  Frames above it lost their exit: drop them. */
	for (int i = FUNCS_MAX_DEPTH - 1; i >= 0; i--) {
		if ((__u32)i < d && st->f[i].slot == slot && st->f[i].sp == sp) {
			idx = i;
			break;
		}
	}
	if (idx < 0)
		return 0;   /* its entry was not counted or not seen */
	if ((__u32)idx + 1 < d)
		count_lost(st, idx + 1, d);
	idx &= FUNCS_MAX_DEPTH - 1;
	ns = now > st->f[idx].ts ? now - st->f[idx].ts : 0;
	aux = st->f[idx].aux;
	aux2 = st->f[idx].aux2;
	nv = st->f[idx].nvcsw;
	niv = st->f[idx].nivcsw;
	/* Read before the frame is given back: an interrupt may reuse it. */
	barrier();
	st->depth = idx;

	key = slot;
	c = bpf_map_lookup_elem(&counters, &key);
	if (!c)
		return 0;
	ret = (__s64)ret_of(ctx, kp);
	if (flags & FF_RET32)
		ret = (__s32)ret;
	slept = (__u32)BPF_CORE_READ(task, nvcsw) != nv;
	c->calls++;
	c->ns_sum += ns;
	if (ns > c->ns_max)
		c->ns_max = ns;
	if (slept)
		c->slept++;
	else if ((__u32)BPF_CORE_READ(task, nivcsw) != niv)
		c->preempted++;
	exit_kind(c, kind, ret, aux, aux2, ns, slept);
	iodig_hist_add(&hists, slot, ns, 1);
	return 0;
}

/* Program names start with "iodig_" and fit the kernel's 15 characters. */
#define SLOT_PROGS(n)                                                   \
SEC("fentry")                                                           \
int iodig_fe_##n(void *ctx) { return on_entry(ctx, n, false); }         \
SEC("fexit")                                                            \
int iodig_fx_##n(void *ctx) { return on_exit(ctx, n, false); }          \
SEC("kprobe")                                                           \
int iodig_kp_##n(struct pt_regs *ctx) { return on_entry(ctx, n, true); } \
SEC("kretprobe")                                                        \
int iodig_kr_##n(struct pt_regs *ctx) { return on_exit(ctx, n, true); }

SLOT_PROGS(0)  SLOT_PROGS(1)  SLOT_PROGS(2)  SLOT_PROGS(3)  SLOT_PROGS(4)
SLOT_PROGS(5)  SLOT_PROGS(6)  SLOT_PROGS(7)  SLOT_PROGS(8)  SLOT_PROGS(9)
SLOT_PROGS(10) SLOT_PROGS(11) SLOT_PROGS(12) SLOT_PROGS(13) SLOT_PROGS(14)
SLOT_PROGS(15) SLOT_PROGS(16) SLOT_PROGS(17) SLOT_PROGS(18) SLOT_PROGS(19)
_Static_assert(FUNCS_MAX_FNS == 20, "one SLOT_PROGS line per slot");

/* kprobe.multi: every function through one pair, the slot as cookie. */
SEC("kprobe.multi")
int iodig_kpm(struct pt_regs *ctx)
{
	return on_entry(ctx, (__u32)bpf_get_attach_cookie(ctx), true);
}

SEC("kretprobe.multi")
int iodig_krm(struct pt_regs *ctx)
{
	return on_exit(ctx, (__u32)bpf_get_attach_cookie(ctx), true);
}
