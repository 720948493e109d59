// SPDX-License-Identifier: GPL-2.0
/*
 * Mann–Whitney U.  The exact null distribution of U for sizes m, n has
 * the Gaussian binomial coefficient [m+n choose m]_q as its generating
 * function (Mann and Whitney 1947), built here as the product of
 * (1 - q^(n+i)) / (1 - q^i), i = 1..m: each factor is one pass over the
 * polynomial, the division exact.
 */
#include <math.h>
#include <stdlib.h>

#include "base/mannwhitney.h"

double mwu_exact_sf(double u, size_t m, size_t n)
{
	size_t deg = m * n, k;
	double *c, total = 0.0, tail = 0.0;

	if (m + n > MWU_EXACT_MAX || !m || !n)
		return -1.0;
	c = calloc(deg + 1, sizeof(*c));
	if (!c)
		return -1.0;
	c[0] = 1.0;
	for (size_t i = 1; i <= m; i++) {
		for (k = deg; k >= n + i; k--)
			c[k] -= c[k - (n + i)];
		for (k = i; k <= deg; k++)
			c[k] += c[k - i];
	}
	for (k = 0; k <= deg; k++) {
		total += c[k];
		if ((double)k >= u - 1e-9)
			tail += c[k];
	}
	free(c);
	return tail / total;
}

/* U of @a and the tie term sum(t^3 - t) over groups of equal values. */
static double u_statistic(const double *a, size_t na, const double *b, size_t nb,
			  double *tie_term)
{
	double u = 0.0;

	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++)
			u += a[i] > b[j] ? 1.0 : a[i] == b[j] ? 0.5 : 0.0;
	*tie_term = 0.0;
	/* ties over the pooled sample: count each value's group once, at its
	 * first occurrence */
	for (size_t i = 0; i < na + nb; i++) {
		double v = i < na ? a[i] : b[i - na], t = 0.0;
		bool first = true;

		for (size_t j = 0; j < na + nb; j++) {
			double w = j < na ? a[j] : b[j - na];

			if (w == v) {
				t += 1.0;
				first &= j >= i;
			}
		}
		if (first)
			*tie_term += t * t * t - t;
	}
	return u;
}

void mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		  struct mwu_result *out)
{
	double tie_term, n = (double)(na + nb), mu, s, u_max, z;

	out->u = 0.0;
	out->p = 1.0;
	out->exact = false;
	out->valid = na && nb;
	if (!out->valid)
		return;
	out->u = u_statistic(a, na, b, nb, &tie_term);
	u_max = fmax(out->u, (double)(na * nb) - out->u);
	if (tie_term == 0.0 && na + nb <= MWU_EXACT_MAX) {
		double sf = mwu_exact_sf(u_max, na, nb);

		if (sf >= 0.0) {
			out->exact = true;
			out->p = fmin(1.0, 2.0 * sf);
			return;
		}
	}
	mu = (double)(na * nb) / 2.0;
	s = sqrt((double)(na * nb) / 12.0 * ((n + 1.0) - tie_term / (n * (n - 1.0))));
	if (s <= 0.0)
		return;               /* every value equal: no evidence of a shift */
	z = (u_max - mu - 0.5) / s;
	out->p = fmin(1.0, erfc(z / sqrt(2.0)));
}
