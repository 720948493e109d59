// SPDX-License-Identifier: GPL-2.0
/*
 * Parts of an exact whole from a Bernoulli sample of its events: see
 * probes/sample_share.h.  With p = 1/period, a sampled sum over p
 * estimates the sum over all events with variance (1 - p) / p^2 times the
 * sampled squares (Horvitz-Thompson); a part's share b/a of two such sums
 * has, to first order, variance (1 - p) / a^2 times the sampled squares of
 * (x_i - share * y_i), the sample counting each event once.
 */
#include <math.h>

#include "probes/sample_share.h"

void sample_sums_add(struct sample_sums *to, const struct sample_sums *from)
{
	to->n += from->n;
	to->ns += from->ns;
	to->sq_us += from->sq_us;
}

uint64_t sample_scale(uint64_t part, uint64_t whole, uint64_t exact)
{
	if (!whole)
		return 0;
	return (uint64_t)llround((double)part / (double)whole * (double)exact);
}

static double one_minus_p(unsigned int period)
{
	return period > 1 ? 1.0 - 1.0 / period : 0.0;
}

double sample_total_estimate(const struct sample_sums *all, unsigned int period, double *se)
{
	const double p_inv = period ? period : 1;

	*se = sqrt(one_minus_p(period) * (double)all->sq_us) * p_inv * 1e3;
	return (double)all->ns * p_inv;
}

double sample_share_se(const struct sample_sums *part, const struct sample_sums *all,
		       unsigned int period, uint64_t exact_ns)
{
	double share, sq;

	if (!all->ns)
		return 0.0;
	share = (double)part->ns / (double)all->ns;
	/* The part's events give x = y, the others x = 0. */
	sq = (1.0 - share) * (1.0 - share) * (double)part->sq_us +
	     share * share * (double)(all->sq_us - part->sq_us);
	return (double)exact_ns * sqrt(one_minus_p(period) * sq) * 1e3 / (double)all->ns;
}
