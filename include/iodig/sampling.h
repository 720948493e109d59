/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The sampling probe family's maps, shared by bpf/sampling.bpf.c and
 * user/probes/sampling.c: cpu-clock samples of the workload's threads,
 * counted per {kernel stack, class}.  Fixed-width types only.
 */
#ifndef IODIG_SAMPLING_H
#define IODIG_SAMPLING_H

#include "iodig/hist.h"

/*
 * Samples per second per CPU (--sample-freq overrides).  Prime, so the
 * timer does not beat with periodic kernel work (the tick at 100/250/1000
 * Hz).  A kernel sample of the workload costs a stack unwind in BPF, and
 * in a VM the timer interrupt and its re-arming cost more than that: a
 * few hundred Hz cost the job measurable IOPS where 99 Hz stayed within
 * the noise (docs/overhead.md, make bench part (b) with VARIANTS=hzN).
 * At 99 Hz a function taking 10% of a 10-second run on one busy CPU
 * still gets ~100 samples, a relative error of 1/sqrt(100) = 10%, which
 * the report prints with each function; --detail samples at 999 and
 * --sample-freq=HZ at any rate up to 9999.
 */
#define SAMPLING_FREQ_HZ 99
#define SAMPLING_DETAIL_FREQ_HZ 999
#define SAMPLING_MAX_FREQ_HZ 9999

/* Frames kept per kernel stack: a submission path from the syscall entry
 * to the driver is 30-40 frames deep; interrupts on top add a dozen. */
#define SAMPLING_STACK_DEPTH 64
/*
 * Distinct {stack, class} pairs counted at most (fewer for a short run:
 * user/probes/sampling.c); later new ones are counted as dropped.  A
 * short libaio run needs far fewer (docs/overhead.md).  The stack itself
 * is the hash key rather than a bpf_get_stackid() id: the stack-trace map
 * keeps one stack per bucket and fails a colliding new one with -EEXIST,
 * which lost samples (the rare paths' first) even at 16k buckets.
 */
#define SAMPLING_MAX_AGG 16384

/* What the sampled thread was doing. */
enum sampling_class {
	SAMPLE_SUBMIT,        /* in the kernel, inside a submitting call */
	SAMPLE_REAP,          /* in the kernel, inside a reaping call */
	SAMPLE_OTHER_KERNEL,  /* in the kernel otherwise (faults, other
			       * calls, io-wq and SQPOLL threads) */
	SAMPLE_USER,          /* in user mode */
	SAMPLE_CLASS_NR,
};

/* Kernel samples only: a user sample is counted, its stack not kept. */
struct sampling_key {
	iodig_u32 cls;        /* enum sampling_class */
	iodig_u32 pad;
	iodig_u64 ips[SAMPLING_STACK_DEPTH];  /* leaf first, zero-filled */
};

/* Per-CPU counters; each CPU writes only its own copy. */
struct sampling_counters {
	iodig_u64 samples[SAMPLE_CLASS_NR];
	iodig_u64 stack_errors;  /* bpf_get_stack() failed */
	iodig_u64 agg_full;      /* the {stack, class} hash was full */
};

#endif /* IODIG_SAMPLING_H */
