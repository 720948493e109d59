// SPDX-License-Identifier: GPL-2.0
/*
 * The workload's figures, owned here: rates summed over jobs and
 * directions as fio's group line does, each direction's over its own
 * runtime (fio's runtime[ddir]), latencies over every I/O.  The
 * kernel figures come from the probe families (probes_figures).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes/figures.h"
#include "report/report.h"
#include "report/units.h"

enum {
	FIG_IOPS, FIG_BW,
	FIG_SLAT, FIG_CLAT = FIG_SLAT + 4, FIG_LAT = FIG_CLAT + 4,
	FIG_USR = FIG_LAT + 4, FIG_SYS, FIG_CTX,
	FIG_STEADY_IOPS, FIG_STEADY_BW, FIG_STEADY_LAT, FIG_IOS, FIG_NR
};

#define W(idx, key, label, unit, better) \
	[idx] = { FIGURE_WORKLOAD, key, label, NULL, unit, better, idx }
#define LATENCY(idx, name) \
	W(idx, name "_mean_ns", name " avg", "ns", FIGURE_LOWER), \
	W(idx + 1, name "_p50_ns", name " p50", "ns", FIGURE_LOWER), \
	W(idx + 2, name "_p99_ns", name " p99", "ns", FIGURE_LOWER), \
	W(idx + 3, name "_p99.9_ns", name " p99.9", "ns", FIGURE_LOWER)

static const struct figure_def workload_defs[FIG_NR] = {
	W(FIG_IOPS, "iops", "IOPS", "", FIGURE_HIGHER),
	W(FIG_BW, "bw_kib", "bandwidth", "KiB/s", FIGURE_HIGHER),
	LATENCY(FIG_SLAT, "slat"),
	LATENCY(FIG_CLAT, "clat"),
	LATENCY(FIG_LAT, "lat"),
	W(FIG_USR, "usr_cpu_pct", "cpu usr", "%", FIGURE_LOWER),
	W(FIG_SYS, "sys_cpu_pct", "cpu sys", "%", FIGURE_LOWER),
	W(FIG_CTX, "ctx_per_io", "context switches per I/O", "", FIGURE_LOWER),
	/* --steady: the same over the series' steady state */
	W(FIG_STEADY_IOPS, "steady_iops", "steady IOPS", "", FIGURE_HIGHER),
	W(FIG_STEADY_BW, "steady_bw_kib", "steady bandwidth", "KiB/s", FIGURE_HIGHER),
	W(FIG_STEADY_LAT, "steady_lat_mean_ns", "steady lat avg", "ns", FIGURE_LOWER),
	/* the I/O count: kept for the per-I/O figures, not compared */
	W(FIG_IOS, "ios", NULL, "", FIGURE_NO_DIRECTION),
};

/*
 * Per direction, only for a run whose I/O went both ways: a mixed job's
 * headline is each direction's rate and latency, since the totals above
 * hide a change that moves the two opposite ways.
 */
enum { FIG_DIR_IOPS, FIG_DIR_BW, FIG_DIR_LAT_MEAN, FIG_DIR_LAT_P99, FIG_DIR_NR };
#define DIR_DEF(key, label, unit, better, rank) \
	{ FIGURE_WORKLOAD, key, label, NULL, unit, better, rank }
#define DIR_DEFS(d, name, rank)								\
	[d] = {										\
		DIR_DEF(name ".iops", name " IOPS", "", FIGURE_HIGHER, rank),		\
		DIR_DEF(name ".bw_kib", name " bandwidth", "KiB/s", FIGURE_HIGHER, rank + 1), \
		DIR_DEF(name ".lat_mean_ns", name " lat avg", "ns", FIGURE_LOWER, rank + 2), \
		DIR_DEF(name ".lat_p99_ns", name " lat p99", "ns", FIGURE_LOWER, rank + 3), \
	}
static const struct figure_def direction_defs[DDIR_COUNT][FIG_DIR_NR] = {
	DIR_DEFS(DDIR_READ, "read", FIG_NR),
	DIR_DEFS(DDIR_WRITE, "write", FIG_NR + FIG_DIR_NR),
	DIR_DEFS(DDIR_TRIM, "trim", FIG_NR + 2 * FIG_DIR_NR),
};

struct direction_acc {
	double iops, bw;
	struct ddir_stats merged;
};

static void put_directions(struct figure_set *out, const struct direction_acc *acc)
{
	int used = 0;

	for (int d = 0; d < DDIR_COUNT; d++)
		used += acc[d].merged.ios > 0;
	if (used < 2)
		return;
	for (int d = 0; d < DDIR_COUNT; d++) {
		const struct figure_def *defs = direction_defs[d];
		const struct ddir_stats *m = &acc[d].merged;

		if (!defs[0].key)
			continue;
		figure_put(out, &defs[FIG_DIR_IOPS], acc[d].iops);
		figure_put(out, &defs[FIG_DIR_BW], acc[d].bw);
		figure_put(out, &defs[FIG_DIR_LAT_MEAN], m->lat.n ? m->lat.mean : 0.0);
		figure_put(out, &defs[FIG_DIR_LAT_P99], (double)hist_percentile(&m->lat_h, 99.0));
	}
}

static double per(double a, double b)
{
	return b > 0 ? a / b : 0.0;
}

static void put_latency(struct figure_set *s, const struct figure_def *defs,
			const struct lat_acc *a, const struct hist *h)
{
	figure_put(s, &defs[0], a->n ? a->mean : 0.0);
	figure_put(s, &defs[1], (double)hist_percentile(h, 50.0));
	figure_put(s, &defs[2], (double)hist_percentile(h, 99.0));
	figure_put(s, &defs[3], (double)hist_percentile(h, 99.9));
}

/* The group of job @name (0 when unknown). */
static int job_group(const struct report *r, const char *name)
{
	for (size_t j = 0; j < r->nr_job_defs; j++)
		if (!strcmp(r->job_defs[j].name, name))
			return r->job_defs[j].group_id;
	return 0;
}

/*
 * --steady: each series from its first steady interval on (the rule of
 * series_steady_start), rates summed over jobs and directions as above,
 * lat avg over the steady intervals' I/Os.
 */
static void put_steady(const struct report *r, int group, struct figure_set *out)
{
	double iops = 0, bw = 0, lat = 0, ios = 0;

	for (size_t i = 0; r->series && i < r->series->n; i++) {
		const struct series *s = &r->series->s[i];
		struct series_point sum = { 0 };

		if (group >= 0 && job_group(r, s->job) != group)
			continue;
		for (size_t k = series_steady_start(s); k < s->n; k++) {
			sum.ios += s->pts[k].ios;
			sum.bytes += s->pts[k].bytes;
			sum.dur_ns += s->pts[k].dur_ns;
			lat += s->pts[k].lat_mean_ns * (double)s->pts[k].ios;
		}
		iops += series_iops(&sum);
		bw += series_bw_kib(&sum);
		ios += (double)sum.ios;
	}
	figure_put(out, &workload_defs[FIG_STEADY_IOPS], iops);
	figure_put(out, &workload_defs[FIG_STEADY_BW], bw);
	figure_put(out, &workload_defs[FIG_STEADY_LAT], per(lat, ios));
}

int report_figures(const struct report *r, int group, struct figure_set *out)
{
	/* three full histograms each: too large for the stack */
	struct ddir_stats *m = calloc(1, sizeof(*m));
	struct direction_acc *dir = calloc(DDIR_COUNT, sizeof(*dir));
	double iops = 0, bw = 0, ios = 0, ctx = 0, usr = 0, sys = 0, w = 0;

	if (!m || !dir) {
		free(m);
		free(dir);
		return -ENOMEM;
	}
	for (size_t j = 0; j < r->nr_jobs; j++) {
		const struct worker_stats *st = &r->jobs[j].st;
		unsigned int nw = r->jobs[j].nr_workers;

		if (group >= 0 && report_job_group(&r->jobs[j]) != group)
			continue;
		for (int d = 0; d < DDIR_COUNT; d++) {
			const struct ddir_stats *ds = &st->dir[d];
			/* the direction's own runtime, as the report divides by:
			 * a write+verify job's reads ran only in its verify phase */
			uint64_t runt = stats_ddir_runtime_ms(st, (enum ddir)d);

			if (runt) {
				dir[d].iops += (double)ds->ios * 1000.0 / (double)runt;
				dir[d].bw += (double)ds->bytes * 1000.0 / (double)runt / 1024.0;
			}
			ios += (double)ds->ios;
			ddir_stats_merge(m, ds);
			ddir_stats_merge(&dir[d].merged, ds);
		}
		ctx += (double)(st->ctx_vol + st->ctx_invol);
		usr += stats_cpu_pct(st->usr_ns, st, nw) * nw;
		sys += stats_cpu_pct(st->sys_ns, st, nw) * nw;
		w += nw;
	}
	for (int d = 0; d < DDIR_COUNT; d++) {
		iops += dir[d].iops;
		bw += dir[d].bw;
	}
	figure_put(out, &workload_defs[FIG_IOPS], iops);
	figure_put(out, &workload_defs[FIG_BW], bw);
	put_latency(out, &workload_defs[FIG_SLAT], &m->slat, &m->slat_h);
	put_latency(out, &workload_defs[FIG_CLAT], &m->clat, &m->clat_h);
	put_latency(out, &workload_defs[FIG_LAT], &m->lat, &m->lat_h);
	figure_put(out, &workload_defs[FIG_USR], per(usr, w));
	figure_put(out, &workload_defs[FIG_SYS], per(sys, w));
	figure_put(out, &workload_defs[FIG_CTX], per(ctx, ios));
	figure_put(out, &workload_defs[FIG_IOS], ios);
	put_directions(out, dir);
	if (r->steady)
		put_steady(r, group, out);
	free(m);
	free(dir);
	return out->err;
}

/* Adds @src's figures under @out's prefix, and its stacks. */
static void append(struct figure_set *out, const struct figure_set *src)
{
	for (size_t i = 0; i < src->n; i++)
		figure_put_key(out, src->v[i].def, src->v[i].key, src->v[i].value);
	for (size_t i = 0; i < src->nr_stacks; i++)
		figure_put_stack(out, src->stacks[i].kind, src->stacks[i].stack,
				 src->stacks[i].count);
}

int report_run_figures(const struct report *r, struct figure_set *out)
{
	int ret = report_figures(r, -1, out);

	if (r->nr_groups < 2) {
		for (size_t k = 0; k < r->nr_kernels; k++)
			append(out, &r->kernels[k].figures);
		figure_set_sort(out, 0);
		return ret ? ret : out->err;
	}
	figure_set_sort(out, 0);
	for (size_t g = 0; !ret && g < r->nr_groups; g++) {
		size_t from = out->n;
		int id = r->groups[g].id;

		snprintf(out->prefix, sizeof(out->prefix), "g%d/", id);
		ret = report_figures(r, id, out);
		for (size_t k = 0; k < r->nr_kernels; k++)
			if (r->kernels[k].group_id == id)
				append(out, &r->kernels[k].figures);
		figure_set_sort(out, from);
	}
	out->prefix[0] = 0;
	return ret ? ret : out->err;
}
