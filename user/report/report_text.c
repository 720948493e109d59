// SPDX-License-Identifier: GPL-2.0
/*
 * The human report: fio 3.33's normal output, field for field, so people
 * (and scripts) that read fio's output can read ours; the kernel section
 * from the probes follows it.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "report/report.h"
#include "probes/toggle.h"
#include "report/percentiles.h"
#include "report/report_block_life.h"
#include "report/report_steady.h"
#include "report/report_unified.h"
#include "report/units.h"

static unsigned int group_kb_base(const struct report_group *g)
{
	return g && g->kb_base ? g->kb_base : 1024;
}

/* significant_figures: fio's maxlen of num2str for the text's IOPS,
 * bandwidth and sizes; 4 where no job says. */
static int sig_figs(unsigned int n)
{
	return n ? (int)n : 4;
}

/* fio prints IEC units first when kb_base is a power of two (1024). */
static bool kb_is_pow2(unsigned int kb_base)
{
	return (kb_base & (kb_base - 1)) == 0;
}

static const char *job_name(const struct report_job *rj)
{
	return rj->job ? rj->job->name : "job";
}

/* fio switches a latency line to usec/msec only when min, max and stdev
 * are all large enough that the scaled figures stay meaningful. */
static void print_lat_line(FILE *out, const char *name, const struct lat_acc *a)
{
	uint64_t min = a->min, max = a->max;
	double mean = a->mean, dev = lat_acc_stdev(a);
	const char *unit = "nsec";
	char minp[NUM2STR_LEN], maxp[NUM2STR_LEN];

	if (min > 2000000 && max > 99999999ull && dev > 1000000.0) {
		min /= 1000000;
		max /= 1000000;
		mean /= 1e6;
		dev /= 1e6;
		unit = "msec";
	} else if (min > 2000 && max > 99999 && dev > 1000.0) {
		min /= 1000;
		max /= 1000;
		mean /= 1e3;
		dev /= 1e3;
		unit = "usec";
	}
	fprintf(out, "    %s (%s): min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n",
		name, unit,
		fio_num2str(minp, sizeof(minp), min, 6, 1, false, N2S_NONE),
		fio_num2str(maxp, sizeof(maxp), max, 6, 1, false, N2S_NONE),
		mean, dev);
}

/* fio's percentile block: unit from the smallest and largest reported
 * value, column width from the largest, as many per line as fit in 80. */
static void print_percentiles(FILE *out, const char *name, const struct hist *h,
			      const struct pct_list *pl)
{
	uint64_t val[JOB_PERCENTILES_MAX > FIO_PERCENTILES_NR ?
		     JOB_PERCENTILES_MAX : FIO_PERCENTILES_NR];
	uint64_t minv = UINT64_MAX, maxv = 0, divisor;
	unsigned int i, steps, per_line, prec = pl->precision;
	const char *unit;
	int width;

	for (i = 0; i < pl->n; i++) {
		val[i] = hist_percentile(h, pl->v[i]);
		if (val[i] < minv)
			minv = val[i];
		if (val[i] > maxv)
			maxv = val[i];
	}
	if (minv > 2000000 && maxv > 99999999ull) {
		steps = 2, divisor = 1000000, unit = "msec";
	} else if (minv > 2000 && maxv > 99999) {
		steps = 1, divisor = 1000, unit = "usec";
	} else {
		steps = 0, divisor = 1, unit = "nsec";
	}
	width = 5;
	if (maxv / divisor > 0 && (int)(log10((double)(maxv / divisor)) + 1) > width)
		width = (int)(log10((double)(maxv / divisor)) + 1);
	/* " 99.99th=[" is 10 + precision characters */
	per_line = (80 - 7) / (prec + 10 + (unsigned int)width);

	fprintf(out, "    %s percentiles (%s):\n     |", name, unit);
	for (i = 0; i < pl->n; i++) {
		bool last = i == pl->n - 1;
		unsigned int s;

		if (i && i % per_line == 0)
			fputs("     |", out);
		/* fio rounds up at each scale step */
		for (s = 0; s < steps; s++)
			val[i] = (val[i] + 999) / 1000;
		fprintf(out, " %*.*fth=[%*llu]%c", (int)prec + 3, (int)prec, pl->v[i],
			width, (unsigned long long)val[i], last ? '\n' : ',');
		if (!last && i % per_line == per_line - 1)
			fputc('\n', out);
	}
}

/* slat, clat and lat percentiles, each when the job asks for it. */
static void print_all_percentiles(FILE *out, const struct job *job,
				  const struct ddir_stats *ds)
{
	static const char *const names[LAT_KINDS] = { "slat", "clat", "lat" };
	const struct hist *h[LAT_KINDS] = { &ds->slat_h, &ds->clat_h, &ds->lat_h };
	struct pct_list pl;

	pct_list_of(job, &pl);
	for (unsigned int k = 0; k < LAT_KINDS; k++)
		if (pct_wanted(job, k, h[k]))
			print_percentiles(out, names[k], h[k], &pl);
}

/* fsync=/fdatasync='s syncs, when there were any (fio's sync_stat). */
static void print_syncs(FILE *out, const struct report_job *rj)
{
	const struct worker_stats *st = &rj->st;
	struct pct_list pl;

	if (!st->sync_lat.n)
		return;
	fputs("  fsync/fdatasync/sync_file_range:\n", out);
	print_lat_line(out, "sync", &st->sync_lat);
	pct_list_of(rj->job, &pl);
	if (pct_wanted(rj->job, LAT_CLAT, &st->sync_h))
		print_percentiles(out, "sync", &st->sync_h, &pl);
}

/* fio's "clat prio C/L" lines (lat under lat_percentiles), then their
 * percentiles with each one's share of the direction's I/Os; shown when
 * two or more priorities of the direction have samples. */
static void print_prio_lines(FILE *out, const struct report_job *rj, enum ddir d)
{
	const struct prio_stats *ps = rj->prio;
	char name[64];

	if (prio_stats_shown(ps, d) < 2)
		return;
	for (unsigned int i = 0; i < ps->nr[d]; i++) {
		if (!ps->e[d][i].acc.n)
			continue;
		snprintf(name, sizeof(name), "%s prio %u/%u",
			 rj->job->stat.lat_percentiles ? "lat" : "clat",
			 ps->e[d][i].ioprio >> 13, ps->e[d][i].ioprio & 7);
		print_lat_line(out, name, &ps->e[d][i].acc);
	}
}

static void print_prio_percentiles(FILE *out, const struct report_job *rj,
				   enum ddir d)
{
	const struct prio_stats *ps = rj->prio;
	const struct ddir_stats *ds = &rj->st.dir[d];
	const struct job_stat_opts *o;
	struct pct_list pl;
	char name[64];
	uint64_t all;

	if (prio_stats_shown(ps, d) < 2)
		return;
	o = &rj->job->stat;
	if (!o->clat_percentiles && !o->lat_percentiles)
		return;
	all = o->lat_percentiles ? ds->lat.n : ds->clat.n;
	pct_list_of(rj->job, &pl);
	for (unsigned int i = 0; i < ps->nr[d]; i++) {
		const struct prio_lat *p = &ps->e[d][i];

		if (!p->acc.n)
			continue;
		snprintf(name, sizeof(name), "%s prio %u/%u (%.2f%% of IOs)",
			 o->lat_percentiles ? "lat" : "clat", p->ioprio >> 13,
			 p->ioprio & 7, all ? 100.0 * (double)p->acc.n / (double)all : 0.0);
		print_percentiles(out, name, &p->h, &pl);
	}
}

static void print_bw_iops(FILE *out, const struct ddir_stats *ds,
			  const struct report_group *g, enum ddir d)
{
	const unsigned int kb = group_kb_base(g);

	if (ds->bw_kib.n) {
		uint64_t min = ds->bw_kib.min, max = ds->bw_kib.max;
		double mean = ds->bw_kib.mean, dev = lat_acc_stdev(&ds->bw_kib);
		double per = bw_share_pct(mean, g ? g->bw_agg[d] : 0);
		const char *unit = kb_is_pow2(kb) ? "KiB" : "kB";

		if (mean > (double)kb * (double)kb) {
			min /= kb;
			max /= kb;
			mean /= kb;
			dev /= kb;
			unit = "MiB";
		}
		fprintf(out, "   bw (%5s/s): min=%5llu, max=%5llu, per=%3.2f%%, "
			"avg=%5.02f, stdev=%5.02f, samples=%llu\n", unit,
			(unsigned long long)min, (unsigned long long)max, per,
			mean, dev, (unsigned long long)ds->bw_kib.n);
	}
	if (ds->iops.n)
		fprintf(out, "   iops        : min=%5llu, max=%5llu, avg=%5.02f, "
			"stdev=%5.02f, samples=%llu\n",
			(unsigned long long)ds->iops.min,
			(unsigned long long)ds->iops.max, ds->iops.mean,
			lat_acc_stdev(&ds->iops), (unsigned long long)ds->iops.n);
}

/* Direction @d's block, under @name ("read", or "mixed" for the sum). */
static void print_ddir(FILE *out, const struct report_job *rj,
		       const struct report_group *g, enum ddir d, const char *name)
{
	const struct ddir_stats *ds = &rj->st.dir[d];
	const bool i2p = kb_is_pow2(group_kb_base(g));
	uint64_t runt = stats_ddir_runtime_ms(&rj->st, d);
	char iops_s[NUM2STR_LEN], bw_s[NUM2STR_LEN], bw_alt[NUM2STR_LEN];
	char io_s[NUM2STR_LEN], resets[48] = "";
	const int figs = sig_figs(rj->job ? rj->job->stat.sig_figs : 0);
	uint64_t bw, iops;

	/* fio shows no block for a direction without runtime, even with
	 * I/O (a write job's verify_backlog reads cut by its runtime) */
	if (!runt)
		return;
	bw = ds->bytes * 1000 / runt;
	iops = ds->ios * 1000 / runt;
	/* fio 3.33 appends the zoned-device reset count to every write line */
	if (d == DDIR_WRITE)
		snprintf(resets, sizeof(resets), "; %llu zone resets",
			 (unsigned long long)rj->st.zone_resets);
	fprintf(out, "  %s: IOPS=%s, BW=%s (%s)(%s/%llumsec)%s\n", name,
		fio_num2str(iops_s, sizeof(iops_s), iops, figs, 1, false, N2S_NONE),
		fio_num2str(bw_s, sizeof(bw_s), bw, figs, 1, i2p, N2S_BYTEPERSEC),
		fio_num2str(bw_alt, sizeof(bw_alt), bw, figs, 1, !i2p, N2S_BYTEPERSEC),
		fio_num2str(io_s, sizeof(io_s), ds->bytes, figs, 1, i2p, N2S_BYTE),
		(unsigned long long)runt, resets);

	if (ds->slat.n)
		print_lat_line(out, "slat", &ds->slat);
	if (ds->clat.n)
		print_lat_line(out, "clat", &ds->clat);
	if (ds->lat.n)
		print_lat_line(out, " lat", &ds->lat);
	print_prio_lines(out, rj, d);
	print_all_percentiles(out, rj->job, ds);
	print_prio_percentiles(out, rj, d);
	print_bw_iops(out, ds, g, d);
}

/* Each direction's block; under unified_rw_reporting the directions'
 * sum instead (mixed) or after them (both). */
static void print_ddirs(FILE *out, const struct report_job *rj,
			const struct report_group *g)
{
	const unsigned int unified = report_unified(rj);

	if (unified == UNIFIED_MIXED && rj->mixed) {
		print_ddir(out, rj->mixed, g, DDIR_READ, "mixed");
		return;
	}
	for (unsigned int d = 0; d < DDIR_COUNT; d++)
		if (rj->st.dir[d].bytes)
			print_ddir(out, rj, g, d, ddir_name(d));
	if (unified == UNIFIED_BOTH && rj->mixed)
		print_ddir(out, rj->mixed, g, DDIR_READ, "mixed");
}

static void print_lat_row(FILE *out, const char *unit, const double *pct,
			  unsigned int nr)
{
	unsigned int i, on_line = 0;

	for (i = 0; i < nr; i++) {
		if (pct[i] <= 0.0)
			continue;
		if (on_line == 5) {
			fputc('\n', out);
			on_line = 0;
		}
		if (on_line == 0)
			fprintf(out, "  lat (%s)   : ", unit);
		else
			fputs(", ", out);
		fprintf(out, "%s=%3.2f%%", lat_bucket_labels[i], pct[i]);
		on_line++;
	}
	if (on_line)
		fputc('\n', out);
}

static void print_dist(FILE *out, const char *prefix, const char *const *labels,
		       const uint64_t map[DIST_BUCKETS])
{
	double pct[DIST_BUCKETS];
	unsigned int i;

	dist_pct(map, pct);
	fputs(prefix, out);
	for (i = 0; i < DIST_BUCKETS; i++)
		fprintf(out, "%s%s=%3.1f%%", i ? ", " : "", labels[i], pct[i]);
	fputc('\n', out);
}

static void print_job(FILE *out, const struct report *r,
		      const struct report_job *rj)
{
	/* "issued rwts" and the rest count the sum under mixed, as fio's */
	const struct worker_stats *st = &report_job_shown(rj)->st;
	const struct report_group *g;
	int err = report_job_error(rj, st);
	double lat_n[LAT_N_NR], lat_u[LAT_U_NR], lat_m[LAT_M_NR];
	char when[32] = "";

	/* fio leaves out jobs that did nothing, failed or not (its
	 * show_thread_status_normal): the error is on stderr and in JSON */
	if (!report_job_did_io(st))
		return;

	g = report_find_group(r, report_job_group(rj));
	ctime_r(&r->timestamp, when);	/* ends in '\n', as fio's line does */
	if (!err) {
		fprintf(out, "%s: (groupid=%d, jobs=%u): err= 0: pid=%d: %s",
			job_name(rj), report_job_group(rj),
			rj->nr_workers, rj->pid, when);
	} else {
		const char *msg = rj->errmsg[0] ? rj->errmsg :
				  st->errmsg[0] ? st->errmsg : strerror(-err);

		fprintf(out, "%s: (groupid=%d, jobs=%u): err=%2d (%s): pid=%d: %s",
			job_name(rj), report_job_group(rj),
			rj->nr_workers, -err, msg, rj->pid, when);
	}

	print_ddirs(out, rj, g);

	lat_buckets_pct(st, lat_n, lat_u, lat_m);
	print_lat_row(out, "nsec", lat_n, LAT_N_NR);
	print_lat_row(out, "usec", lat_u, LAT_U_NR);
	print_lat_row(out, "msec", lat_m, LAT_M_NR);
	print_syncs(out, rj);

	fprintf(out, "  cpu          : usr=%3.2f%%, sys=%3.2f%%, ctx=%llu, "
		"majf=%llu, minf=%llu\n", stats_cpu_pct(st->usr_ns, st, rj->nr_workers),
		stats_cpu_pct(st->sys_ns, st, rj->nr_workers),
		(unsigned long long)(st->ctx_vol + st->ctx_invol),
		(unsigned long long)st->majf, (unsigned long long)st->minf);
	print_dist(out, "  IO depths    : ", dist_depth_labels, st->depth_dist);
	print_dist(out, "     submit    : ", dist_batch_labels, st->submit_dist);
	print_dist(out, "     complete  : ", dist_batch_labels, st->complete_dist);
	fprintf(out, "     issued rwts: total=%llu,%llu,%llu,%llu short=%llu,%llu,%llu,0 "
		"dropped=0,0,0,0\n", (unsigned long long)st->issued[DDIR_READ],
		(unsigned long long)st->issued[DDIR_WRITE],
		(unsigned long long)st->issued[DDIR_TRIM],
		(unsigned long long)st->fsyncs,
		(unsigned long long)st->dir[DDIR_READ].short_ios,
		(unsigned long long)st->dir[DDIR_WRITE].short_ios,
		(unsigned long long)st->dir[DDIR_TRIM].short_ios);

	/* fio's line whenever the job may go on after errors, none or not
	 * (strerror(0) is "Success") */
	if (rj->continue_on_error)
		fprintf(out, "     errors    : total=%llu, first_error=%d/<%s>\n",
			(unsigned long long)stats_io_errors(st), -st->first_io_error,
			strerror(-st->first_io_error));
	if (report_job_has_lat_target(rj))
		fprintf(out, "     latency   : target=%llu, window=%llu, percentile=%.2f%%, "
			"depth=%u\n", rj->job ? (unsigned long long)rj->job->latency_target_ns : 0,
			rj->job ? (unsigned long long)rj->job->latency_window_ns / 1000 : 0,
			rj->job ? rj->job->latency_percentile : 100.0, st->latency_depth ?
			st->latency_depth : rj->job ? rj->job->iodepth : 1);
	report_block_life_text(out, &st->block_life, rj->job);
	if (rj->steady)
		report_steady_text(out, rj->steady, group_kb_base(g),
				   sig_figs(rj->job ? rj->job->stat.sig_figs : 0));
	/* iodig's own counters, only when there is something to say */
	if (st->nowait_eagain || st->verified_blocks || st->verify_errors)
		fprintf(out, "     iodig     : nowait_eagain=%llu, verified=%llu, "
			"verify_errors=%llu\n",
			(unsigned long long)st->nowait_eagain,
			(unsigned long long)st->verified_blocks,
			(unsigned long long)st->verify_errors);
}

/* One line of a group's run status: a direction's, or the sum's. */
static void print_group_line(FILE *out, const char *label,
			     const struct report_group_mix *l, bool i2p, int figs)
{
	char agg[NUM2STR_LEN], agg_alt[NUM2STR_LEN];
	char min[NUM2STR_LEN], min_alt[NUM2STR_LEN];
	char max[NUM2STR_LEN], max_alt[NUM2STR_LEN];
	char io[NUM2STR_LEN], io_alt[NUM2STR_LEN];

	fprintf(out, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), "
		"run=%llu-%llumsec\n", label,
		fio_num2str(agg, sizeof(agg), l->bw_agg, figs, 1, i2p, N2S_BYTEPERSEC),
		fio_num2str(agg_alt, sizeof(agg_alt), l->bw_agg, figs, 1, !i2p, N2S_BYTEPERSEC),
		fio_num2str(min, sizeof(min), l->bw_min, figs, 1, i2p, N2S_BYTEPERSEC),
		fio_num2str(max, sizeof(max), l->bw_max, figs, 1, i2p, N2S_BYTEPERSEC),
		fio_num2str(min_alt, sizeof(min_alt), l->bw_min, figs, 1, !i2p, N2S_BYTEPERSEC),
		fio_num2str(max_alt, sizeof(max_alt), l->bw_max, figs, 1, !i2p, N2S_BYTEPERSEC),
		fio_num2str(io, sizeof(io), l->bytes, figs, 1, i2p, N2S_BYTE),
		fio_num2str(io_alt, sizeof(io_alt), l->bytes, figs, 1, !i2p, N2S_BYTE),
		(unsigned long long)l->runtime_min_ms,
		(unsigned long long)l->runtime_max_ms);
}

/* fio names every line MIXED when the group's entries report the sum
 * alone, and adds the sum's line under unified_rw_reporting=both. */
static void print_group(FILE *out, const struct report_group *g)
{
	static const char *const names[DDIR_COUNT] = { "   READ", "  WRITE",
							"   TRIM" };
	const bool i2p = kb_is_pow2(group_kb_base(g));
	struct report_group_mix l;

	fprintf(out, "\nRun status group %d (all jobs):\n", g->id);
	for (unsigned int d = 0; d < DDIR_COUNT; d++) {
		if (!g->runtime_max_ms[d])
			continue;
		l = (struct report_group_mix){ g->bytes[d], g->bw_agg[d], g->bw_min[d],
			g->bw_max[d], g->runtime_min_ms[d], g->runtime_max_ms[d] };
		print_group_line(out, g->unified == UNIFIED_MIXED ? "  MIXED" : names[d],
				 &l, i2p, sig_figs(g->sig_figs));
	}
	report_group_mix(g, &l);
	if (g->unified == UNIFIED_BOTH && l.runtime_max_ms)
		print_group_line(out, "  MIXED", &l, i2p, sig_figs(g->sig_figs));
}

/* fio's print_disk_util: a disk with slaves (md, dm) indented two more
 * and followed by their aggregate; the slaves have lines of their own. */
static void print_disk(FILE *out, const struct report_disk *dk)
{
	const struct disk_counters *c = &dk->delta, *a = &dk->slaves_avg;

	fprintf(out, "%s  %s: ios=%llu/%llu, merge=%llu/%llu, ticks=%llu/%llu, "
		"in_queue=%llu, util=%3.2f%%", dk->nr_slaves ? "  " : "", dk->name,
		(unsigned long long)c->ios[0], (unsigned long long)c->ios[1],
		(unsigned long long)c->merges[0], (unsigned long long)c->merges[1],
		(unsigned long long)c->ticks[0], (unsigned long long)c->ticks[1],
		(unsigned long long)c->time_in_queue,
		dk->util_pct > 100.0 ? 100.0 : dk->util_pct);
	if (dk->nr_slaves)
		fprintf(out, ", aggrios=%llu/%llu, aggrmerge=%llu/%llu, "
			"aggrticks=%llu/%llu, aggrin_queue=%llu, aggrutil=%3.2f%%",
			(unsigned long long)a->ios[0], (unsigned long long)a->ios[1],
			(unsigned long long)a->merges[0], (unsigned long long)a->merges[1],
			(unsigned long long)a->ticks[0], (unsigned long long)a->ticks[1],
			(unsigned long long)a->time_in_queue, dk->slaves_util_pct);
	fputc('\n', out);
}

/* fio's start-up lines: one description per job ("..." for its clones),
 * its version, and how many workers it starts. */
static void print_preamble(FILE *out, const struct report *r)
{
	unsigned int procs = 0, threads = 0;

	for (size_t i = 0; i < r->nr_job_defs; i++) {
		const struct job *j = &r->job_defs[i];
		char bs[DDIR_COUNT][2][NUM2STR_LEN];

		/* fio's num2str of each size, in the job's kb_base and figures */
		for (unsigned int d = 0; d < DDIR_COUNT; d++) {
			fio_num2str(bs[d][0], sizeof(bs[d][0]), j->bs_min[d],
				    sig_figs(j->stat.sig_figs), 1, kb_is_pow2(j->kb_base), N2S_BYTE);
			fio_num2str(bs[d][1], sizeof(bs[d][1]), j->bs_max[d],
				    sig_figs(j->stat.sig_figs), 1, kb_is_pow2(j->kb_base), N2S_BYTE);
		}
		fprintf(out, "%s: (g=%d): rw=%s, bs=(R) %s-%s, (W) %s-%s, ",
			j->name, j->group_id, rw_mode_name(j->rw),
			bs[DDIR_READ][0], bs[DDIR_READ][1], bs[DDIR_WRITE][0], bs[DDIR_WRITE][1]);
		/* fio names no trim sizes with bs_is_seq_rand: none are used */
		if (j->bs_is_seq_rand)
			fputs("bs_is_seq_rand, ", out);
		else
			fprintf(out, "(T) %s-%s, ", bs[DDIR_TRIM][0], bs[DDIR_TRIM][1]);
		fprintf(out, "ioengine=%s, iodepth=%u\n", j->ioengine, j->iodepth);
		if (j->numjobs > 1)
			fputs("...\n", out);
		if (j->thread)
			threads += j->numjobs;
		else
			procs += j->numjobs;
	}
	fprintf(out, "iodig-%s\n", IODIG_VERSION);
	if (procs)
		fprintf(out, "Starting %u process%s\n", procs, procs > 1 ? "es" : "");
	if (threads)
		fprintf(out, "Starting %u thread%s\n", threads, threads > 1 ? "s" : "");
}

/* "job a: 1 worker", "jobs a, b: 3 workers": whom a kernel section
 * covers, the jobs of stonewall group @run. */
static void group_jobs_text(FILE *out, const struct report *r, int run)
{
	unsigned int workers = 0, n = 0;

	for (size_t i = 0; i < r->nr_job_defs; i++)
		n += r->job_defs[i].run_group == run;
	fputs(n > 1 ? "jobs " : "job ", out);
	for (size_t i = 0, k = 0; i < r->nr_job_defs; i++) {
		if (r->job_defs[i].run_group != run)
			continue;
		fprintf(out, "%s%s", k++ ? ", " : "", r->job_defs[i].name);
		workers += r->job_defs[i].numjobs;
	}
	fprintf(out, ": %u worker%s", workers, workers == 1 ? "" : "s");
}

static void print_kernel(FILE *out, const struct report *r, const struct report_kernel *k)
{
	if (r->nr_groups > 1) {
		fprintf(out, "\nKernel, group %d (", k->group_id);
		group_jobs_text(out, r, k->run_group);
		fputs("):\n", out);
	} else {
		fputs("\nKernel:\n", out);
	}
	fputs(k->text ? k->text : "", out);
}

/* With several groups, each stonewall group's kernel section follows
 * its last job. */
static void print_group_kernel(FILE *out, const struct report *r, size_t job)
{
	int run = r->jobs[job].job ? r->jobs[job].job->run_group : 0;

	if (r->nr_groups < 2 || (job + 1 < r->nr_jobs && r->jobs[job + 1].job &&
				 r->jobs[job + 1].job->run_group == run))
		return;
	for (size_t i = 0; i < r->nr_kernels; i++)
		if (r->kernels[i].run_group == run)
			print_kernel(out, r, &r->kernels[i]);
}

/* iodig's: what was measured, once when every job measured the same. */
static void print_targets(FILE *out, const struct report *r)
{
	bool same = true;

	for (size_t i = 1; i < r->nr_targets; i++)
		same &= !strcmp(r->targets[i].text, r->targets[0].text);
	if (!r->nr_targets)
		return;
	fputc('\n', out);
	if (same) {
		fprintf(out, "target: %s\n", r->targets[0].text);
		return;
	}
	for (size_t i = 0; i < r->nr_targets; i++)
		fprintf(out, "target of %s: %s\n", r->targets[i].job,
			r->targets[i].text);
}

int report_text(const struct report *r, FILE *out)
{
	size_t i;

	if (r->interrupted)
		fputs("iodig: run interrupted by a signal; the figures below "
		      "cover only the I/O done before it stopped\n", out);
	print_preamble(out, r);
	/* fio starts its report with an empty line */
	fputc('\n', out);
	for (i = 0; i < r->nr_jobs; i++) {
		print_job(out, r, &r->jobs[i]);
		print_group_kernel(out, r, i);
	}
	for (i = 0; i < r->nr_groups; i++)
		print_group(out, &r->groups[i]);
	if (r->nr_disks) {
		fputs("\nDisk stats (read/write):\n", out);
		for (i = 0; i < r->nr_disks; i++)
			print_disk(out, &r->disks[i]);
	}
	print_targets(out, r);
	if (r->nr_groups < 2 && r->nr_kernels)
		print_kernel(out, r, &r->kernels[0]);
	if (r->toggle)
		toggle_render_text(r->toggle, out);
	/* fflush sets errno (ENOSPC, EPIPE...): the caller names the reason */
	if (fflush(out) == EOF)
		return errno ? -errno : -EIO;
	return ferror(out) ? -EIO : 0;
}
