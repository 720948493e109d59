// Benjamini–Hochberg q-values against the published example and the definition; NaN rows left out.
#include <math.h>
#include <stdio.h>

#include "tests/lib/check.h"
#include "base/bh.h"

#define NEAR(a, b, tol) CHECK_MSG(fabs((a) - (b)) <= (tol), "got %.12g, want %.12g", (double)(a), (double)(b))

int main(void)
{
	/* Benjamini and Hochberg (1995), section 4: 15 p-values from a
	 * clinical trial; at level 0.05 the procedure rejects the first four.
	 * The q-values are min_{j>=i} p_(j) m / j, computed in SciPy 1.10.1's
	 * python (the same as R's p.adjust(p, "BH")). */
	static const double p[] = { 0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344,
				    0.0459, 0.3240, 0.4262, 0.5719, 0.6528, 0.7590, 1.000 };
	static const double want[] = { 0.0015, 0.003, 0.0095, 0.035625, 0.0603, 0.06385714285714286,
				       0.06385714285714286, 0.0645, 0.0765, 0.486, 0.5811818181818182,
				       0.714875, 0.7532307692307694, 0.8132142857142857, 1.0 };
	/* the same, shuffled, with two untested rows */
	static const double shuffled[] = { 0.3240, NAN, 0.0019, 1.000, 0.0001, 0.0459, 0.0278,
					   0.6528, 0.0004, 0.0095, NAN, 0.0298, 0.4262, 0.0201,
					   0.0344, 0.5719, 0.7590 };
	double q[17];
	size_t rejected = 0;

	CHECK(bh_adjust(p, 15, q) == 0);
	for (size_t i = 0; i < 15; i++) {
		NEAR(q[i], want[i], 1e-12);
		rejected += q[i] < 0.05;
	}
	CHECK_MSG(rejected == 4, "rejected %zu, the paper rejects 4", rejected);
	CHECK(bh_adjust(shuffled, 17, q) == 0);
	CHECK(isnan(q[1]) && isnan(q[10]));
	NEAR(q[4], 0.0015, 1e-12);
	NEAR(q[0], 0.486, 1e-12);
	NEAR(q[13], 0.0603, 1e-12);
	CHECK(bh_adjust(p, 0, q) == 0);
	if (check_failures)
		return 1;
	printf("bh: all checks passed\n");
	return 0;
}
