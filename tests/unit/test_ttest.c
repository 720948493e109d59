// Statistics for diff/repeat: incomplete beta, t CDF and quantiles, Welch's test against published values.
#include <math.h>
#include <stdio.h>

#include "tests/lib/check.h"
#include "base/ttest.h"

#define NEAR(a, b, tol) CHECK_MSG(fabs((a) - (b)) <= (tol), "got %.9g, want %.9g", (double)(a), (double)(b))

int main(void)
{
	/* exact values from the binomial identity I_p(k, n-k+1) = P(Bin(n,p) >= k) */
	NEAR(ibeta_reg(2, 3, 0.5), 0.6875, 1e-12);
	NEAR(ibeta_reg(3, 5, 0.4), 0.580096, 1e-12);
	NEAR(ibeta_reg(1, 1, 0.3), 0.3, 1e-12);
	NEAR(ibeta_reg(5, 3, 0.6), 1.0 - 0.580096, 1e-12);   /* symmetry branch */
	CHECK(isnan(ibeta_reg(-1, 1, 0.5)));
	CHECK(isnan(ibeta_reg(1, 1, 1.5)));

	/* df = 1 is Cauchy: 1/2 + atan(t)/pi; df = 2 has a closed form */
	NEAR(t_cdf(1.0, 1), 0.75, 1e-12);
	NEAR(t_cdf(-3.0, 1), 0.5 + atan(-3.0) / M_PI, 1e-12);
	NEAR(t_cdf(2.0, 2), 0.5 + 1.0 / sqrt(6.0), 1e-12);
	NEAR(t_cdf(0.0, 7.3), 0.5, 1e-15);
	/* large df approaches the normal distribution */
	NEAR(t_cdf(1.959963985, 1e7), 0.975, 1e-6);

	/* critical values from the standard t table */
	NEAR(t_quantile(0.975, 2), 4.302653, 1e-6);
	NEAR(t_quantile(0.975, 4), 2.776445, 1e-6);
	NEAR(t_quantile(0.995, 10), 3.169273, 1e-6);
	NEAR(t_quantile(0.975, 30), 2.042272, 1e-6);
	NEAR(t_quantile(0.025, 4), -2.776445, 1e-6);

	/* Welch's test, Wikipedia's example 1: t = -2.46, df = 24.98, p = 0.021 */
	{
		static const double a1[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
					     21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
		static const double a2[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
					     24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
		struct sample_summary s1, s2;
		struct welch_result w;

		sample_summarize(a1, 15, &s1);
		sample_summarize(a2, 15, &s2);
		welch_test(&s1, &s2, &w);
		CHECK(w.valid);
		NEAR(w.t, -2.46, 0.005);
		NEAR(w.df, 24.98, 0.05);
		NEAR(w.p, 0.021, 0.0015);
		/* SciPy 1.10.1: ttest_ind(a1, a2, equal_var=False) gives
		 * t = -2.455356398, p = 0.021378001; the CI of the difference,
		 * t.ppf(0.975, df) * se = 1.817429600 at df = 24.98852929 */
		NEAR(w.t, -2.455356398, 1e-8);
		NEAR(w.p, 0.021378001, 1e-8);
		NEAR(w.df, 24.98852929, 1e-7);
		NEAR(w.ci95_half, 1.817429600, 1e-7);
	}
	/* 95% CI of {1,2,3}: mean 2, sd 1, half width 4.302653/sqrt(3) */
	{
		static const double v[] = { 1, 2, 3 };
		struct sample_summary s;

		sample_summarize(v, 3, &s);
		NEAR(s.mean, 2.0, 1e-12);
		NEAR(s.stdev, 1.0, 1e-12);
		NEAR(s.ci95_half, 4.302653 / sqrt(3.0), 1e-6);
	}
	/* degenerate and single-run cases */
	{
		static const double z1[] = { 1, 1, 1 }, z2[] = { 0, 0, 0 };
		struct sample_summary s1, s2;
		struct welch_result w;

		sample_summarize(z1, 3, &s1);
		sample_summarize(z2, 3, &s2);
		welch_test(&s1, &s2, &w);
		CHECK(w.valid && w.p == 0.0);
		welch_test(&s1, &s1, &w);
		CHECK(w.valid && w.p == 1.0);
		sample_summarize(z1, 1, &s1);
		welch_test(&s1, &s2, &w);
		CHECK(!w.valid);
	}
	if (check_failures)
		return 1;
	printf("ttest: all checks passed\n");
	return 0;
}
