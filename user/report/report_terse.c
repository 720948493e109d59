// SPDX-License-Identifier: GPL-2.0
/*
 * fio's --output-format=terse, version 3 (fio's default terse_version):
 * one ';'-separated line per report entry, 121 fields, then 9 for each
 * disk the run watched, 2 more under continue_on_error, then the job's
 * description when it has one.
 * Nothing of iodig's is added to the line, so fio's parsers count the
 * same fields; the kernel section is in the JSON and text reports
 * (docs/usage.md).
 */
#include <errno.h>
#include <stdio.h>

#include "report/percentiles.h"
#include "report/report.h"
#include "report/report_unified.h"
#include "report/units.h"

#ifndef IODIG_VERSION
#define IODIG_VERSION "0.0.0"
#endif

#define TERSE_VERSION 3
#define TERSE_PERCENTILES 20   /* fio's FIO_IO_U_LIST_MAX_LEN columns */

/* min;max;mean;dev in usec, or zeros when nothing was measured. */
static void terse_lat(FILE *out, const struct lat_acc *a)
{
	if (!a->n) {
		fputs(";0;0;0.000000;0.000000", out);
		return;
	}
	fprintf(out, ";%llu;%llu;%f;%f", (unsigned long long)(a->min / 1000),
		(unsigned long long)(a->max / 1000), a->mean / 1000.0,
		lat_acc_stdev(a) / 1000.0);
}

/* lat's percentiles when asked for, else clat's, in usec; 20 columns. */
static void terse_percentiles(FILE *out, const struct job *job,
			      const struct ddir_stats *ds)
{
	const struct hist *h = NULL;
	struct pct_list pl = { 0 };
	unsigned int i;

	if (pct_wanted(job, LAT_LAT, &ds->lat_h))
		h = &ds->lat_h;
	else if (pct_wanted(job, LAT_CLAT, &ds->clat_h))
		h = &ds->clat_h;
	if (h)
		pct_list_of(job, &pl);
	for (i = 0; i < TERSE_PERCENTILES; i++) {
		if (i >= pl.n)
			fputs(";0%=0", out);
		else
			fprintf(out, ";%f%%=%llu", pl.v[i],
				(unsigned long long)(hist_percentile(h, pl.v[i]) / 1000));
	}
}

static void terse_ddir(FILE *out, const struct report_job *rj,
		       const struct report_group *g, enum ddir d)
{
	const struct ddir_stats *ds = &rj->st.dir[d];
	const struct lat_acc *bw = &ds->bw_kib;
	uint64_t runt = stats_ddir_runtime_ms(&rj->st, d), kib_s = 0, iops = 0;

	if (runt) {
		kib_s = ds->bytes * 1000 / runt / 1024;
		iops = ds->ios * 1000 / runt;
	}
	fprintf(out, ";%llu;%llu;%llu;%llu", (unsigned long long)(ds->bytes >> 10),
		(unsigned long long)kib_s, (unsigned long long)iops,
		(unsigned long long)runt);
	terse_lat(out, &ds->slat);
	terse_lat(out, &ds->clat);
	terse_percentiles(out, rj->job, ds);
	terse_lat(out, &ds->lat);
	if (bw->n)
		fprintf(out, ";%llu;%llu;%f%%;%f;%f", (unsigned long long)bw->min,
			(unsigned long long)bw->max,
			bw_share_pct(bw->mean, g ? g->bw_agg[d] : 0), bw->mean,
			lat_acc_stdev(bw));
	else
		fputs(";0;0;0.000000%;0.000000;0.000000", out);
}

/* Reads and writes (version 3 has no trim part); under
 * unified_rw_reporting=mixed their sum alone, under both the sum after
 * them, each as one more direction's fields. */
static void terse_ddirs(FILE *out, const struct report_job *rj,
			const struct report_group *g)
{
	const unsigned int unified = report_unified(rj);

	if (unified == UNIFIED_MIXED && rj->mixed) {
		terse_ddir(out, rj->mixed, g, DDIR_READ);
		return;
	}
	terse_ddir(out, rj, g, DDIR_READ);
	terse_ddir(out, rj, g, DDIR_WRITE);
	if (unified == UNIFIED_BOTH && rj->mixed)
		terse_ddir(out, rj->mixed, g, DDIR_READ);
}

/* One disk's 9 fields, named @name ("slaves" for an aggregate). */
static void terse_disk(FILE *out, const char *name, const struct disk_counters *c,
		       double util_pct)
{
	fprintf(out, ";%s;%llu;%llu;%llu;%llu;%llu;%llu;%llu;%3.2f%%", name,
		(unsigned long long)c->ios[0], (unsigned long long)c->ios[1],
		(unsigned long long)c->merges[0], (unsigned long long)c->merges[1],
		(unsigned long long)c->ticks[0], (unsigned long long)c->ticks[1],
		(unsigned long long)c->time_in_queue,
		util_pct > 100.0 ? 100.0 : util_pct);
}

/* fio's show_disk_util in terse mode: every disk of the run on every
 * job's line, not only the disks that job used; the same figures as the
 * text's "Disk stats" and JSON's disk_util, a disk with slaves (md, dm)
 * followed by their aggregate. */
static void terse_disks(FILE *out, const struct report *r)
{
	for (size_t i = 0; i < r->nr_disks; i++) {
		const struct report_disk *dk = &r->disks[i];

		terse_disk(out, dk->name, &dk->delta, dk->util_pct);
		if (dk->nr_slaves)
			terse_disk(out, "slaves", &dk->slaves_avg, dk->slaves_util_pct);
	}
}

static void terse_job(FILE *out, const struct report *r, const struct report_job *rj)
{
	const struct worker_stats *st = &rj->st;
	const struct report_group *g = report_find_group(r, report_job_group(rj));
	int err = report_job_error(rj, st);
	double depth[DIST_BUCKETS], n[LAT_N_NR], u[LAT_U_NR], m[LAT_M_NR];
	unsigned int i;

	fprintf(out, "%d;iodig-%s;%s;%d;%d", TERSE_VERSION, IODIG_VERSION,
		rj->job ? rj->job->name : "job", report_job_group(rj), -err);
	terse_ddirs(out, rj, g);
	fprintf(out, ";%f%%;%f%%;%llu;%llu;%llu",
		stats_cpu_pct(st->usr_ns, st, rj->nr_workers),
		stats_cpu_pct(st->sys_ns, st, rj->nr_workers),
		(unsigned long long)(st->ctx_vol + st->ctx_invol),
		(unsigned long long)st->majf, (unsigned long long)st->minf);
	dist_pct(st->depth_dist, depth);
	for (i = 0; i < DIST_BUCKETS; i++)
		fprintf(out, ";%3.1f%%", depth[i]);
	/* fio's stat_calc_lat_nu: the nsec buckets count in the first usec one */
	lat_buckets_pct(st, n, u, m);
	for (i = 0; i < LAT_N_NR; i++)
		u[0] += n[i];
	for (i = 0; i < LAT_U_NR; i++)
		fprintf(out, ";%3.2f%%", u[i]);
	for (i = 0; i < LAT_M_NR; i++)
		fprintf(out, ";%3.2f%%", m[i]);
	terse_disks(out, r);
	/* fio adds the error count and first error when the job may go on
	 * after errors, even when there were none */
	if (rj->continue_on_error)
		fprintf(out, ";%llu;%d", (unsigned long long)stats_io_errors(st),
			-st->first_io_error);
	if (rj->job && rj->job->description[0])
		fprintf(out, ";%s", rj->job->description);
	fputc('\n', out);
}

int report_terse(const struct report *r, FILE *out)
{
	for (size_t i = 0; i < r->nr_jobs; i++) {
		const struct worker_stats *st = &r->jobs[i].st;

		/* fio leaves out entries that did nothing, as its text does */
		if (!report_job_did_io(st) && !r->jobs[i].error && !st->error)
			continue;
		terse_job(out, r, &r->jobs[i]);
	}
	if (fflush(out) == EOF)
		return errno ? -errno : -EIO;
	return ferror(out) ? -EIO : 0;
}
