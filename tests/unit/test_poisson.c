// The conditional test of two Poisson rates against exact values and R's binom.test.
#include <math.h>
#include <stdio.h>

#include "tests/lib/check.h"
#include "base/poisson.h"

#define NEAR(a, b, tol) CHECK_MSG(fabs((a) - (b)) <= (tol) * fabs(b), "got %.12g, want %.12g", (double)(a), (double)(b))

int main(void)
{
	/* Equal exposures: the binomial test at 1/2.  R: binom.test(9, 11)
	 * gives p-value = 0.06543 (67/1024 exactly); binom.test(4, 4) 0.125. */
	NEAR(poisson_rates_p(2, 1.0, 9, 1.0), 67.0 / 1024.0, 1e-9);
	NEAR(poisson_rates_p(0, 1.0, 4, 1.0), 0.125, 1e-9);
	/* The rest computed exactly in rational arithmetic (Python's
	 * fractions, summing the outcomes whose probability is at most the
	 * seen one's times 1 + 1e-7, as binom.test does). */
	NEAR(poisson_rates_p(10, 1.0, 30, 2.0), 0.3158610128127917, 1e-9);
	/* a sampled function's samples at 4545 and 8320 ns/IO per sample */
	NEAR(poisson_rates_p(2, 1.0 / 4545, 9, 1.0 / 8320), 0.002198148627033701, 1e-9);
	NEAR(poisson_rates_p(0, 1.0 / 4545, 4, 1.0 / 8320), 0.015577450792762158, 1e-9);
	NEAR(poisson_rates_p(11, 1.0 / 4545, 0, 1.0 / 8320), 0.010474690053979233, 1e-9);
	NEAR(poisson_rates_p(27, 1.0 / 4545, 0, 1.0 / 8320), 1.5948793786790564e-05, 1e-9);
	/* the same counts over the same exposures: nothing to see */
	CHECK(poisson_rates_p(5, 3.0, 5, 3.0) == 1.0);
	/* nothing counted, or no exposure: no evidence */
	CHECK(poisson_rates_p(0, 1.0, 0, 2.0) == 1.0);
	CHECK(poisson_rates_p(3, 0.0, 1, 1.0) == 1.0);
	CHECK(poisson_rates_p(3, 1.0, 1, NAN) == 1.0);
	if (check_failures)
		return 1;
	printf("poisson: all checks passed\n");
	return 0;
}
