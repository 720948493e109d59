/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Figures of a whole, known exactly, split into parts from a random
 * sample of its events (each event sampled on its own with probability
 * 1/period): each part gets its share of the samples applied to the
 * exact whole, so the parts add up to it, with a standard error from the
 * samples.  The samples' own sum scaled by the period (Horvitz-Thompson)
 * is kept beside it as a check that the sample is fair: it should match
 * the exact whole within its standard error.
 */
#ifndef IODIG_PROBES_SAMPLE_SHARE_H
#define IODIG_PROBES_SAMPLE_SHARE_H

#include <stdint.h>

/* Sampled events of one part, or of the whole. */
struct sample_sums {
	uint64_t n;       /* events sampled */
	uint64_t ns;      /* their values (times) summed */
	uint64_t sq_us;   /* their values' squares, in us^2 */
};

void sample_sums_add(struct sample_sums *to, const struct sample_sums *from);

/* @part of @whole (sampled counts or sums) applied to @exact, rounded. */
uint64_t sample_scale(uint64_t part, uint64_t whole, uint64_t exact);

/* The samples' time scaled by @period (the whole's estimate without the
 * exact total), and its standard error in *se (ns). */
double sample_total_estimate(const struct sample_sums *all, unsigned int period, double *se);

/* The standard error (ns) of @part's time share of @all applied to
 * @exact_ns (delta method for a ratio of two sampled sums). */
double sample_share_se(const struct sample_sums *part, const struct sample_sums *all,
		       unsigned int period, uint64_t exact_ns);

#endif /* IODIG_PROBES_SAMPLE_SHARE_H */
