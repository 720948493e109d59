// SPDX-License-Identifier: GPL-2.0
/*
 * The verdicts of a diff.  Each repeat is one sample (a run's figure,
 * never a single I/O).  Means are compared by Welch's t-test, percentiles
 * (whose repeats' values are skewed and few) by the Mann–Whitney U test;
 * the p-values of every row of one column (B against A, C against A) are
 * one family for Benjamini–Hochberg, and a row is called changed only
 * when its q-value is under alpha and the change is at least
 * --min-change.  Statistics in docs/statistics.md.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diff.h"
#include "analysis/tracefile.h"
#include "base/bh.h"
#include "base/mannwhitney.h"

/* "lat_p99_ns", "g1/clat_p99.9_ns": a percentile, tested by ranks. */
static bool is_percentile(const struct diff_row *r)
{
	int group;
	const char *k = figure_base_key(r->key, &group);
	const char *p = strstr(k, "_p");

	return r->kind == ROW_WORKLOAD && p && p[2] >= '0' && p[2] <= '9';
}

/* The change of @c against @base and its test's p; NAN when untested. */
static double cell_test(const struct diff_row *r, const struct diff_cell *base,
			struct diff_cell *c)
{
	struct mwu_result m;

	c->change = c->s.mean - base->s.mean;
	c->change_pct = base->s.mean != 0.0 ? 100.0 * c->change / fabs(base->s.mean) : NAN;
	welch_test(&base->s, &c->s, &c->w);
	if (!c->w.valid) {
		c->sig = SIG_SINGLE;
		return NAN;
	}
	if (!is_percentile(r)) {
		c->test = DIFF_TEST_WELCH;
		return c->w.p;
	}
	mann_whitney(base->v, base->s.n, c->v, c->s.n, &m);
	c->test = m.exact ? DIFF_TEST_MWU_EXACT : DIFF_TEST_MWU_NORMAL;
	return m.p;
}

/* Events a run must gain or lose before a count per I/O is called
 * changed: a handful per run (a page touched in one side's memory layout
 * and not the other's) is a relative change of 100% that means nothing. */
#define MIN_EVENTS_PER_RUN 10.0

/* The mean I/Os per run of file @f, 0 when it does not say. */
static double ios_per_run(const struct diff *d, size_t f)
{
	const struct tf_metric *m = tracefile_metric(d->tf[f], "ios");
	double sum = 0;

	for (size_t i = 0; m && i < m->n; i++)
		sum += m->v[i];
	return m && m->n ? sum / (double)m->n : 0.0;
}

/* A count per I/O whose change, in events per run, is below the floor. */
static bool too_few_events(const struct diff *d, const struct diff_row *r,
			   const struct diff_cell *c, size_t f)
{
	size_t len = strlen(r->key);
	const char *suffix = "_per_io";
	double ios = fmin(ios_per_run(d, 0), ios_per_run(d, f));

	if (!strcmp(r->unit, "ns/IO") || len < strlen(suffix) ||
	    strcmp(r->key + len - strlen(suffix), suffix) || ios <= 0)
		return false;
	return fabs(c->change) * ios < MIN_EVENTS_PER_RUN;
}

/* Large enough to call: at least --min-change percent, or any change
 * from a baseline of 0; for a count per I/O also enough events per run. */
static bool large_enough(const struct diff *d, const struct diff_row *r,
			 const struct diff_cell *c, size_t f)
{
	if (too_few_events(d, r, c, f))
		return false;
	if (isnan(c->change_pct))
		return c->change != 0.0;
	return fabs(c->change_pct) >= d->min_change;
}

/* Tests column @f of every row, then adjusts its p-values together. */
static int judge_column(struct diff *d, size_t f, double *p, double *q)
{
	size_t tested = 0;
	int ret;

	for (size_t r = 0; r < d->nr_rows; r++) {
		struct diff_row *row = &d->rows[r];
		struct diff_cell *c = &row->cells[f];

		p[r] = NAN;
		c->p = c->q = NAN;
		c->test = DIFF_TEST_NONE;
		c->sig = SIG_NONE;
		if (!c->present || !row->cells[0].present)
			continue;
		p[r] = c->p = cell_test(row, &row->cells[0], c);
		tested += !isnan(p[r]);
	}
	ret = bh_adjust(p, d->nr_rows, q);
	if (ret)
		return ret;
	for (size_t r = 0; r < d->nr_rows; r++) {
		struct diff_cell *c = &d->rows[r].cells[f];

		if (isnan(q[r]))
			continue;
		c->q = q[r];
		if (c->q >= d->alpha)
			c->sig = SIG_NOISE;
		else
			c->sig = large_enough(d, &d->rows[r], c, f) ? SIG_CHANGED : SIG_SMALL;
	}
	if (f == 1)
		d->nr_tested = tested;
	return 0;
}

int diff_judge(struct diff *d)
{
	double *p = calloc(d->nr_rows ? d->nr_rows : 1, sizeof(double));
	double *q = calloc(d->nr_rows ? d->nr_rows : 1, sizeof(double));
	int ret = p && q ? 0 : -ENOMEM;

	for (size_t f = 1; !ret && f < d->nr_files; f++)
		ret = judge_column(d, f, p, q);
	free(p);
	free(q);
	return ret;
}
