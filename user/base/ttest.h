/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small-sample statistics for comparing runs: Student t distribution (from
 * the regularized incomplete beta function), confidence intervals of a
 * mean, and Welch's unequal-variance t-test.  Repeats of a benchmark are
 * few (3 to 10), so normal approximations would overstate significance.
 */
#ifndef IODIG_TTEST_H
#define IODIG_TTEST_H

#include <stddef.h>

/* Regularized incomplete beta I_x(a, b), a, b > 0, 0 <= x <= 1; NaN when
 * the arguments are outside that range. */
double ibeta_reg(double a, double b, double x);
/* P(T <= t) for Student's t with @df > 0 degrees of freedom (df may be
 * fractional, as Welch's is). */
double t_cdf(double t, double df);
/* The t with P(T <= t) = @p, 0 < p < 1, found by bisection on t_cdf. */
double t_quantile(double p, double df);

struct sample_summary {
	size_t n;
	double mean;
	double stdev;      /* sample stdev (n - 1); 0 when n < 2 */
	double ci95_half;  /* half width of the 95% CI of the mean; 0 when n < 2 */
};

void sample_summarize(const double *v, size_t n, struct sample_summary *out);

struct welch_result {
	double t;
	double df;
	double p;          /* two-sided */
	double ci95_half;  /* half width of the 95% CI of the difference of means */
	int valid;         /* 0 when either side has fewer than 2 values */
};

/* Welch's two-sided t-test of equal means.  When both variances are zero
 * the test is degenerate: p = 0 if the means differ, 1 otherwise. */
void welch_test(const struct sample_summary *a, const struct sample_summary *b,
		struct welch_result *out);

#endif /* IODIG_TTEST_H */
