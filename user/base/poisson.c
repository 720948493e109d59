// SPDX-License-Identifier: GPL-2.0
/* The conditional test of two Poisson rates: see poisson.h. */
#include <math.h>

#include "base/poisson.h"

/* log of the Binomial(n, p) probability of k, 0 < p < 1 */
static double log_binom_pmf(uint64_t k, uint64_t n, double p)
{
	double dn = (double)n, dk = (double)k;

	return lgamma(dn + 1.0) - lgamma(dk + 1.0) - lgamma(dn - dk + 1.0) +
	       dk * log(p) + (dn - dk) * log1p(-p);
}

double poisson_rates_p(uint64_t k1, double e1, uint64_t k2, double e2)
{
	uint64_t n = k1 + k2;
	double p, seen, sum = 0.0;

	if (!n || !(e1 > 0.0) || !(e2 > 0.0))
		return 1.0;
	p = e2 / (e1 + e2);
	/* outcomes as likely as the one seen, within rounding, count too */
	seen = log_binom_pmf(k2, n, p) + log1p(1e-7);
	for (uint64_t i = 0; i <= n; i++) {
		double l = log_binom_pmf(i, n, p);

		if (l <= seen)
			sum += exp(l);
	}
	return sum < 1.0 ? sum : 1.0;
}
