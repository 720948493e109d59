// SPDX-License-Identifier: GPL-2.0
/*
 * Parts of an exact whole from a weighted sample of its events: see
 * probes/sample_share.h.  An event sampled with probability 1/w and
 * weighted by w makes the weighted sum an unbiased estimate of the sum
 * over all events (Horvitz-Thompson), with variance estimated by the sum
 * of w (w - 1) value^2 over the samples; the samples keep w value^2, so
 * that is taken as (mean w - 1) times it, exact while the period holds.
 * A part's share b/a of two such sums has, to first order, the variance
 * of the weighted sum of (x_i - share y_i) over a^2.
 */
#include <math.h>

#include "probes/sample_share.h"

void sample_sums_add(struct sample_sums *to, const struct sample_sums *from)
{
	to->n += from->n;
	to->w += from->w;
	to->ns += from->ns;
	to->sq_us += from->sq_us;
}

uint64_t sample_scale(uint64_t part, uint64_t whole, uint64_t exact)
{
	if (!whole)
		return 0;
	return (uint64_t)llround((double)part / (double)whole * (double)exact);
}

/* mean w - 1: the variance factor of a weighted square */
static double extra_weight(const struct sample_sums *all)
{
	return all->n && all->w > all->n ? (double)all->w / (double)all->n - 1.0 : 0.0;
}

double sample_total_estimate(const struct sample_sums *all, double *se)
{
	*se = sqrt(extra_weight(all) * (double)all->sq_us) * 1e3;
	return (double)all->ns;
}

double sample_share_se(const struct sample_sums *part, const struct sample_sums *all,
		       uint64_t exact_ns)
{
	double share, sq;

	if (!all->ns)
		return 0.0;
	share = (double)part->ns / (double)all->ns;
	/* The part's events give x = y, the others x = 0. */
	sq = (1.0 - share) * (1.0 - share) * (double)part->sq_us +
	     share * share * (double)(all->sq_us - part->sq_us);
	return (double)exact_ns * sqrt(extra_weight(all) * sq) * 1e3 / (double)all->ns;
}
