// The whole diff procedure on repeats drawn from one distribution: over 1,000 simulated diffs (5 repeats a side, 12 rows, means and percentiles) at most 5% call anything changed.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis/diff.h"
#include "base/rng.h"
#include "tests/lib/check.h"
#include "diff_sim.h"

#define NR_DIFFS 1000
#define NR_REP 5

static const char *const keys[] = {
	"iops", "lat_mean_ns", "lat_p99_ns", "kernel.punt_ratio", "kernel.punt_ns_per_io",
	"kernel.faults_per_io", "fn|slat|a|ns_per_io", "fn|slat|b|ns_per_io",
	"fn|slat|c|ns_per_io", "fn|sched|d|ns_per_io", "fn|sched|d|calls_per_io",
	"fn|sched|e|ns_per_io",
};
#define NR_KEYS (sizeof(keys) / sizeof(keys[0]))

/* Standard normal by Box-Muller from two uniforms of base/rng. */
static double normal(struct rng *r)
{
	double u1 = ((double)(rng_next(r) >> 11) + 0.5) / 9007199254740992.0;
	double u2 = ((double)(rng_next(r) >> 11) + 0.5) / 9007199254740992.0;

	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* One side: every figure around its own mean, 10% relative noise. */
static struct tracefile *draw(struct rng *r, const char *name)
{
	double v[NR_REP * NR_KEYS];

	for (size_t i = 0; i < NR_REP; i++)
		for (size_t k = 0; k < NR_KEYS; k++)
			v[i * NR_KEYS + k] = (100.0 + 50.0 * (double)k) * (1.0 + 0.1 * normal(r));
	return sim_file(name, keys, NR_KEYS, v, NR_REP);
}

int main(void)
{
	const struct diff_opts o = { .alpha = 0.05, .min_change = DIFF_DEFAULT_MIN_CHANGE };
	struct errbuf err = { "" };
	struct rng r;
	size_t any = 0, rows = 0, done = 0;

	rng_seed(&r, 20261201);
	for (size_t i = 0; i < NR_DIFFS; i++) {
		struct tracefile *tf[2] = { draw(&r, "a.json"), draw(&r, "b.json") };
		struct diff *d = NULL;
		bool called = false;

		if (!tf[0] || !tf[1] || diff_build(tf, 2, &o, &d, &err)) {
			CHECK_MSG(0, "diff %zu: %s", i, err.msg);
			tracefile_free(tf[0]);
			tracefile_free(tf[1]);
			break;
		}
		rows = d->nr_tested;
		for (size_t k = 0; k < d->nr_rows; k++)
			called |= d->rows[k].cells[1].sig == SIG_CHANGED;
		any += called;
		done++;
		diff_free(d);
	}
	CHECK_MSG(done == NR_DIFFS, "only %zu diffs built", done);
	/* every figure, and iodig's probes (sampled functions, none of them
	 * iodig's: 0 on both sides) */
	CHECK_MSG(rows == NR_KEYS + 1, "%zu rows tested, want %zu", rows, NR_KEYS + 1);
	printf("false positives: %zu of %zu diffs called a row changed (%.1f%%), alpha %.2g\n",
	       any, done, 100.0 * (double)any / (double)(done ? done : 1), o.alpha);
	/* one distribution: every null true, so BH's false discovery rate is
	 * the chance that a diff calls anything at all */
	CHECK((double)any <= 0.05 * (double)NR_DIFFS);
	if (check_failures)
		return 1;
	return 0;
}
