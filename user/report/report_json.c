// SPDX-License-Identifier: GPL-2.0
/*
 * The machine report: fio 3.33's --output-format=json keys and nesting, so
 * tools written for fio (fio_jsonplus_clat2csv, fio-plot, dashboards) read
 * ours, plus an "iodig" object with the run's context and the kernel
 * section from the probes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "report/report.h"
#include "probes/toggle.h"
#include "report/percentiles.h"
#include "report/report_jsonplus.h"
#include "report/report_block_life.h"
#include "report/report_steady.h"
#include "report/report_unified.h"
#include "report/units.h"
#include "workload/engine_opts.h"
#include "workload/verify.h"

#ifndef IODIG_VERSION
#define IODIG_VERSION "0.0.0"
#endif

/* Collects the first allocation failure so building stays linear. */
struct jbuild {
	int err;
	bool plus;    /* json+: each percentile map's histogram bins too */
};

static struct json_object *jnew_obj(struct jbuild *b)
{
	struct json_object *o = json_object_new_object();

	if (!o)
		b->err = -ENOMEM;
	return o;
}

/* Adds @val under @key; takes ownership of @val in every case. */
static void jadd(struct jbuild *b, struct json_object *parent, const char *key,
		 struct json_object *val)
{
	if (!val || !parent || json_object_object_add(parent, key, val)) {
		json_object_put(val);
		b->err = -ENOMEM;
	}
}

static void jint(struct jbuild *b, struct json_object *o, const char *key,
		 uint64_t v)
{
	jadd(b, o, key, json_object_new_int64((int64_t)v));
}

/* fio prints floats with "%f"; json-c would print 17 digits. */
static void jfloat(struct jbuild *b, struct json_object *o, const char *key,
		   double v)
{
	char s[64];

	snprintf(s, sizeof(s), "%f", v);
	jadd(b, o, key, json_object_new_double_s(v, s));
}

static void jstr(struct jbuild *b, struct json_object *o, const char *key,
		 const char *v)
{
	jadd(b, o, key, json_object_new_string(v));
}

/* {min, max, mean, stddev, N} plus fio's percentile map when the job
 * asks for @kind's (clat by default), and with json+ its "bins". */
static void add_lat(struct jbuild *b, struct json_object *dir, const char *key,
		    const struct lat_acc *a, const struct hist *h,
		    const struct job *job, enum lat_kind kind)
{
	struct json_object *o = jnew_obj(b);

	jint(b, o, "min", a->n ? a->min : 0);
	jint(b, o, "max", a->n ? a->max : 0);
	jfloat(b, o, "mean", a->n ? a->mean : 0.0);
	jfloat(b, o, "stddev", lat_acc_stdev(a));
	jint(b, o, "N", a->n);
	if (pct_wanted(job, kind, h)) {
		struct json_object *p = jnew_obj(b);
		struct pct_list pl;

		pct_list_of(job, &pl);
		for (unsigned int i = 0; i < pl.n; i++) {
			char k[32];

			snprintf(k, sizeof(k), "%f", pl.v[i]);
			jint(b, p, k, hist_percentile(h, pl.v[i]));
		}
		jadd(b, o, "percentile", p);
		if (b->plus)
			jadd(b, o, "bins", jsonplus_bins(h));
	}
	jadd(b, dir, key, o);
}

static void add_rate_stats(struct jbuild *b, struct json_object *o,
			   const struct ddir_stats *ds,
			   const struct report_group *g, enum ddir d)
{
	const struct lat_acc *bw = &ds->bw_kib, *io = &ds->iops;

	jint(b, o, "bw_min", bw->n ? bw->min : 0);
	jint(b, o, "bw_max", bw->n ? bw->max : 0);
	jfloat(b, o, "bw_agg", bw->n ? bw_share_pct(bw->mean, g ? g->bw_agg[d] : 0) : 0.0);
	jfloat(b, o, "bw_mean", bw->n ? bw->mean : 0.0);
	jfloat(b, o, "bw_dev", lat_acc_stdev(bw));
	jint(b, o, "bw_samples", bw->n);
	jint(b, o, "iops_min", io->n ? io->min : 0);
	jint(b, o, "iops_max", io->n ? io->max : 0);
	jfloat(b, o, "iops_mean", io->n ? io->mean : 0.0);
	jfloat(b, o, "iops_stddev", lat_acc_stdev(io));
	jint(b, o, "iops_samples", io->n);
}

/* fio's "prios": each priority's class, level and latency, in the order
 * fio lists them, when two or more of the direction have samples. */
static void add_prios(struct jbuild *b, struct json_object *dir,
		      const struct report_job *rj, enum ddir d)
{
	const struct prio_stats *ps = rj->prio;
	struct json_object *arr;
	bool total;

	if (prio_stats_shown(ps, d) < 2)
		return;
	total = rj->job->stat.lat_percentiles;
	arr = json_object_new_array();
	for (unsigned int i = 0; arr && i < ps->nr[d]; i++) {
		const struct prio_lat *p = &ps->e[d][i];
		struct json_object *o;

		if (!p->acc.n)
			continue;
		o = jnew_obj(b);
		jint(b, o, "prioclass", p->ioprio >> 13);
		jint(b, o, "prio", p->ioprio & 7);
		add_lat(b, o, total ? "lat_ns" : "clat_ns", &p->acc, &p->h, rj->job,
			total ? LAT_LAT : LAT_CLAT);
		if (!o || json_object_array_add(arr, o)) {
			json_object_put(o);
			b->err = -ENOMEM;
		}
	}
	jadd(b, dir, "prios", arr);
}

static void add_ddir(struct jbuild *b, struct json_object *job, const char *name,
		     const struct report_job *rj, const struct report_group *g,
		     enum ddir d)
{
	const struct ddir_stats *ds = &rj->st.dir[d];
	struct json_object *o = jnew_obj(b);
	uint64_t runt = stats_ddir_runtime_ms(&rj->st, d), bw_bytes = 0;
	double iops = 0.0;

	if (runt) {
		bw_bytes = ds->bytes * 1000 / runt;
		iops = (double)ds->ios * 1000.0 / (double)runt;
	}
	jint(b, o, "io_bytes", ds->bytes);
	jint(b, o, "io_kbytes", ds->bytes >> 10);
	jint(b, o, "bw_bytes", bw_bytes);
	jint(b, o, "bw", bw_bytes / 1024);
	jfloat(b, o, "iops", iops);
	jint(b, o, "runtime", runt);
	jint(b, o, "total_ios", rj->st.issued[d]);
	jint(b, o, "short_ios", ds->short_ios);
	jint(b, o, "drop_ios", 0);
	add_lat(b, o, "slat_ns", &ds->slat, &ds->slat_h, rj->job, LAT_SLAT);
	add_lat(b, o, "clat_ns", &ds->clat, &ds->clat_h, rj->job, LAT_CLAT);
	add_lat(b, o, "lat_ns", &ds->lat, &ds->lat_h, rj->job, LAT_LAT);
	add_prios(b, o, rj, d);
	add_rate_stats(b, o, ds, g, d);
	jadd(b, job, name, o);
}

/* fsync=/fdatasync='s syncs: total_ios counts the fsyncs alone (fio's
 * total_io_u[DDIR_SYNC]), lat_ns both kinds (fio's sync_stat, with
 * percentiles as clat_percentiles asks). */
static void add_sync(struct jbuild *b, struct json_object *job,
		     const struct report_job *rj)
{
	struct json_object *sync = jnew_obj(b);

	jint(b, sync, "total_ios", rj->st.fsyncs);
	add_lat(b, sync, "lat_ns", &rj->st.sync_lat,
		&rj->st.sync_h, rj->job, LAT_CLAT);
	jadd(b, job, "sync", sync);
}

/* fio's "global options" / "job options": the options as given
 * ("name=value\n" lines of @len bytes), and no key at all when there are
 * none (fio's json_add_job_opts). */
static void add_given(struct jbuild *b, struct json_object *parent, const char *key,
		      const char *text, size_t len)
{
	struct json_object *o;

	if (!len)
		return;
	o = jnew_obj(b);
	for (const char *p = text; p < text + len;) {
		const char *eq = memchr(p, '=', (size_t)(text + len - p));
		const char *nl = memchr(p, '\n', (size_t)(text + len - p));
		char name[128];

		if (!eq || !nl || eq > nl)
			break;
		snprintf(name, sizeof(name), "%.*s", (int)(eq - p), p);
		jadd(b, o, name, json_object_new_string_len(eq + 1, (int)(nl - eq - 1)));
		p = nl + 1;
	}
	jadd(b, parent, key, o);
}

static void add_job_options(struct jbuild *b, struct json_object *job_obj,
			    const struct job *j)
{
	add_given(b, job_obj, "job options", j->given + j->given_global,
		  strlen(j->given + j->given_global));
}

/* [global]'s options: the last job has seen every [global] section. */
static void add_global_options(struct jbuild *b, struct json_object *root,
			       const struct report *r)
{
	const struct job *j;

	if (!r->nr_job_defs)
		return;
	j = &r->job_defs[r->nr_job_defs - 1];
	add_given(b, root, "global options", j->given, j->given_global);
}

static void add_dist(struct jbuild *b, struct json_object *job, const char *key,
		     const char *const *labels, const uint64_t map[DIST_BUCKETS])
{
	struct json_object *o = jnew_obj(b);
	double pct[DIST_BUCKETS];
	unsigned int i;

	dist_pct(map, pct);
	for (i = 0; i < DIST_BUCKETS; i++)
		jfloat(b, o, labels[i], pct[i]);
	jadd(b, job, key, o);
}

static void add_lat_buckets(struct jbuild *b, struct json_object *job,
			    const struct worker_stats *st)
{
	double n[LAT_N_NR], u[LAT_U_NR], m[LAT_M_NR];
	struct json_object *on = jnew_obj(b), *ou = jnew_obj(b), *om = jnew_obj(b);
	unsigned int i;

	lat_buckets_pct(st, n, u, m);
	for (i = 0; i < LAT_N_NR; i++)
		jfloat(b, on, lat_bucket_labels[i], n[i]);
	for (i = 0; i < LAT_U_NR; i++)
		jfloat(b, ou, lat_bucket_labels[i], u[i]);
	for (i = 0; i < LAT_M_NR; i++)
		jfloat(b, om, lat_bucket_labels[i], m[i]);
	jadd(b, job, "latency_ns", on);
	jadd(b, job, "latency_us", ou);
	jadd(b, job, "latency_ms", om);
}

/* Counters fio has no key for, kept apart so fio's keys stay fio's. */
static void add_job_extras(struct jbuild *b, struct json_object *job,
			   const struct report_job *rj, int err)
{
	const struct worker_stats *st = &rj->st;
	struct json_object *o = jnew_obj(b);

	jint(b, o, "workers", rj->nr_workers);
	jint(b, o, "io_errors", stats_io_errors(st));
	jint(b, o, "nowait_eagain", st->nowait_eagain);
	jint(b, o, "verified_blocks", st->verified_blocks);
	jint(b, o, "verify_errors", st->verify_errors);
	jint(b, o, "zone_resets", st->zone_resets);
	if (err)
		jstr(b, o, "error_message", rj->errmsg[0] ? rj->errmsg :
			   st->errmsg[0] ? st->errmsg : strerror(-err));
	jadd(b, job, "iodig", o);
}

/* "read", "write", "trim" and "sync"; under unified_rw_reporting=mixed
 * only their sum, "mixed" (fio has no "sync" key then), under both the
 * sum after them. */
static void add_ddirs(struct jbuild *b, struct json_object *o,
		      const struct report_job *rj, const struct report_group *g)
{
	const unsigned int unified = report_unified(rj);

	if (unified == UNIFIED_MIXED && rj->mixed) {
		add_ddir(b, o, "mixed", rj->mixed, g, DDIR_READ);
		return;
	}
	add_ddir(b, o, "read", rj, g, DDIR_READ);
	add_ddir(b, o, "write", rj, g, DDIR_WRITE);
	add_ddir(b, o, "trim", rj, g, DDIR_TRIM);
	add_sync(b, o, rj);
	if (unified == UNIFIED_BOTH && rj->mixed)
		add_ddir(b, o, "mixed", rj->mixed, g, DDIR_READ);
}

static void add_lat_target(struct jbuild *b, struct json_object *o,
			   const struct report_job *rj, const struct worker_stats *st)
{
	jint(b, o, "latency_depth", st->latency_depth ? st->latency_depth :
	     rj->job ? rj->job->iodepth : 1);
	jint(b, o, "latency_target", rj->job ? rj->job->latency_target_ns : 0);
	jfloat(b, o, "latency_percentile", rj->job ? rj->job->latency_percentile : 100.0);
	/* fio's window is in microseconds, its target in nanoseconds */
	jint(b, o, "latency_window", rj->job ? rj->job->latency_window_ns / 1000 : 0);
}

static void add_job(struct jbuild *b, struct json_object *jobs,
		    const struct report *r, const struct report_job *rj,
		    uint64_t elapsed_s)
{
	const struct worker_stats *st = &rj->st;
	const struct report_group *g;
	struct json_object *o = jnew_obj(b);
	int err = report_job_error(rj, st);

	g = report_find_group(r, report_job_group(rj));
	/* fio's report of a job without a name ("[]") has no "jobname" */
	if (!rj->job || rj->job->name[0])
		jstr(b, o, "jobname", rj->job ? rj->job->name : "job");
	jint(b, o, "groupid", (uint64_t)report_job_group(rj));
	jint(b, o, "error", (uint64_t)-err);
	jint(b, o, "eta", 0);
	jint(b, o, "elapsed", elapsed_s);
	if (rj->job)
		add_job_options(b, o, rj->job);
	add_ddirs(b, o, rj, g);

	jint(b, o, "job_runtime", stats_total_run_ms(st, rj->nr_workers));
	jfloat(b, o, "usr_cpu", stats_cpu_pct(st->usr_ns, st, rj->nr_workers));
	jfloat(b, o, "sys_cpu", stats_cpu_pct(st->sys_ns, st, rj->nr_workers));
	jint(b, o, "ctx", st->ctx_vol + st->ctx_invol);
	jint(b, o, "majf", st->majf);
	jint(b, o, "minf", st->minf);
	add_dist(b, o, "iodepth_level", dist_depth_labels, st->depth_dist);
	add_dist(b, o, "iodepth_submit", dist_batch_labels, st->submit_dist);
	add_dist(b, o, "iodepth_complete", dist_batch_labels, st->complete_dist);
	add_lat_buckets(b, o, st);
	/* fio adds these when the job may go on after errors */
	if (rj->continue_on_error) {
		jint(b, o, "total_err", stats_io_errors(st));
		jint(b, o, "first_error", (uint64_t)-st->first_io_error);
	}
	if (report_job_has_lat_target(rj))
		add_lat_target(b, o, rj, st);
	if (o && report_block_life_json(o, &st->block_life, rj->job))
		b->err = -ENOMEM;
	if (rj->steady)
		jadd(b, o, "steadystate", report_steady_json(rj->steady));
	add_job_extras(b, o, rj, err);

	if (!o || json_object_array_add(jobs, o)) {
		json_object_put(o);
		b->err = -ENOMEM;
	}
}

/* fio's aggregate of a disk's slaves (md, dm), with fio's key names
 * ("aggr_write_merge" has no s in fio 3.33). */
static void add_disk_slaves(struct jbuild *b, struct json_object *o,
			    const struct report_disk *dk)
{
	const struct disk_counters *a = &dk->slaves_avg;

	jint(b, o, "aggr_read_ios", a->ios[0]);
	jint(b, o, "aggr_write_ios", a->ios[1]);
	jint(b, o, "aggr_read_merges", a->merges[0]);
	jint(b, o, "aggr_write_merge", a->merges[1]);
	jint(b, o, "aggr_read_ticks", a->ticks[0]);
	jint(b, o, "aggr_write_ticks", a->ticks[1]);
	jint(b, o, "aggr_in_queue", a->time_in_queue);
	jfloat(b, o, "aggr_util", dk->slaves_util_pct);
}

static void add_disks(struct jbuild *b, struct json_object *root,
		      const struct report *r)
{
	struct json_object *arr = json_object_new_array();
	size_t i;

	for (i = 0; arr && i < r->nr_disks; i++) {
		const struct report_disk *dk = &r->disks[i];
		struct json_object *o = jnew_obj(b);

		jstr(b, o, "name", dk->name);
		jint(b, o, "read_ios", dk->delta.ios[0]);
		jint(b, o, "write_ios", dk->delta.ios[1]);
		jint(b, o, "read_merges", dk->delta.merges[0]);
		jint(b, o, "write_merges", dk->delta.merges[1]);
		jint(b, o, "read_ticks", dk->delta.ticks[0]);
		jint(b, o, "write_ticks", dk->delta.ticks[1]);
		jint(b, o, "in_queue", dk->delta.time_in_queue);
		jfloat(b, o, "util", dk->util_pct > 100.0 ? 100.0 : dk->util_pct);
		if (dk->nr_slaves)
			add_disk_slaves(b, o, dk);
		if (!o || json_object_array_add(arr, o)) {
			json_object_put(o);
			b->err = -ENOMEM;
		}
	}
	jadd(b, root, "disk_util", arr);
}

/* "groups": each group's jobs and kernel section, for a run of several. */
static void add_groups(struct jbuild *b, struct json_object *iodig, const struct report *r)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; arr && i < r->nr_kernels; i++) {
		const struct report_kernel *k = &r->kernels[i];
		struct json_object *o = jnew_obj(b), *jobs = json_object_new_array();
		unsigned int workers = 0;

		for (size_t j = 0; jobs && j < r->nr_job_defs; j++) {
			if (r->job_defs[j].run_group != k->run_group)
				continue;
			json_object_array_add(jobs, json_object_new_string(r->job_defs[j].name));
			workers += r->job_defs[j].numjobs;
		}
		jint(b, o, "group", (uint64_t)k->group_id);
		jadd(b, o, "jobs", jobs);
		jint(b, o, "workers", workers);
		jadd(b, o, "kernel", json_object_get(k->json));
		if (!o || json_object_array_add(arr, o)) {
			json_object_put(o);
			b->err = -ENOMEM;
		}
	}
	jadd(b, iodig, "groups", arr);
}

/*
 * One group: "kernel" is its section, as it always was.  Several: each
 * group's section is in "groups", and "kernel" keeps only the list of
 * probes (the first group's), so no reader takes one group's figures for
 * the whole run's.
 */
static void add_kernel(struct jbuild *b, struct json_object *iodig, const struct report *r)
{
	struct json_object *kernel, *probes = NULL;

	if (r->nr_groups < 2 || !r->nr_kernels) {
		jadd(b, iodig, "kernel", r->nr_kernels ? json_object_get(r->kernels[0].json) :
						       jnew_obj(b));
		return;
	}
	kernel = jnew_obj(b);
	if (json_object_object_get_ex(r->kernels[0].json, "probes", &probes))
		jadd(b, kernel, "probes", json_object_get(probes));
	jadd(b, iodig, "kernel", kernel);
	add_groups(b, iodig, r);
}

/* What each job measured: path, device and filesystem. */
static void add_targets(struct jbuild *b, struct json_object *iodig,
			const struct report *r)
{
	struct json_object *a = json_object_new_array();

	for (size_t i = 0; a && i < r->nr_targets; i++) {
		const struct report_target *t = &r->targets[i];
		struct json_object *o = jnew_obj(b);

		jstr(b, o, "job", t->job);
		jstr(b, o, "path", t->path);
		jstr(b, o, "device", t->device);
		jstr(b, o, "filesystem", t->filesystem);
		jadd(b, o, "scratch", json_object_new_boolean(t->scratch));
		jstr(b, o, "description", t->text);
		if (o && json_object_array_add(a, o)) {
			json_object_put(o);
			b->err = -ENOMEM;
		}
	}
	jadd(b, iodig, "targets", a);
}

static void add_iodig(struct jbuild *b, struct json_object *root,
		      const struct report *r)
{
	struct json_object *o = jnew_obj(b);

	jstr(b, o, "version", IODIG_VERSION);
	jstr(b, o, "command", r->command);
	jstr(b, o, "kernel_release", r->kernel_release);
	jstr(b, o, "hostname", r->hostname);
	jadd(b, o, "interrupted", json_object_new_boolean(r->interrupted));
	add_targets(b, o, r);
	add_kernel(b, o, r);
	if (r->toggle && o)
		toggle_render_json(r->toggle, o);
	jadd(b, o, "series", report_series_json(r->series));
	jadd(b, root, "iodig", o);
}

/* fio's "elapsed" is whole seconds since the run started. */
static uint64_t elapsed_seconds(const struct report *r)
{
	uint64_t max_ns = 0;
	size_t i;

	for (i = 0; i < r->nr_jobs; i++)
		if (r->jobs[i].st.runtime_ns > max_ns)
			max_ns = r->jobs[i].st.runtime_ns;
	return (max_ns + 999999999ull) / 1000000000ull;
}

int report_json_tree(const struct report *r, struct json_object **out)
{
	return report_json_tree_fmt(r, false, out);
}

int report_json_tree_fmt(const struct report *r, bool plus, struct json_object **out)
{
	struct jbuild b = { .plus = plus };
	struct json_object *root, *jobs;
	char when[32] = "";
	uint64_t elapsed = elapsed_seconds(r);
	size_t i;

	*out = NULL;
	root = jnew_obj(&b);
	if (!root)
		return -ENOMEM;
	ctime_r(&r->timestamp, when);
	when[strcspn(when, "\n")] = '\0';

	jstr(&b, root, "fio version", "iodig-" IODIG_VERSION);
	jint(&b, root, "timestamp", (uint64_t)r->timestamp);
	jint(&b, root, "timestamp_ms", r->timestamp_ms);
	jstr(&b, root, "time", when);
	add_global_options(&b, root, r);
	jobs = json_object_new_array();
	for (i = 0; jobs && i < r->nr_jobs; i++)
		add_job(&b, jobs, r, &r->jobs[i], elapsed);
	jadd(&b, root, "jobs", jobs);
	/* fio has the key only when it watched block devices */
	if (r->nr_disks)
		add_disks(&b, root, r);
	add_iodig(&b, root, r);
	if (b.err) {
		json_object_put(root);
		return b.err;
	}
	*out = root;
	return 0;
}

const char *report_json_text(struct json_object *tree)
{
	return json_object_to_json_string_ext(tree, JSON_C_TO_STRING_PRETTY |
					      JSON_C_TO_STRING_SPACED |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
}

int report_json_print(struct json_object *tree, FILE *out)
{
	const char *text = report_json_text(tree);

	if (!text)
		return -ENOMEM;
	if (fputs(text, out) == EOF || fputc('\n', out) == EOF ||
	    fflush(out) == EOF || ferror(out))
		return -EIO;
	return 0;
}

int report_json(const struct report *r, FILE *out)
{
	struct json_object *root;
	int ret = report_json_tree(r, &root);

	if (!ret)
		ret = report_json_print(root, out);
	json_object_put(root);
	return ret;
}
