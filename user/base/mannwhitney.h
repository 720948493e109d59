/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The Mann–Whitney U test (Wilcoxon rank-sum) of two samples, two-sided:
 * for figures such as p99 whose repeats are not near-normal, so Welch's
 * t on them would be a guess.  Exact for small samples without ties (the
 * few repeats of a benchmark), otherwise the normal approximation with
 * tie and continuity correction, as SciPy's mannwhitneyu(method="auto").
 */
#ifndef IODIG_MANNWHITNEY_H
#define IODIG_MANNWHITNEY_H

#include <stdbool.h>
#include <stddef.h>

/* Above this many values in all, or with ties, the normal approximation. */
#define MWU_EXACT_MAX 60

struct mwu_result {
	double u;          /* U of the first sample: pairs (a, b) with a > b, ties half */
	double p;          /* two-sided */
	bool exact;        /* exact distribution, not the normal approximation */
	bool valid;        /* false when either side is empty */
};

void mann_whitney(const double *a, size_t na, const double *b, size_t nb,
		  struct mwu_result *out);
/* The parts, for tests: P(U >= u) exactly for sizes @m, @n; -1 when too
 * large or out of memory. */
double mwu_exact_sf(double u, size_t m, size_t n);

#endif /* IODIG_MANNWHITNEY_H */
