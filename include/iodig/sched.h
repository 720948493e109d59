/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sched probe family's maps, shared by bpf/sched.bpf.c and
 * user/probes/sched.c: context switches of the workload's threads, by
 * kernel stack, voluntary or not, with the time spent off the CPU.
 * Fixed-width types only.
 */
#ifndef IODIG_SCHED_H
#define IODIG_SCHED_H

#include "iodig/hist.h"

/* Frames kept per kernel stack.  The blocking function sits a few frames
 * below __schedule; 32 also keeps the syscall that led there. */
#define SCHED_STACK_DEPTH 32
/* Stack map buckets.  bpf_get_stackid() fails with -EEXIST when a new
 * stack hashes to a taken bucket, so it is kept well above the number of
 * distinct stacks a workload shows (tens to a few hundred). */
#define SCHED_MAX_STACKS 8192
/* Stacks taken at switch-in, kept whole by hash: no bucket collisions to
 * leave room for, so sized for the distinct stacks alone. */
#define SCHED_MAX_TASK_STACKS 2048
/* Stack fingerprints remembered (stack_by_fp in bpf/sched.bpf.c): a
 * sampled switch-in whose fingerprint is among them takes its stack id
 * from there instead of walking.  A blocking path gives a few
 * fingerprints (the stale words in its frames vary a little); once full,
 * new ones are not kept and their switch-ins walk. */
#define SCHED_MAX_FINGERPRINTS 8192
/* Bytes of a sleeping task's stack fingerprinted at most; a deeper stack
 * is walked every time. */
#define SCHED_FP_BYTES 4096

/* (stack, voluntary, io-wq) combinations kept. */
#define SCHED_MAX_AGG 4096
/* io-wq worker threads counted one by one (default; sized from the job). */
#define SCHED_MAX_IOWQ 1024
/* Switch-out records, one per thread slot (tid % slots): the default;
 * user/probes/sched.c sizes them from the job. */
#define SCHED_THREAD_SLOTS 4096
/* Thread-id bitmap bits, see tid_seen in bpf/sched.bpf.c. */
#define SCHED_TID_BITS 8192

/* Set in a stackid that names an entry of task_stacks (a stack taken at
 * switch-in, keyed by a hash of its frames), clear in one of stacks. */
#define SCHED_TASK_STACK_ID 0x40000000u

/* Stored as stackid when bpf_get_stackid() failed. */
#define SCHED_NO_STACK (-1)
/* Stored in a thread's start record when its switch-out took no stack. */
#define SCHED_UNSAMPLED (-2)

/*
 * 1 in this many switches of the workload takes its kernel stack, at
 * least.  A stack walk costs far more than the rest of a switch
 * (docs/overhead.md), and 1 in 64 keeps its share per switch small; a
 * blocking point behind 1% of 100,000 switches still gets ~16 samples.
 * Above SCHED_STACKS_PER_S x 64 switches a second (a synchronous engine
 * sleeps at every I/O) user space widens the period, a power of two up to
 * SCHED_STACK_PERIOD_MAX, every ~200 ms, so that about SCHED_STACKS_PER_S
 * stacks a second are taken; each sample carries its period as weight.
 */
#define SCHED_STACK_PERIOD 64
#define SCHED_STACKS_PER_S 128
#define SCHED_STACK_PERIOD_MAX 4096

/*
 * Off-CPU intervals cut at this length, summed apart: the check that the
 * sampled switches are a fair sample compares their sum of cut intervals
 * with the exact one.  Uncut, a few intervals of a busy machine's tens of
 * milliseconds decide the samples' sum, and its error hides a bias of
 * microseconds per sampled interval.
 */
#define SCHED_CLIP_NS 250000ull

/* sched_agg_key.flags */
#define SCHED_F_VOLUNTARY 1u    /* blocked, rather than preempted */
#define SCHED_F_IOWQ      2u    /* an io_uring io-wq worker (iou-wrk-*) */

struct sched_agg_key {
	iodig_u32 stackid;      /* (u32)SCHED_NO_STACK when unknown */
	iodig_u32 flags;        /* SCHED_F_* */
};

/* Sampled switches only; "w" sums are weighted by each sample's period
 * (the switches it stands for). */
struct sched_agg_val {
	iodig_u64 count;        /* switches sampled */
	iodig_u64 count_w;
	iodig_u64 timed;        /* of them, returns seen (all, at switch-in) */
	iodig_u64 timed_w;
	iodig_u64 offcpu_ns;    /* w x (switch out -> back in), summed */
	iodig_u64 offcpu_sq_us; /* w x its square, in us^2: the sampling error */
	iodig_u64 clip_ns;      /* w x the time cut at SCHED_CLIP_NS */
	iodig_u64 clip_sq_us;   /* w x its square */
};

/* A kernel stack taken at switch-in, innermost frame first, zero-filled. */
struct sched_stack {
	iodig_u64 ips[SCHED_STACK_DEPTH];
};

/* Per-thread switch-out record, in the thread's slot. */
struct sched_start {
	iodig_u64 ts;           /* 0 = on the CPU, or not seen leaving it */
	struct sched_agg_key key;
	iodig_u32 tid;          /* the slot's owner */
	iodig_u32 gen;          /* attach_gen when written (--probe-toggle) */
	iodig_u32 weight;       /* the switch-out's sample weight, 0 = none */
	/* Frames of its last whole stack taken at switch-in, after an
	 * involuntary [0] and a voluntary [1] switch-out, 0 = unknown
	 * (walk_stack() in bpf/sched.bpf.c). */
	iodig_u32 walk_depth[2];
	iodig_u32 pad0;
	/* A cache line per slot: threads created together have consecutive
	 * ids and switch on different CPUs. */
	iodig_u64 pad[3];
};
_Static_assert(sizeof(struct sched_start) == 64, "a sched_start fills one cache line");

/* Per-CPU counters; each CPU writes only its own copy.  What a workload
 * switch writes comes first, in as few cache lines as the per-CPU
 * allocation (8-byte aligned) allows. */
struct sched_counters {
	iodig_u64 switches;     /* switch-outs of workload threads */
	iodig_u64 voluntary;
	iodig_u64 involuntary;
	iodig_u64 switch_ins;   /* returns to the CPU with a known start */
	iodig_u64 offcpu_ns;    /* their time off the CPU, exact */
	iodig_u64 offcpu_vol_ns; /* the part after voluntary switch-outs */
	iodig_u64 offcpu_clip_ns; /* each interval cut at SCHED_CLIP_NS */
	iodig_u64 stack_gap;    /* not a count: this CPU's switches to go
				 * until the next stack; its sum means nothing */
	iodig_u64 iowq_switches;
	iodig_u64 sqpoll_switches; /* iou-sqp-* threads */
	iodig_u64 sampled;      /* switch-outs that took their stack */
	iodig_u64 stack_drops;  /* bpf_get_stackid() failed (bucket taken) */
	iodig_u64 agg_drops;    /* aggregation map full */
	iodig_u64 start_drops;  /* a thread's record taken by another thread
				 * (ids equal modulo the slots) while it was
				 * off the CPU: that interval not timed */
	iodig_u64 iowq_drops;   /* io-wq thread map full */
	/* Sampled switch-ins whose stack fingerprint was known (no walk),
	 * unknown (walked, then remembered), or could not be taken (walked:
	 * no fingerprint, see stack_fingerprint() in bpf/sched.bpf.c). */
	iodig_u64 fp_hits;
	iodig_u64 fp_misses;
	iodig_u64 fp_none;
	iodig_u64 fp_skipped;   /* not taken: this CPU's fingerprints seldom
				 * found their stack (fp_rarely_found()) */
	/* IODIG_SCHED_STACK_VERIFY: hits walked anyway whose walk found
	 * another stack than the fingerprint's (a collision); 0 expected. */
	iodig_u64 fp_mismatches;
};

#endif /* IODIG_SCHED_H */
