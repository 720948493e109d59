/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A per-CPU xorshift64* generator (Vigna, "An experimental exploration of
 * Marsaglia's xorshift generators", 2016) for the random sampling
 * decisions on hot paths.  bpf_get_prandom_u32() cost more than the rest
 * of an untimed block completion (docs/overhead.md); this is a map load
 * and a few ALU operations.  Sampling needs no more than
 * equidistribution; the helper still seeds each CPU's state on first use.
 *
 * Programs of one object share the state; one nested in another on the
 * same CPU may repeat a value, which only repeats one decision.
 */
#ifndef IODIG_FAST_RAND_BPF_H
#define IODIG_FAST_RAND_BPF_H

#include <bpf/bpf_helpers.h>
#include "percpu_maps.bpf.h"

IODIG_PERCPU_SLOT(iodig_rng, __u64);

static __always_inline __u32 iodig_rand32(void)
{
	__u32 zero = 0;
	__u64 *st = bpf_map_lookup_elem(&iodig_rng, &zero);
	__u64 x;

	if (!st)
		return bpf_get_prandom_u32();
	x = *st;
	if (!x)   /* the all-zero state is the one fixed point */
		x = ((__u64)bpf_get_prandom_u32() << 32) | bpf_get_prandom_u32() | 1;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*st = x;
	return (__u32)((x * 0x2545F4914F6CDD1Dull) >> 32);
}

/*
 * One in @period events, at random: the event's weight, 0 = not taken.
 * *@gap counts down to the next one, drawn uniformly from 1 ..
 * 2 * period - 1 (mean: the period), so most events only count down, with
 * no draw; random rather than every Nth, which could beat with a workload
 * that alternates two kinds of event.
 */
static __always_inline __u32 iodig_sample_weight(__u64 *gap, __u32 period)
{
	if (period <= 1)
		return 1;
	if (*gap > 1) {
		(*gap)--;
		return 0;
	}
	*gap = 1 + iodig_rand32() % (2 * period - 1);
	return period;
}

#endif /* IODIG_FAST_RAND_BPF_H */
