// SPDX-License-Identifier: GPL-2.0
/*
 * sched: why the workload's threads leave the CPU, and for how long.
 *
 * Hook: sched_switch, in three variants that are thin SEC() wrappers over
 * one handler; user space enables one before loading:
 *   tp_btf      prev/next are BTF-typed: direct loads;
 *   raw_tp      same arguments read with probe reads;
 *   tracepoint  the classic record has pids but no tgid for the incoming
 *               task, so incoming threads are recognised through a bitmap
 *               of thread ids seen leaving (then their slot).
 * A thread's switch-out record lives in slot (tid % thread_slots) of
 * a plain array, tagged with the tid: an address computed inline, where
 * task storage costs a helper call per get (docs/overhead.md).
 *
 * sched_switch fires on every context switch of the machine, so the
 * workload filter comes first and costs a few loads and compares (the
 * tgid slots live in .bss, see iodig/tgid_filter.h).  A switch of another
 * process then costs little over an empty program (raw_tp more: one probe
 * read for next->tgid); a workload switch that takes its kernel stack
 * costs far more, nearly all of it the stack walk, about half of which
 * goes past the stack's outermost frame unless the walk is told where
 * to stop (walk_stack(); docs/overhead.md has the figures).
 * So the stack is taken for a random 1 in stack_period switches only
 * (random gaps, because a fixed stride could beat with a workload that
 * alternates between two blocking points), each sample
 * weighted by the period it was taken at; user space gives each blocking
 * function its share of the samples.  Counts, voluntary/involuntary and
 * the total off-CPU time stay exact, in per-CPU counters.
 *
 * Switch out: count it; remember when, and the flags {voluntary, io-wq},
 *             in the thread's record (switch-out walk: also the stack's
 *             key, and whether sampled).
 * Switch in:  add now - then to the off-CPU totals; when sampled, to the
 *             {stack, flags} key (switch-in walk: taking the stack now,
 *             or finding it by the fingerprint of the sleeping task's
 *             stack words when a walk found it before: a copy and a hash
 *             instead of a walk, see "Stack fingerprints" below).
 *
 * "now" in the tp_btf variant is this CPU's runqueue clock, which
 * __schedule() has just updated (update_rq_clock() before it picks the
 * next task): loads instead of bpf_ktime_get_ns(), a clock read per
 * switch (dear in a VM).  It is sched_clock_cpu(), the same clock on
 * every CPU where sched_clock is stable (it is wherever the TSC is); an
 * interval that reads negative is dropped.  The runqueue is reached from
 * the workload task itself (se.cfs_rq->rq, CONFIG_FAIR_GROUP_SCHED): the
 * per-CPU variable `runqueues` would need its address from kallsyms,
 * which kernels without CONFIG_KALLSYMS_ALL (this one) do not list.  The
 * other variants, and kernels without cfs_rq->rq, read ktime.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "iodig/sched.h"
#include "workload.bpf.h"
#include "fast_rand.bpf.h"
#include "tp_progs.bpf.h"
#include "percpu_maps.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/*
 * Set by user space before loading:
 * has_prev_state    sched_switch passes prev_state as its 4th argument:
 *                   commit fa2c3254d7cf ("sched/tracing: Don't re-read
 *                   p->state when emitting sched_switch event", v5.18).
 *                   Reading prev's state again in the probe races with
 *                   a wake-up that already set it back to running.
 */
const volatile bool has_prev_state = true;
/* Take the kernel stack of 1 in this many switches (1 = every one); set
 * by user space before loading, then as the switch rate changes.  In
 * .bss beside attach_gen and the workload filter: one cache line for the
 * globals a workload switch reads. */
__u32 stack_period = 0;
/* Entries of the start array, a power of two sized from the job. */
const volatile __u32 thread_slots = SCHED_THREAD_SLOTS;

/* The lowest address of kernel code, set by user space before loading
 * (kallsyms' _text; x86-64, where the kernel image, modules, BPF
 * programs and trampolines all lie above it): the words of a stack at or
 * above it are the ones its fingerprint keeps.  0 = unknown: every
 * sampled switch-in walks. */
const volatile __u64 ktext_lo = 0;
/* IODIG_SCHED_STACK_VERIFY: a sampled switch-in that finds its stack by
 * fingerprint walks anyway and counts a different result (fp_mismatches):
 * the check that a fingerprint names one stack. */
const volatile bool fp_verify = false;

/* Bumped by user space before each attach under --probe-toggle: a start
 * record of an older generation was written before a detach, and the
 * thread may have come back meanwhile unseen, so it is not read. */
__u32 attach_gen = 0;

/* Tracepoint variant only: bit (tid % SCHED_TID_BITS) is set once a
 * workload thread with that id left the CPU.  A clear bit proves the
 * incoming task is not one, without touching its slot.  A section of its
 * own keeps its kilobyte out of the line the other variants read. */
__u64 tid_seen[SCHED_TID_BITS / 64] SEC(".data.tid_seen") = {};

/* PF_IO_WORKER (include/linux/sched.h, v5.12+): io-wq and SQPOLL threads,
 * which io_uring creates as threads of the submitting process. */
#define IODIG_PF_IO_WORKER 0x00000010
/* PF_EXITING: the task's last switch-out, never followed by a switch-in;
 * a record left in its slot would be read by the next thread given the
 * same id. */
#define IODIG_PF_EXITING 0x00000004

/* TASK_REPORT_MAX in the classic record's prev_state marks a preempted
 * task (__trace_sched_switch_state(); 0x100 since TASK_REPORT_IDLE came in
 * v4.14). */
#define IODIG_TASK_REPORT_MAX 0x100

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, SCHED_MAX_STACKS);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, SCHED_STACK_DEPTH * sizeof(__u64));
} stacks SEC(".maps");

/* Stacks taken at switch-in, by SCHED_TASK_STACK_ID | hash of frames. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SCHED_MAX_TASK_STACKS);
	__type(key, __u32);
	__type(value, struct sched_stack);
} task_stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SCHED_MAX_AGG);
	__type(key, struct sched_agg_key);
	__type(value, struct sched_agg_val);
} agg SEC(".maps");

/* Mmapable for its page-aligned values: each record then fills one cache
 * line instead of straddling two (a plain array's values start wherever
 * struct bpf_array ends). */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, SCHED_THREAD_SLOTS);
	__uint(map_flags, BPF_F_MMAPABLE);
	__type(key, __u32);
	__type(value, struct sched_start);
} start SEC(".maps");

/* io-wq worker thread id -> its switch-outs. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SCHED_MAX_IOWQ);
	__type(key, __u32);
	__type(value, __u64);
} iowq_threads SEC(".maps");

IODIG_PERCPU_SLOT(counters, struct sched_counters);

/* The task_struct::state -> __state rename, commit 2f064a59a11f ("sched:
 * Change task_struct::state", v5.14). */
struct task_struct___old {
	long state;
} __attribute__((preserve_access_index));

static __always_inline __u32 task_state(struct task_struct *t)
{
	if (bpf_core_field_exists(t->__state))
		return BPF_CORE_READ(t, __state);
	return BPF_CORE_READ((struct task_struct___old *)t, state);
}

static __always_inline struct sched_counters *counters_get(void)
{
	__u32 zero = 0;

	return bpf_map_lookup_elem(&counters, &zero);
}

/* "iou-wrk-<pid>" / "iou-sqp-<pid>": the first 8 bytes of comm. */
#define COMM_IOU_WRK 0x2d6b72772d756f69ull  /* "iou-wrk-" little endian */
#define COMM_IOU_SQP 0x2d7071732d756f69ull  /* "iou-sqp-" */

enum io_thread { NOT_IO_THREAD, IOWQ_WORKER, SQPOLL_THREAD };

/* comm is read only for PF_IO_WORKER tasks, a few of the workload's. */
static __always_inline enum io_thread io_thread_kind(struct task_struct *t, __u32 flags)
{
	__u64 head = 0;

	if (!(flags & IODIG_PF_IO_WORKER))
		return NOT_IO_THREAD;
	bpf_probe_read_kernel(&head, sizeof(head), &t->comm);
	if (head == COMM_IOU_WRK)
		return IOWQ_WORKER;
	if (head == COMM_IOU_SQP)
		return SQPOLL_THREAD;
	return NOT_IO_THREAD;
}

/*
 * The thread's start record: its slot, claimed on switch-out (@c given).
 * A thread off the CPU whose slot another workload thread claims
 * meanwhile (ids equal modulo thread_slots) loses that one off-CPU
 * interval, counted in start_drops; the count of switches stays exact.
 */
static __always_inline struct sched_start *start_of(__u32 tid, struct sched_counters *c)
{
	__u32 idx = tid & (thread_slots - 1);
	struct sched_start *st = bpf_map_lookup_elem(&start, &idx);

	if (!st)
		return NULL;
	if (c) {
		if (st->ts && st->gen == attach_gen && st->tid != tid)
			c->start_drops++;
		st->tid = tid;
		st->gen = attach_gen;
		return st;
	}
	return st->tid == tid ? st : NULL;
}

static __always_inline void count_iowq_thread(struct sched_counters *c, __u32 tid)
{
	__u64 one = 1, *n;

	n = bpf_map_lookup_elem(&iowq_threads, &tid);
	if (n) {
		__sync_fetch_and_add(n, 1);
		return;
	}
	if (bpf_map_update_elem(&iowq_threads, &tid, &one, BPF_NOEXIST) &&
	    !bpf_map_lookup_elem(&iowq_threads, &tid))
		c->iowq_drops++;
}

/* What a handler needs of the outgoing task, however it was read. */
struct out_info {
	struct task_struct *task;
	__u32 tid;
	__u32 task_flags;
	bool voluntary;
};

/* One in stack_period switches, at random: the sample's weight, 0 = not
 * taken.  The countdown sits beside the counters a switch writes anyway:
 * no lookup of its own. */
static __always_inline __u32 stack_weight(struct sched_counters *c)
{
	return iodig_sample_weight(&c->stack_gap, stack_period);
}

static __always_inline void agg_count(struct sched_agg_val *v, __u32 w)
{
	__sync_fetch_and_add(&v->count, 1);
	__sync_fetch_and_add(&v->count_w, w);
}

/*
 * Where the stack is taken.  At switch-out (bpf_get_stackid() of
 * current) the walk runs in __schedule() after the interval's start was
 * read and before anything else runs on this CPU, so it lengthens the
 * very interval it samples, and more than its own time when what it
 * delays is the work the thread waits for: sampled intervals ran long
 * and the parts added up to more than the whole (docs/overhead.md).  At
 * switch-in the sleeping task's stack is still the one it blocked with,
 * and bpf_get_task_stack() reads it after the interval has ended.  That
 * needs a BTF-typed task (tp_btf) and the helper (v5.9); raw_tp and the
 * classic tracepoint keep the switch-out walk.
 */
static __always_inline bool stack_at_switch_in(bool btf)
{
	return btf && bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_get_task_stack);
}

/* The (stack, flags) entry, created on first use. */
static __always_inline struct sched_agg_val *agg_get(struct sched_counters *c,
						     struct sched_agg_key *key)
{
	struct sched_agg_val *v, zero = {};

	v = bpf_map_lookup_elem(&agg, key);
	if (!v) {
		bpf_map_update_elem(&agg, key, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&agg, key);
	}
	if (!v)
		c->agg_drops++;
	return v;
}

/* Switch-out walk: the stack map's id, and the key's count. */
static __always_inline void sample_stack(void *ctx, struct sched_counters *c,
					 struct sched_agg_key *key, __u32 w)
{
	struct sched_agg_val *v;
	long id;

	c->sampled++;
	id = bpf_get_stackid(ctx, &stacks, 0);
	if (id < 0) {
		c->stack_drops++;
		key->stackid = (__u32)SCHED_NO_STACK;
	} else {
		key->stackid = (__u32)id;
	}
	v = agg_get(c, key);
	if (v)
		agg_count(v, w);
}

/* FNV-1a over the frames, into the task_stacks id space.  Two stacks of
 * one hash would share an entry: with hundreds of stacks in 2^30 ids,
 * rare enough to accept. */
static __always_inline __u32 stack_hash(const struct sched_stack *st)
{
	__u64 h = 0xcbf29ce484222325ull;

	for (int i = 0; i < SCHED_STACK_DEPTH && st->ips[i]; i++)
		h = (h ^ st->ips[i]) * 0x100000001b3ull;
	return SCHED_TASK_STACK_ID | ((__u32)(h ^ (h >> 32)) & (SCHED_TASK_STACK_ID - 1));
}

/* A stack is larger than the BPF stack allows: the walk below takes it
 * into this. */
IODIG_PERCPU_SLOT(stack_scratch, struct sched_stack);

_Static_assert((SCHED_STACK_DEPTH & (SCHED_STACK_DEPTH - 1)) == 0,
	       "stack indexes are masked with SCHED_STACK_DEPTH - 1");

/*
 * The return address of a user-entered task's outermost kernel frame:
 * the entry code calls its C handler (do_syscall_64, exc_page_fault, ...)
 * right after building pt_regs at the top of the stack, so the address
 * sits just below them.  0 when unknown (no bpf_task_pt_regs(), v5.15).
 */
static __always_inline __u64 outermost_frame(struct task_struct *task)
{
	__u64 ip = 0;

	if (bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_task_pt_regs))
		bpf_probe_read_kernel(&ip, sizeof(ip),
				      (void *)bpf_task_pt_regs(task) - sizeof(ip));
	return ip;
}

/*
 * The frames of @task's stack (scheduler frames left out by the kernel),
 * at most SCHED_STACK_DEPTH; 0 when the walk failed.
 *
 * A walk that runs past the outermost frame pays for the end of the stack
 * as much as for several frames: the unwinder reads the entry's pt_regs
 * and asks of the user address found there whether it is kernel text.
 * A walk asked for exactly as many frames as the stack has stops at the
 * outermost one.  So each thread's record keeps the depth of its last
 * whole stack (@depth), and the walk asks for that many; it took the
 * whole stack when its last frame is the outermost one (a syscall's
 * entry never lies deeper in a stack), else it walks again in full.  A
 * thread that blocked and one that was preempted (on its way back to
 * user space, mostly) stopped at different depths, so each kind has its
 * own.
 */
static __always_inline long walk_stack(struct task_struct *task, struct sched_stack *st,
				       __u32 *depth)
{
	__u64 outer = outermost_frame(task);
	/* masked, not compared: the verifier needs the size's bounds */
	__u32 d = *depth & (SCHED_STACK_DEPTH - 1);
	long n = 0;

	if (d) {
		n = bpf_get_task_stack(task, st->ips, d * sizeof(__u64), 0) / sizeof(__u64);
		if (n == d && st->ips[(d - 1) & (SCHED_STACK_DEPTH - 1)] != outer)
			n = 0;
	}
	if (n <= 0)
		n = bpf_get_task_stack(task, st->ips, sizeof(st->ips), 0) / sizeof(__u64);
	if (n <= 0 || n > SCHED_STACK_DEPTH)
		return 0;
	*depth = outer && st->ips[(n - 1) & (SCHED_STACK_DEPTH - 1)] == outer ? n : 0;
	/* A short walk leaves older frames behind its last one. */
	if (n < SCHED_STACK_DEPTH)
		st->ips[n & (SCHED_STACK_DEPTH - 1)] = 0;
	return n;
}

/*
 * Stack fingerprints.  A walk is dear (cold unwind tables,
 * docs/overhead.md); reading a sleeping task's stack and hashing it is a
 * copy and a short loop.  The fingerprint hashes the (position, value) of
 * every word in kernel code from the saved stack pointer up to the
 * second-outermost frame's slot (its "span", counted in words from the
 * stack pointer), then the outermost frame's return address, which lies
 * just below pt_regs.  Every return address the unwinder follows up to
 * there, the scheduler's own frames included, is among those words at its
 * place.  It finds most frames at fixed offsets from the stack pointer
 * (ORC): equal code words at equal places are equal frames, barring a
 * 64-bit hash collision.  Where it reads a saved frame or stack pointer
 * instead (do_syscall_64()'s frame, an interrupt's pt_regs), those words
 * are not hashed and equal return addresses around them are trusted to
 * mean equal pointers: not proven, so IODIG_SCHED_STACK_VERIFY walks the
 * hits too and counts any difference (tests/host/
 * sched_stack_fingerprint.sh: none).  Stale code addresses in
 * uninitialised slots change the fingerprint, not the stack: a walk, not
 * a wrong stack.
 *
 * Why a span and not the whole stack: a system call's entry moves the
 * stack by a random offset (CONFIG_RANDOMIZE_KSTACK_OFFSET, in
 * do_syscall_64()), and the gap it leaves below the outermost frame holds
 * the stale words of earlier calls, different at each call.  Positions
 * are counted from the stack pointer, so the frames below the gap keep
 * theirs.  A walk gives the span (the highest slot holding the
 * second-outermost frame: too high only costs misses, too low would leave
 * frames out); the few spans seen are kept in fp_spans, and a lookup
 * tries each.
 *
 * x86-64 only (thread.sp: the stack pointer __switch_to_asm() saved,
 * valid while the task is off the CPU); bpf_task_pt_regs() is v5.15.
 */
#define FP_WORDS (SCHED_FP_BYTES / sizeof(__u64))
#define FP_SPANS 8
#define FNV_PRIME 0x100000001b3ull

/* Spans learned from walks, 0 = free; written racily (a span lost to
 * another CPU's is learned again at a later miss). */
__u32 fp_spans[FP_SPANS] SEC(".data.fp_spans") = {};

/* Stack fingerprint -> the task_stacks id a walk found for it. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SCHED_MAX_FINGERPRINTS);
	__type(key, __u64);
	__type(value, __u32);
} stack_by_fp SEC(".maps");

/* A sleeping task's live stack words, from its saved stack pointer up to
 * its pt_regs, and the hash of its code words up to each slot: larger
 * than the BPF stack allows. */
struct fp_words {
	__u64 w[FP_WORDS];
	__u64 h[FP_WORDS];
	/* Kept here, not in registers, so that the verifier does not carry
	 * one state per loop exit (each with its own known value) through
	 * the rest of the program. */
	__u64 n;
	__u64 span;
};
IODIG_PERCPU_SLOT(fp_scratch, struct fp_words);

_Static_assert((FP_WORDS & (FP_WORDS - 1)) == 0, "slots are masked with FP_WORDS - 1");

/* bpf_loop() state of hash_words(): a pointer into the caller's stack, so
 * the verifier checks the callback once instead of walking 512 unrolled
 * iterations (35-50 ms of CPU at every load, docs/overhead.md). */
struct hash_ctx {
	struct fp_words *b;
	__u64 h;
	__u64 n;
};

/* Words per bpf_loop() call.  A call per word (a BPF-to-BPF call and
 * return, the state through memory) made a psync sample 2.2x dearer
 * than the unrolled loop did; 8 words a call 1.22x, 32 1.13x, and the
 * verifier walks a batch's words once each (8,233 instructions verified
 * at 32, 4,950 at 1, 35,403 unrolled; docs/overhead.md). */
#define FP_BATCH 32

/* Words [j * FP_BATCH, + FP_BATCH) of stack_words()' running hash. */
static long hash_words(__u64 j, void *arg)
{
	struct hash_ctx *hc = arg;
	struct fp_words *b = hc->b;
	__u64 h = hc->h;

	for (__u32 k = 0; k < FP_BATCH; k++) {
		__u64 i = j * FP_BATCH + k, w;

		if (i >= hc->n)
			break;
		w = b->w[i & (FP_WORDS - 1)];
		if (w >= ktext_lo) {
			h = (h ^ w) * FNV_PRIME;
			h = (h ^ i) * FNV_PRIME;
		}
		b->h[i & (FP_WORDS - 1)] = h;
	}
	hc->h = h;
	return 0;
}

/* @task's live stack into @b, and its running hashes; the number of
 * words, 0 when it cannot be read (then every sample walks).  Without
 * bpf_loop() (5.17) user space leaves ktext_lo at 0: no fingerprints. */
static __always_inline __u32 stack_words(struct task_struct *task, struct fp_words *b)
{
	struct hash_ctx hc = { .b = b, .h = 0xcbf29ce484222325ull };
	__u32 calls;
	__u64 sp, top, len;
	__u32 n;

	if (!ktext_lo || !bpf_core_field_exists(task->thread.sp) ||
	    !bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_task_pt_regs) ||
	    !bpf_core_enum_value_exists(enum bpf_func_id, BPF_FUNC_loop))
		return 0;
	/* The verifier refuses arithmetic between a kernel pointer and an
	 * unbounded number; stored to map memory (as a privileged program
	 * may) the pointer reads back as a number. */
	b->w[0] = (__u64)bpf_task_pt_regs(task);
	top = *(volatile __u64 *)&b->w[0];
	sp = task->thread.sp;
	len = top - sp;
	/* the verifier needs the copy's size bounded */
	barrier_var(len);
	if (top <= sp || len > sizeof(b->w) || len < 2 * sizeof(__u64) || (len & 7))
		return 0;
	if (bpf_probe_read_kernel(b->w, len, (void *)sp))
		return 0;
	n = len / sizeof(__u64);
	b->n = hc.n = n;
	calls = (n + FP_BATCH - 1) / FP_BATCH;
	if (bpf_loop(calls, hash_words, &hc, 0) != calls)
		return 0;
	return *(volatile __u64 *)&b->n;
}

/* The fingerprint of the stack in @b (@n words) with span @k (< n - 1). */
static __always_inline __u64 fp_of(const struct fp_words *b, __u32 n, __u32 k)
{
	__u64 h = b->h[k & (FP_WORDS - 1)];

	h = (h ^ k) * FNV_PRIME;
	h = (h ^ b->w[(n - 1) & (FP_WORDS - 1)]) * FNV_PRIME;
	return h ? h : 1;
}

/* The stack id of a known fingerprint of the stack in @b; 0 = none. */
static __always_inline __u32 fp_lookup(const struct fp_words *b, __u32 n)
{
	for (__u32 j = 0; j < FP_SPANS; j++) {
		__u32 k = fp_spans[j], *id;
		__u64 fp;

		if (!k)
			break;
		if (k >= n - 1)
			continue;
		fp = fp_of(b, n, k);
		id = bpf_map_lookup_elem(&stack_by_fp, &fp);
		if (id)
			return *id;
	}
	return 0;
}

/* bpf_loop() state of span_words(), as struct hash_ctx. */
struct span_ctx {
	struct fp_words *b;
	__u64 second;  /* the second-outermost frame's address */
	__u64 top;     /* the highest slot searched (n - 2) */
};

/* FP_BATCH slots of fp_learn()'s search, from the top down: the highest
 * slot holding the second-outermost frame is the span; found, or past
 * slot 0, stop. */
static long span_words(__u64 j, void *arg)
{
	struct span_ctx *sc = arg;

	for (__u32 k = 0; k < FP_BATCH; k++) {
		__u64 d = j * FP_BATCH + k, i = sc->top - d;

		if (d > sc->top)
			return 1;
		if (sc->b->w[i & (FP_WORDS - 1)] == sc->second) {
			sc->b->span = i;
			return 1;
		}
	}
	return 0;
}

/* After a walk of @nf frames @st gave the stack @id of the words in @b
 * (@n of them): its span, and its fingerprint remembered.  Only a whole
 * stack: the walk's outermost frame is the one below pt_regs. */
static __always_inline void fp_learn(struct fp_words *b, __u32 n,
				     const struct sched_stack *st, __u32 nf, __u32 id)
{
	__u64 outer = st->ips[(nf - 1) & (SCHED_STACK_DEPTH - 1)], fp;
	__u32 k, j;

	if (!nf || outer != b->w[(n - 1) & (FP_WORDS - 1)])
		return;
	b->span = 0;
	if (nf < 2) {
		b->span = n - 2;
	} else {
		struct span_ctx sc = {
			.b = b, .second = st->ips[(nf - 2) & (SCHED_STACK_DEPTH - 1)],
			.top = n - 2,
		};

		bpf_loop((n - 1 + FP_BATCH - 1) / FP_BATCH, span_words, &sc, 0);
	}
	k = *(volatile __u64 *)&b->span;
	if (!k)
		return;
	for (j = 0; j < FP_SPANS; j++) {
		if (fp_spans[j] == k)
			break;
		if (!fp_spans[j]) {
			fp_spans[j] = k;
			break;
		}
	}
	if (j == FP_SPANS)
		return;
	fp = fp_of(b, n, k);
	bpf_map_update_elem(&stack_by_fp, &fp, &id, BPF_NOEXIST);
}

/* @st (a walk's result) into task_stacks; its id into @key. */
static __always_inline void store_stack(struct sched_counters *c, struct sched_agg_key *key,
					const struct sched_stack *st)
{
	key->stackid = stack_hash(st);
	/* Nearly every stack is one seen before: a lookup takes no bucket
	 * lock, an update does even when it finds the entry. */
	if (bpf_map_lookup_elem(&task_stacks, &key->stackid))
		return;
	if (bpf_map_update_elem(&task_stacks, &key->stackid, st, BPF_NOEXIST) &&
	    !bpf_map_lookup_elem(&task_stacks, &key->stackid)) {
		c->stack_drops++;
		key->stackid = (__u32)SCHED_NO_STACK;
	}
}

/* Where fingerprints seldom repeat (a fifth or fewer of this CPU's found
 * their stack: buffered writes with fsync, io_uring's waits), each costs a
 * copy and a hash on top of a walk; then only 1 sample in 8 takes one,
 * enough to see the share rise again. */
static __always_inline bool fp_rarely_found(const struct sched_counters *c)
{
	return c->fp_misses > 64 && c->fp_misses > 4 * c->fp_hits && (c->sampled & 7);
}

/* Switch-in stack: @task's stack as it blocked, its id into @key; by its
 * fingerprint when a walk found it before, else walked into task_stacks
 * and its fingerprint remembered. */
static __always_inline void task_stack_id(struct task_struct *task, struct sched_counters *c,
					  struct sched_agg_key *key, __u32 *depth)
{
	__u32 zero = 0, known = 0, n = 0;
	struct sched_stack *st;
	struct fp_words *b;
	long nf;

	c->sampled++;
	key->stackid = (__u32)SCHED_NO_STACK;
	b = bpf_map_lookup_elem(&fp_scratch, &zero);
	if (fp_rarely_found(c))
		c->fp_skipped++;
	else if (b && !(n = stack_words(task, b)))
		c->fp_none++;
	if (n) {
		known = fp_lookup(b, n);
		if (known) {
			c->fp_hits++;
			key->stackid = known;
			if (!fp_verify)
				return;
		} else {
			c->fp_misses++;
		}
	}
	st = bpf_map_lookup_elem(&stack_scratch, &zero);
	if (!st)
		return;
	nf = walk_stack(task, st, depth);
	if (!nf) {
		c->stack_drops++;
		key->stackid = (__u32)SCHED_NO_STACK;
		return;
	}
	store_stack(c, key, st);
	if (known) {
		if (key->stackid != known)
			c->fp_mismatches++;
	} else if (n && b && key->stackid != (__u32)SCHED_NO_STACK) {
		fp_learn(b, n, st, (__u32)nf, key->stackid);
	}
}

static __always_inline void switch_out(void *ctx, const struct out_info *o, __u64 now,
				       bool btf)
{
	struct sched_agg_key key = { .stackid = (__u32)SCHED_UNSAMPLED };
	struct sched_counters *c = counters_get();
	struct sched_start *st;
	enum io_thread kind;
	__u32 w = 0;

	if (!c)
		return;
	kind = io_thread_kind(o->task, o->task_flags);
	key.flags = (o->voluntary ? SCHED_F_VOLUNTARY : 0) |
		    (kind == IOWQ_WORKER ? SCHED_F_IOWQ : 0);

	c->switches++;
	if (o->voluntary)
		c->voluntary++;
	else
		c->involuntary++;
	if (kind == IOWQ_WORKER) {
		c->iowq_switches++;
		count_iowq_thread(c, o->tid);
	} else if (kind == SQPOLL_THREAD) {
		c->sqpoll_switches++;
	}
	if (!stack_at_switch_in(btf)) {
		w = stack_weight(c);
		if (w)
			sample_stack(ctx, c, &key, w);
	}
	if (o->task_flags & IODIG_PF_EXITING)
		return;

	st = start_of(o->tid, c);
	if (!st) {
		c->start_drops++;
		return;
	}
	st->ts = now;
	st->key = key;
	st->weight = w;
}

static __always_inline void switch_in(struct task_struct *task, __u32 tid, __u64 now, bool btf)
{
	struct sched_start *st = start_of(tid, NULL);
	struct sched_agg_key key;
	struct sched_counters *c;
	struct sched_agg_val *v;
	__u64 then, d, clip;
	__u32 w;

	if (!st || !st->ts)
		return;
	then = st->ts;
	st->ts = 0;
	if (st->gen != attach_gen)
		return;
	if (now <= then)
		return;
	d = now - then;
	c = counters_get();
	if (!c)
		return;
	clip = d < SCHED_CLIP_NS ? d : SCHED_CLIP_NS;
	c->switch_ins++;
	c->offcpu_ns += d;
	c->offcpu_clip_ns += clip;
	key = st->key;
	if (key.flags & SCHED_F_VOLUNTARY)
		c->offcpu_vol_ns += d;
	if (stack_at_switch_in(btf)) {
		w = stack_weight(c);
		if (!w)
			return;
		task_stack_id(task, c, &key,
			      &st->walk_depth[key.flags & SCHED_F_VOLUNTARY ? 1 : 0]);
		v = agg_get(c, &key);
		if (v)
			agg_count(v, w);
	} else {
		w = st->weight;
		if (!w || key.stackid == (__u32)SCHED_UNSAMPLED)
			return;
		v = bpf_map_lookup_elem(&agg, &key);
	}
	if (!v)
		return;
	__sync_fetch_and_add(&v->timed, 1);
	__sync_fetch_and_add(&v->timed_w, w);
	__sync_fetch_and_add(&v->offcpu_ns, w * d);
	__sync_fetch_and_add(&v->clip_ns, w * clip);
	d /= 1000;
	clip /= 1000;
	__sync_fetch_and_add(&v->offcpu_sq_us, w * d * d);
	__sync_fetch_and_add(&v->clip_sq_us, w * clip * clip);
}

/* Whether the switch is voluntary, as the kernel counts nvcsw: the task
 * was not preempted and its state was not TASK_RUNNING. */
static __always_inline bool voluntary_of(__u64 *ctx, bool preempt, struct task_struct *prev)
{
	__u32 state;

	if (preempt)
		return false;
	if (has_prev_state)
		state = (__u32)ctx[3];
	else
		state = task_state(prev);
	return state != 0;
}

/* sched_switch(bool preempt, prev, next[, unsigned int prev_state]):
 * @btf is constant at each call site, so each variant keeps only its own
 * kind of loads. */
static __always_inline void bit_set(__u64 *map, __u32 bit)
{
	if (!(map[bit / 64] & (1ull << (bit % 64))))
		__sync_fetch_and_or(&map[bit / 64], 1ull << (bit % 64));
}

static __always_inline bool bit_test(const __u64 *map, __u32 bit)
{
	return map[bit / 64] & (1ull << (bit % 64));
}

/* The time of this switch, in the units of every other "now" here; @t
 * is the workload task switching on this CPU (fair class: its cfs_rq is
 * this CPU's). */
static __always_inline __u64 switch_now(struct task_struct *t, bool btf)
{
	if (btf && bpf_core_field_exists(struct cfs_rq, rq)) {
		struct cfs_rq *cfs = t->se.cfs_rq;
		struct rq *rq = cfs ? cfs->rq : NULL;

		if (rq)
			return rq->clock;
	}
	return bpf_ktime_get_ns();
}

static __always_inline int handle_switch(__u64 *ctx, bool btf)
{
	struct task_struct *prev = (struct task_struct *)ctx[1];
	struct task_struct *next = (struct task_struct *)ctx[2];
	__u32 prev_tgid, prev_tid, next_tgid;
	__u64 now = 0;

	/* prev is current: without BTF its ids come from a helper, cheaper
	 * than a probe read; only next's tgid needs one.  (Skipping next's
	 * task_struct behind a bitmap keyed by the task pointer, as the
	 * tracepoint variant does by pid, measured slower per event:
	 * docs/overhead.md.) */
	if (btf) {
		prev_tgid = prev->tgid;
		prev_tid = prev->pid;
		next_tgid = next->tgid;
	} else {
		__u64 id = bpf_get_current_pid_tgid();

		prev_tgid = id >> 32;
		prev_tid = (__u32)id;
		next_tgid = BPF_CORE_READ(next, tgid);
	}
	if (iodig_traced_tgid(prev_tgid) && prev_tid != iodig_supervisor_tid) {
		struct out_info o = { .task = prev, .tid = prev_tid };

		o.task_flags = btf ? prev->flags : BPF_CORE_READ(prev, flags);
		o.voluntary = voluntary_of(ctx, (bool)ctx[0], prev);
		now = switch_now(prev, btf);
		switch_out(ctx, &o, now, btf);
	}
	if (iodig_traced_tgid(next_tgid)) {
		__u32 next_tid = btf ? next->pid : BPF_CORE_READ(next, pid);

		if (next_tid == iodig_supervisor_tid)
			return 0;
		if (!now)
			now = switch_now(next, btf);
		switch_in(next, next_tid, now, btf);
	}
	return 0;
}

IODIG_TP_PROGS(sched_switch, sw, handle_switch(ctx, btf))

static __always_inline void tid_mark(__u32 tid)
{
	bit_set(tid_seen, tid % SCHED_TID_BITS);
}

static __always_inline bool tid_maybe(__u32 tid)
{
	return bit_test(tid_seen, tid % SCHED_TID_BITS);
}

/*
 * The classic record: prev_comm, prev_pid, prev_prio, prev_state,
 * next_comm, next_pid, next_prio.  The outgoing task is current; the
 * incoming one is known only by pid.  prev_state carries
 * TASK_REPORT_MAX for a preempted task and no separate preempt flag.
 */
SEC("tracepoint/sched/sched_switch")
int iodig_sw_tp(struct trace_event_raw_sched_switch *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u64 now = 0;
	__u32 next_pid;

	if (iodig_current_slot() >= 0) {
		struct task_struct *task = (struct task_struct *)bpf_get_current_task();
		long state = ctx->prev_state;
		struct out_info o = {
			.task = task,
			.tid = (__u32)id,
			.task_flags = BPF_CORE_READ(task, flags),
			.voluntary = state != 0 && !(state & IODIG_TASK_REPORT_MAX),
		};

		tid_mark(o.tid);
		now = bpf_ktime_get_ns();
		switch_out(ctx, &o, now, false);
	}
	next_pid = ctx->next_pid;
	if (next_pid && next_pid != iodig_supervisor_tid && tid_maybe(next_pid)) {
		if (!now)
			now = bpf_ktime_get_ns();
		switch_in(NULL, next_pid, now, false);
	}
	return 0;
}
