/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Figures of a whole, known exactly, split into parts from a random
 * sample of its events, each event sampled on its own with probability
 * 1/w and weighted by w (w may change during a run): each part gets its
 * share of the weighted samples applied to the exact whole, so the parts
 * add up to it, with a standard error from the samples.  The weighted
 * samples' own sum (Horvitz-Thompson) is kept beside it as a check that
 * the sample is fair: it should match the exact whole within its error.
 */
#ifndef IODIG_PROBES_SAMPLE_SHARE_H
#define IODIG_PROBES_SAMPLE_SHARE_H

#include <stdint.h>

/* Sampled events of one part, or of the whole. */
struct sample_sums {
	uint64_t n;       /* events sampled */
	uint64_t w;       /* their weights summed: the events they stand for */
	uint64_t ns;      /* weight x value (a time), summed */
	uint64_t sq_us;   /* weight x value^2, in us^2 */
};

void sample_sums_add(struct sample_sums *to, const struct sample_sums *from);

/* @part of @whole (weighted sums) applied to @exact, rounded. */
uint64_t sample_scale(uint64_t part, uint64_t whole, uint64_t exact);

/* The samples' weighted time (the whole's estimate without the exact
 * total), and its standard error in *se (ns). */
double sample_total_estimate(const struct sample_sums *all, double *se);

/* The standard error (ns) of @part's time share of @all applied to
 * @exact_ns (delta method for a ratio of two sampled sums). */
double sample_share_se(const struct sample_sums *part, const struct sample_sums *all,
		       uint64_t exact_ns);

#endif /* IODIG_PROBES_SAMPLE_SHARE_H */
