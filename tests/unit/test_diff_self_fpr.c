// Self rows' Welch test on repeats drawn from one distribution: a function's own samples are Poisson counts in each repeat, the same rate on both sides; with every repeat's breakdown (trace file 1.4) Welch's t over the repeats calls the self row changed in at most 8% of 400 simulated diffs at alpha 0.05 (the test's own rate, plus 3 standard errors), while one share for all repeats (the last repeat's, as files before 1.4 have it) is printed for comparison and must do worse.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diff.h"
#include "base/rng.h"
#include "tests/lib/check.h"
#include "diff_sim.h"

#define NR_DIFFS 400
#define NR_REP 5
#define STACKED 1000.0    /* submission samples with a stack, per repeat */
#define SELF_RATE 50.0    /* the function's own samples, per repeat */
#define CALLEE_RATE 50.0  /* its callees' samples */

static double uniform(struct rng *r)
{
	return ((double)(rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
}

/* Poisson by Knuth's product of uniforms (small rates only). */
static double poisson(struct rng *r, double rate)
{
	double limit = exp(-rate), p = uniform(r);
	double k = 0;

	while (p > limit) {
		p *= uniform(r);
		k++;
	}
	return k;
}

/* One side: each repeat's slat basis with 2% noise, the function's own
 * and its callees' samples drawn anew; @per_repeat: a 1.4 file. */
static struct tracefile *draw(struct rng *r, const char *name, bool per_repeat)
{
	static const char *const keys[] = { "lat_mean_ns", "fn|slat|f|ns_per_io" };
	static char extra[NR_REP][512], last[512];
	const char *extras[NR_REP];
	double v[NR_REP * 2];
	struct errbuf err = { "" };
	struct tracefile *tf;

	for (size_t i = 0; i < NR_REP; i++) {
		double basis = 10000.0 * (1.0 + 0.04 * (uniform(r) - 0.5));
		double self = poisson(r, SELF_RATE), incl = self + poisson(r, CALLEE_RATE);
		char counts[384];

		v[i * 2] = 50000.0 * (1.0 + 0.01 * (uniform(r) - 0.5));
		v[i * 2 + 1] = incl / STACKED * basis;
		snprintf(counts, sizeof(counts), "{\"basis_ns_per_io\": %.17g, \"submission_stacked\": %g, "
			 "\"slat_breakdown\": [{\"function\": \"f\", \"samples\": %g, "
			 "\"self_samples\": %g}]}", basis, STACKED, incl, self);
		/* iodig.kernel.sampling is the last repeat's */
		snprintf(last, sizeof(last), "\"sampling\": %s", counts);
		snprintf(extra[i], sizeof(extra[i]), ", \"series\": []%s%s",
			 per_repeat ? ", \"sampling\": " : "", per_repeat ? counts : "");
		extras[i] = extra[i];
	}
	tf = sim_file_runs(name, per_repeat ? "1.4" : "1.3", keys, 2, v, NR_REP, last, extras, &err);
	if (!tf)
		fprintf(stderr, "%s: %s\n", name, err.msg);
	return tf;
}

/* The share of @NR_DIFFS diffs whose self row Welch's t calls different
 * at @alpha (its p, before the samples' Poisson test has its say). */
static double welch_rate(struct rng *r, bool per_repeat, double alpha)
{
	const struct diff_opts o = { .alpha = alpha, .min_change = 0 };
	struct errbuf err = { "" };
	size_t hits = 0, done = 0;

	for (size_t i = 0; i < NR_DIFFS; i++) {
		struct tracefile *tf[2] = { draw(r, "a.json", per_repeat), draw(r, "b.json", per_repeat) };
		struct diff *d = NULL;
		long k;

		if (!tf[0] || !tf[1] || diff_build(tf, 2, &o, &d, &err)) {
			CHECK_MSG(0, "diff %zu: %s", i, err.msg);
			tracefile_free(tf[0]);
			tracefile_free(tf[1]);
			break;
		}
		k = diff_find_row(d, "fn|slat_self|f|ns_per_io");
		CHECK_MSG(k >= 0, "diff %zu has no self row", i);
		hits += k >= 0 && d->rows[k].cells[1].p < alpha;
		done++;
		diff_free(d);
	}
	return (double)hits / (double)(done ? done : 1);
}

int main(void)
{
	struct rng r;
	double each, one;

	rng_seed(&r, 20261202);
	each = welch_rate(&r, true, 0.05);
	one = welch_rate(&r, false, 0.05);
	printf("self rows, Welch's t at alpha 0.05 over %d diffs of one distribution: "
	       "%.1f%% called different with each repeat's samples (1.4), %.1f%% with the last "
	       "repeat's share for every repeat (before 1.4)\n", NR_DIFFS, 100.0 * each, 100.0 * one);
	CHECK_MSG(each <= 0.08, "per-repeat self rows: %.1f%% false positives", 100.0 * each);
	CHECK_MSG(one > each, "one share for all repeats did better (%.1f%%) than each repeat's own",
		  100.0 * one);
	if (check_failures)
		return 1;
	return 0;
}
