// SPDX-License-Identifier: GPL-2.0
/*
 * Student t from the regularized incomplete beta function, evaluated with
 * its continued fraction (modified Lentz), the standard method of Numerical
 * Recipes ch. 6.4 and of Cephes' incbet; written here from the formulas.
 */
#include <math.h>

#include "base/ttest.h"

#define CF_MAX_ITER 300
#define CF_EPS 1e-15
#define CF_TINY 1e-300

/* Keeps a Lentz denominator away from zero. */
static double not_tiny(double v)
{
	return fabs(v) < CF_TINY ? CF_TINY : v;
}

/* One term @num of the fraction: updates Lentz's c and d and returns the
 * factor the convergent is multiplied by. */
static double lentz_step(double num, double *c, double *d)
{
	*d = 1.0 / not_tiny(1.0 + num * *d);
	*c = not_tiny(1.0 + num / *c);
	return *d * *c;
}

/* Continued fraction for I_x(a, b); converges fast for x < (a+1)/(a+b+2). */
static double beta_cf(double a, double b, double x)
{
	double c = 1.0, d = 1.0 / not_tiny(1.0 - (a + b) * x / (a + 1.0));
	double h = d;

	for (int m = 1; m <= CF_MAX_ITER; m++) {
		double m2 = 2.0 * m, delta;

		/* even step */
		h *= lentz_step(m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)), &c, &d);
		/* odd step */
		delta = lentz_step(-(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0)),
				   &c, &d);
		h *= delta;
		if (fabs(delta - 1.0) < CF_EPS)
			break;
	}
	return h;
}

double ibeta_reg(double a, double b, double x)
{
	double front;

	if (!(a > 0.0) || !(b > 0.0) || !(x >= 0.0) || !(x <= 1.0))
		return NAN;
	if (x == 0.0 || x == 1.0)
		return x;
	/* x^a (1-x)^b / (a B(a,b)), in logs to avoid overflow */
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) +
		    a * log(x) + b * log1p(-x));
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * beta_cf(a, b, x) / a;
	/* symmetry I_x(a,b) = 1 - I_{1-x}(b,a) keeps the fraction convergent */
	return 1.0 - front * beta_cf(b, a, 1.0 - x) / b;
}

double t_cdf(double t, double df)
{
	double tail;

	if (!(df > 0.0) || isnan(t))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1.0 : 0.0;
	/* P(|T| > |t|) = I_{df/(df+t^2)}(df/2, 1/2) */
	tail = ibeta_reg(df / 2.0, 0.5, df / (df + t * t));
	return t > 0 ? 1.0 - tail / 2.0 : tail / 2.0;
}

double t_quantile(double p, double df)
{
	double lo = -1e6, hi = 1e6;

	if (!(p > 0.0 && p < 1.0) || !(df > 0.0))
		return NAN;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * (1.0 + fabs(lo)); i++) {
		double mid = (lo + hi) / 2.0;

		if (t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2.0;
}

void sample_summarize(const double *v, size_t n, struct sample_summary *out)
{
	double sum = 0.0, ss = 0.0;

	out->n = n;
	out->mean = out->stdev = out->ci95_half = 0.0;
	if (!n)
		return;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	out->mean = sum / (double)n;
	if (n < 2)
		return;
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - out->mean) * (v[i] - out->mean);
	out->stdev = sqrt(ss / (double)(n - 1));
	out->ci95_half = t_quantile(0.975, (double)(n - 1)) * out->stdev / sqrt((double)n);
}

void welch_test(const struct sample_summary *a, const struct sample_summary *b,
		struct welch_result *out)
{
	double va, vb, se2;

	out->t = out->df = out->ci95_half = 0.0;
	out->p = 1.0;
	out->valid = a->n >= 2 && b->n >= 2;
	if (!out->valid)
		return;
	va = a->stdev * a->stdev / (double)a->n;
	vb = b->stdev * b->stdev / (double)b->n;
	se2 = va + vb;
	if (se2 <= 0.0) {
		out->p = a->mean == b->mean ? 1.0 : 0.0;
		out->t = a->mean == b->mean ? 0.0 : INFINITY;
		out->df = (double)(a->n + b->n - 2);
		return;
	}
	out->t = (a->mean - b->mean) / sqrt(se2);
	/* Welch-Satterthwaite degrees of freedom */
	out->df = se2 * se2 / (va * va / (double)(a->n - 1) + vb * vb / (double)(b->n - 1));
	out->p = 2.0 * t_cdf(-fabs(out->t), out->df);
	if (out->p > 1.0)
		out->p = 1.0;
	out->ci95_half = t_quantile(0.975, out->df) * sqrt(se2);
}
