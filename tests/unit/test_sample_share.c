// Parts of an exact whole from a Bernoulli sample (probes/sample_share.c): exact cases, and on simulated samples the estimates' errors match their stated standard errors (95% of them within 1.96 SE).
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "tests/lib/check.h"
#include "probes/sample_share.h"

#define TRIALS 400
#define EVENTS 20000
#define PERIOD 16

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static double uniform01(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (double)((rng_state * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
}

/* Off-CPU intervals in ns: part A exponential around 30 us, part B a
 * heavy tail (Pareto, alpha 2.5, from 50 us). */
static uint64_t interval(int part_b)
{
	double u = 1.0 - uniform01();

	return part_b ? (uint64_t)(50e3 * pow(u, -1.0 / 2.5)) : (uint64_t)(-30e3 * log(u));
}

static void add(struct sample_sums *s, uint64_t ns, uint64_t w)
{
	s->n++;
	s->w += w;
	s->ns += w * ns;
	s->sq_us += w * (ns / 1000) * (ns / 1000);
}

int main(void)
{
	int total_in = 0, share_in = 0;
	double se;

	/* exact cases */
	CHECK(sample_scale(1, 4, 1000) == 250);
	CHECK(sample_scale(2, 3, 100) == 67);
	CHECK(sample_scale(5, 0, 100) == 0);
	{
		/* 4 samples of 1 us; weight 1: every event seen, no error */
		struct sample_sums all = { 4, 4, 4000, 4 }, part = { 1, 1, 1000, 1 };
		struct sample_sums all4 = { 4, 16, 16000, 16 }, part4 = { 1, 4, 4000, 4 };

		CHECK(sample_total_estimate(&all, &se) == 4000.0 && se == 0.0);
		CHECK(sample_share_se(&part, &all, 4000) == 0.0);
		/* weight 4: w (w - 1) = 12 per square; the share's terms
		 * (x - y/4)^2 are 9/16 once and 1/16 three times */
		CHECK(fabs(sample_total_estimate(&all4, &se) - 16000.0) < 1e-9);
		CHECK(fabs(se - sqrt(12.0 * 4) * 1e3) < 1e-6);
		CHECK(fabs(sample_share_se(&part4, &all4, 16000) -
			   16000 * sqrt(12.0 * 0.75) * 1e3 / 16000) < 1e-6);
	}

	/* simulated: the errors are as large as stated, no larger, no smaller */
	for (int t = 0; t < TRIALS; t++) {
		struct sample_sums all = { 0 }, part = { 0 };
		uint64_t exact = 0, exact_a = 0;
		double est_a, se_a;

		for (int i = 0; i < EVENTS; i++) {
			int b = uniform01() < 0.3;
			uint64_t ns = interval(b);

			exact += ns;
			exact_a += b ? 0 : ns;
			if (uniform01() * PERIOD >= 1.0)
				continue;
			add(&all, ns, PERIOD);
			if (!b)
				add(&part, ns, PERIOD);
		}
		total_in += fabs(sample_total_estimate(&all, &se) - (double)exact) <= 1.96 * se;
		est_a = (double)sample_scale(part.ns, all.ns, exact);
		se_a = sample_share_se(&part, &all, exact);
		share_in += fabs(est_a - (double)exact_a) <= 1.96 * se_a;
	}
	printf("within 1.96 SE: total %d, share %d of %d trials\n", total_in, share_in, TRIALS);
	/* 95% expected; 400 trials put the count within 95 +- 2.2 (2 SD) */
	CHECK(total_in >= TRIALS * 90 / 100 && total_in <= TRIALS * 99 / 100);
	CHECK(share_in >= TRIALS * 90 / 100 && share_in <= TRIALS * 99 / 100);
	return CHECK_DONE();
}
