// Mann–Whitney U against SciPy's mannwhitneyu: exact p for small samples without ties, the normal approximation with ties.
#include <math.h>
#include <stdio.h>

#include "tests/lib/check.h"
#include "base/mannwhitney.h"

#define NEAR(a, b, tol) CHECK_MSG(fabs((a) - (b)) <= (tol), "got %.12g, want %.12g", (double)(a), (double)(b))

static void expect(const double *a, size_t na, const double *b, size_t nb, double u, double p,
		   int exact)
{
	struct mwu_result r;

	mann_whitney(a, na, b, nb, &r);
	CHECK(r.valid);
	CHECK_MSG(r.exact == exact, "%zu vs %zu: exact %d, want %d", na, nb, r.exact, exact);
	NEAR(r.u, u, 1e-12);
	NEAR(r.p, p, 1e-9);
}

int main(void)
{
	/* Reference values: SciPy 1.10.1 (Debian python3-scipy),
	 * scipy.stats.mannwhitneyu(a, b, method="exact" or "asymptotic"),
	 * statistic = U of a, pvalue two-sided. */
	static const double a3[] = { 1.1, 2.3, 3.0 }, b3[] = { 4.2, 5.1, 6.3 };
	static const double a5[] = { 12.1, 14.3, 11.8, 13.0, 15.2 };
	static const double b5[] = { 13.5, 16.8, 17.1, 14.9, 18.0 };
	static const double a7[] = { 3.1, 4.0, 2.2, 5.6, 4.4, 3.9, 6.1 };
	static const double b6[] = { 5.0, 6.2, 7.7, 4.8, 6.6, 8.1 };
	static const double t7[] = { 1, 2, 2, 3, 4, 4, 5 }, t6[] = { 3, 4, 5, 5, 6, 7 };
	static const double a20[] = {
		10.691, 11.643, 10.661, 7.394, 11.811, 10.893, 8.926, 11.162, 10.729, 10.588,
		10.057, 11.093, 8.527, 9.674, 9.036, 11.198, 10.079, 9.415, 8.436, 9.486 };
	static const double b25[] = {
		11.016, 10.449, 13.588, 13.013, 5.578, 7.222, 10.65, 10.156, 11.427, 11.435,
		15.236, 8.776, 10.245, 15.086, 12.293, 12.326, 9.972, 7.704, 11.335, 11.218,
		8.545, 9.634, 10.856, 9.11, 10.803 };
	struct mwu_result r;

	/* 3 against 3, fully separated: the smallest p three repeats allow */
	expect(a3, 3, b3, 3, 0.0, 0.1, 1);
	expect(b3, 3, a3, 3, 9.0, 0.1, 1);
	expect(a5, 5, b5, 5, 3.0, 0.05555555555555555, 1);
	expect(a7, 7, b6, 6, 4.0, 0.013986013986013986, 1);
	expect(a20, 20, b25, 25, 197.0, 0.23300428750740013, 1);
	/* ties: the normal approximation with tie and continuity correction */
	expect(t7, 7, t6, 6, 6.5, 0.0425549553063913, 0);
	/* exact tail of the null distribution, by hand: 3 v 3 has C(6,3) = 20
	 * orderings, U >= 8 in 2 of them */
	NEAR(mwu_exact_sf(8.0, 3, 3), 2.0 / 20.0, 1e-15);
	NEAR(mwu_exact_sf(0.0, 4, 2), 1.0, 1e-15);
	/* all equal: no shift */
	mann_whitney(t7 + 1, 2, t7 + 1, 2, &r);
	CHECK(r.valid && r.p == 1.0);
	mann_whitney(a3, 0, b3, 3, &r);
	CHECK(!r.valid);
	if (check_failures)
		return 1;
	printf("mannwhitney: all checks passed\n");
	return 0;
}
