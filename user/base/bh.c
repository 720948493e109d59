// SPDX-License-Identifier: GPL-2.0
/*
 * Benjamini and Hochberg (1995): sorted ascending, q_(i) = min over j >= i
 * of p_(j) * m / j, at most 1.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "base/bh.h"

struct ranked {
	double p;
	size_t at;
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	return (a->p > b->p) - (a->p < b->p);
}

int bh_adjust(const double *p, size_t n, double *q)
{
	struct ranked *r = calloc(n ? n : 1, sizeof(*r));
	size_t m = 0;
	double run = 1.0;

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		q[i] = NAN;
		if (!isnan(p[i]))
			r[m++] = (struct ranked){ p[i], i };
	}
	qsort(r, m, sizeof(*r), cmp_ranked);
	for (size_t k = m; k-- > 0;) {
		run = fmin(run, r[k].p * (double)m / (double)(k + 1));
		q[r[k].at] = run;
	}
	free(r);
	return 0;
}
