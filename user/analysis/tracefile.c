// SPDX-License-Identifier: GPL-2.0
/*
 * Trace files: writing (assemble, then temp file + fsync + rename, so a
 * crash leaves the old file or none, never half of one) and reading
 * (every field checked before use: readers are fuzzed, and a trace file
 * may come from another machine or a newer iodig).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/mem.h"
#include "base/read_whole.h"
#include "analysis/environment.h"
#include "probes/figures.h"
#include "run/repeat.h"
#include "run/run.h"
#include "analysis/tracefile.h"
#include "base/atomic_file.h"

#ifndef IODIG_VERSION
#define IODIG_VERSION "0.0.0"
#endif

#define MAX_TRACE_BYTES (256u << 20)

struct json_object *tracefile_jget(struct json_object *o, const char *key)
{
	struct json_object *v = NULL;

	if (o && json_object_is_type(o, json_type_object))
		json_object_object_get_ex(o, key, &v);
	return v;
}

static bool is_num(struct json_object *v)
{
	return v && (json_object_is_type(v, json_type_double) ||
		     json_object_is_type(v, json_type_int));
}

/* ---- building ---- */


static struct json_object *sparse_hist(const struct hist *h)
{
	struct json_object *arr = json_object_new_array();

	for (unsigned int s = 0; arr && s < IODIG_HIST_SLOTS; s++) {
		struct json_object *pair;

		if (!h->slot[s])
			continue;
		pair = json_object_new_array();
		json_object_array_add(pair, json_object_new_int((int)s));
		json_object_array_add(pair, json_object_new_int64((int64_t)h->slot[s]));
		json_object_array_add(arr, pair);
	}
	return arr;
}

static struct json_object *histograms(const struct report *r)
{
	struct json_object *arr = json_object_new_array();

	for (size_t j = 0; arr && j < r->nr_jobs; j++) {
		for (int d = 0; d < DDIR_COUNT; d++) {
			const struct ddir_stats *ds = &r->jobs[j].st.dir[d];
			struct json_object *o;

			if (!ds->ios)
				continue;
			o = json_object_new_object();
			json_object_object_add(o, "job", json_object_new_string(
				r->jobs[j].job ? r->jobs[j].job->name : "job"));
			json_object_object_add(o, "ddir", json_object_new_string(ddir_name(d)));
			json_object_object_add(o, "slat_ns", sparse_hist(&ds->slat_h));
			json_object_object_add(o, "clat_ns", sparse_hist(&ds->clat_h));
			json_object_object_add(o, "lat_ns", sparse_hist(&ds->lat_h));
			json_object_array_add(arr, o);
		}
	}
	return arr;
}

struct json_object *tracefile_stacks_json(const struct figure_set *figs,
					  enum figure_stack_kind kind)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; arr && figs && i < figs->nr_stacks; i++) {
		const struct figure_stack *st = &figs->stacks[i];
		struct json_object *pair;

		if (st->kind != kind)
			continue;
		pair = json_object_new_array();
		json_object_array_add(pair, json_object_new_string(st->stack));
		json_object_array_add(pair, json_object_new_int64((int64_t)st->count));
		json_object_array_add(arr, pair);
	}
	return arr;
}

/* The families' top folded stacks, root first: on-CPU ones sampled inside
 * the submitting calls, off-CPU ones by blocking stack. */
static struct json_object *stacks_json(const struct figure_set *figs)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "on_cpu_submission", tracefile_stacks_json(figs, FIGURE_STACK_ON_CPU));
	json_object_object_add(o, "off_cpu_switches", tracefile_stacks_json(figs, FIGURE_STACK_OFF_CPU));
	return o;
}

/* Every repeat's sampled slat breakdown (1.4), next to its figures. */
static void runs_sampling(const struct repeat_result *res, struct json_object *repeats)
{
	struct json_object *runs = tracefile_jget(repeats, "runs");

	for (unsigned int i = 0; runs && i < res->done; i++) {
		struct json_object *s = tracefile_sampling_json(res, i);

		if (s)
			json_object_object_add(json_object_array_get_idx(runs, i), "sampling", s);
	}
}

/* Job options as the fio section prints them, and each family's mechanism. */
static void env_run_facts(struct json_object *env, struct json_object *tree)
{
	struct json_object *jobs = json_object_new_array(), *probes = json_object_new_object();
	struct json_object *arr = tracefile_jget(tree, "jobs"), *list;
	char when[64];
	time_t now = time(NULL);
	struct tm tm;

	/* fio echoes [global]'s options apart: each job's record has both */
	for (size_t i = 0; arr && i < json_object_array_length(arr); i++) {
		struct json_object *given[2] = {
			tracefile_jget(tree, "global options"),
			tracefile_jget(json_object_array_get_idx(arr, i), "job options"),
		};
		struct json_object *all = json_object_new_object();

		for (unsigned int g = 0; g < 2; g++) {
			if (!json_object_is_type(given[g], json_type_object))
				continue;
			json_object_object_foreach(given[g], k, v)
				json_object_object_add(all, k, json_object_get(v));
		}
		json_object_array_add(jobs, all);
	}
	list = tracefile_jget(tracefile_jget(tracefile_jget(tree, "iodig"), "kernel"), "probes");
	for (size_t i = 0; list && i < json_object_array_length(list); i++) {
		struct json_object *p = json_object_array_get_idx(list, i);
		const char *fam = json_object_get_string(tracefile_jget(p, "family"));
		const char *state = json_object_get_string(tracefile_jget(p, "state"));
		const char *mech = json_object_get_string(tracefile_jget(p, "mechanism"));
		char buf[96];

		if (!fam)
			continue;
		snprintf(buf, sizeof(buf), "%s (%s)", mech ? mech : "none", state ? state : "?");
		json_object_object_add(probes, fam, json_object_new_string(buf));
	}
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	json_object_object_add(env, "jobs", jobs);
	json_object_object_add(env, "probes", probes);
	json_object_object_add(env, "iodig_version", json_object_new_string(IODIG_VERSION));
	json_object_object_add(env, "time", json_object_new_string(when));
}

int tracefile_build(const struct repeat_result *res, const struct run_ctx *ctx,
		    struct json_object **out, struct errbuf *err)
{
	struct json_object *doc = NULL, *iodig, *env = NULL;
	const char *disks[DISK_LIST_MAX];
	int ret;

	*out = NULL;
	if (!res->tree)
		return err_set(err, EINVAL, "no finished run to save");
	for (unsigned int i = 0; i < ctx->run_disks.nr; i++)
		disks[i] = ctx->run_disks.name[i];
	ret = environment_collect(disks, ctx->run_disks.nr, &env, err);
	if (ret)
		return ret;
	for (unsigned int i = 0; i < ctx->io_sched.nr; i++)
		if (ctx->io_sched.d[i].used[0])
			environment_set_scheduler(env, ctx->io_sched.d[i].disk,
						  ctx->io_sched.d[i].used);
	/* version first, so `head` on a trace file shows it */
	doc = json_object_new_object();
	json_object_object_add(doc, "iodig_trace_version", json_object_new_string(TRACEFILE_VERSION));
	json_object_object_foreach(res->tree, key, val)
		json_object_object_add(doc, key, json_object_get(val));
	/* a new "iodig" object sharing the report's members, so the report
	 * tree of the caller is left as it was */
	iodig = json_object_new_object();
	if (!iodig || !tracefile_jget(res->tree, "iodig")) {
		json_object_put(iodig);
		json_object_put(env);
		json_object_put(doc);
		return err_set(err, ENOMEM, "out of memory building the trace file");
	}
	json_object_object_foreach(tracefile_jget(res->tree, "iodig"), ikey, ival)
		json_object_object_add(iodig, ikey, json_object_get(ival));
	json_object_object_add(doc, "iodig", iodig);
	env_run_facts(env, res->tree);
	json_object_object_add(iodig, "environment", env);
	json_object_object_add(iodig, "histograms", histograms(&res->rep));
	json_object_object_add(iodig, "stacks", stacks_json(res->done ? &res->figures[res->done - 1] : NULL));
	json_object_object_add(iodig, "repeats", repeat_json(res));
	runs_sampling(res, tracefile_jget(iodig, "repeats"));
	json_object_object_add(iodig, "figure_definitions", tracefile_defs_json(res));
	*out = doc;
	return 0;
}

int tracefile_default_path(const char *job_name, char *buf, size_t size,
			   struct errbuf *err)
{
	/* IODIG_RUNS_DIR moves the default folder (the test suite uses it
	 * so runs do not pile up in the working tree). */
	const char *dir = getenv("IODIG_RUNS_DIR");
	char name[64], when[32];
	time_t now = time(NULL);
	struct tm tm;
	size_t k = 0;

	if (!dir || !dir[0])
		dir = TRACEFILE_DIR;
	if (mkdir(dir, 0755) && errno != EEXIST)
		return err_set(err, errno, "cannot create the trace folder %s: %s (use --save=FILE or --no-save)",
			       dir, strerror(errno));
	/* the job name, kept to characters safe in a file name */
	for (const char *p = job_name && job_name[0] ? job_name : "run"; *p && k < sizeof(name) - 1; p++)
		name[k++] = (char)((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
				   (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.' ? *p : '_');
	name[k] = 0;
	localtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y%m%d-%H%M%S", &tm);
	snprintf(buf, size, "%s/%s-%s.json", dir, name, when);
	for (int i = 2; !access(buf, F_OK) && i < 1000; i++)
		snprintf(buf, size, "%s/%s-%s-%d.json", dir, name, when, i);
	return 0;
}

int tracefile_write(struct json_object *doc, const char *path, struct errbuf *err)
{
	const char *text = report_json_text(doc);
	struct atomic_file af;
	int ret;

	if (!text)
		return err_set(err, ENOMEM, "out of memory writing %s", path);
	ret = atomic_file_open(&af, path);
	if (ret)
		return err_set(err, -ret, "trace file %s: cannot create it: %s", path,
			       strerror(-ret));
	ret = fd_write_all(af.fd, text, strlen(text));
	if (!ret)
		ret = fd_write_all(af.fd, "\n", 1);
	if (!ret)
		ret = atomic_file_commit(&af, true);
	else
		atomic_file_abort(&af);
	if (ret)
		return err_set(err, -ret, "trace file %s: writing failed: %s", path, strerror(-ret));
	return 0;
}

/* ---- reading ---- */

void tracefile_free(struct tracefile *tf)
{
	if (!tf)
		return;
	for (size_t i = 0; i < tf->nr_metrics; i++) {
		free(tf->metrics[i].key);
		free(tf->metrics[i].v);
	}
	FREE_EACH(tf->oncpu, tf->nr_oncpu, stack);
	FREE_EACH(tf->offcpu, tf->nr_offcpu, stack);
	free(tf->metrics);
	free(tf->defs);
	free(tf->clat);
	series_set_free(&tf->series);
	tracefile_sampling_free(tf);
	free(tf->name);
	json_object_put(tf->root);
	free(tf);
}

const struct tf_metric *tracefile_metric(const struct tracefile *tf, const char *key)
{
	for (size_t i = 0; i < tf->nr_metrics; i++)
		if (!strcmp(tf->metrics[i].key, key))
			return &tf->metrics[i];
	return NULL;
}

static int parse_version(struct tracefile *tf, struct errbuf *err)
{
	struct json_object *v = tracefile_jget(tf->root, "iodig_trace_version");
	const char *s;
	char *end;
	long major, minor = 0;

	if (!v) {
		if (tracefile_jget(tf->root, "fio version"))
			return err_set(err, EINVAL, "%s: a fio/iodig JSON report, not an iodig trace file (it has no \"iodig_trace_version\"; iodig run saves trace files under ./%s/)",
				       tf->name, TRACEFILE_DIR);
		return err_set(err, EINVAL, "%s: not an iodig trace file (no \"iodig_trace_version\" key)",
			       tf->name);
	}
	s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
	if (!s)
		return err_set(err, EINVAL, "%s: \"iodig_trace_version\" is not a string", tf->name);
	errno = 0;
	major = strtol(s, &end, 10);
	if (end != s && *end == '.')
		minor = strtol(end + 1, &end, 10);
	if (errno || end == s || *end || major < 0 || major > INT_MAX || minor < 0 || minor > INT_MAX)
		return err_set(err, EINVAL, "%s: \"iodig_trace_version\" '%.32s' is not MAJOR.MINOR",
			       tf->name, s);
	tf->major = (int)major;
	tf->minor = (int)minor;
	if (major > TRACEFILE_MAJOR)
		return err_set(err, EPROTO, "%s: trace file version %ld.%ld is newer than this iodig reads (%d.x); use a newer iodig",
			       tf->name, major, minor, TRACEFILE_MAJOR);
	if (major < 1)
		return err_set(err, EPROTO, "%s: trace file version %ld.%ld predates version 1.0 and is not supported",
			       tf->name, major, minor);
	return 0;
}

static bool counts_zero_when_absent(const struct tracefile *tf, const char *key)
{
	const struct figure_def *d = tracefile_def(tf, key);
	int group;

	if (d)
		return d->kind != FIGURE_WORKLOAD;
	key = figure_base_key(key, &group);
	return !strncmp(key, "fn|", 3) || !strncmp(key, "kernel.", 7);
}

/* Adds repeat @run's value of @key (repeats come in order); a figure
 * that reads 0 when absent gets its zeros for the repeats it skipped, so
 * the values of every figure stay aligned by repeat. */
static int metric_add(struct tracefile *tf, const char *key, double v, size_t run,
		      size_t cap_runs)
{
	struct tf_metric *m = NULL;

	for (size_t i = 0; i < tf->nr_metrics; i++)
		if (!strcmp(tf->metrics[i].key, key))
			m = &tf->metrics[i];
	if (!m) {
		struct tf_metric *p = realloc(tf->metrics, (tf->nr_metrics + 1) * sizeof(*p));

		if (!p)
			return -ENOMEM;
		tf->metrics = p;
		m = &p[tf->nr_metrics];
		memset(m, 0, sizeof(*m));
		m->key = strdup(key);
		m->v = calloc(cap_runs, sizeof(double));
		if (!m->key || !m->v) {
			free(m->key);
			free(m->v);
			return -ENOMEM;
		}
		tf->nr_metrics++;
	}
	while (m->n < run && m->n < cap_runs && counts_zero_when_absent(tf, key))
		m->v[m->n++] = 0.0;
	if (m->n < cap_runs)
		m->v[m->n++] = v;
	return 0;
}

static int parse_repeats(struct tracefile *tf, struct json_object *iodig, struct errbuf *err)
{
	struct json_object *runs = tracefile_jget(tracefile_jget(iodig, "repeats"), "runs");
	size_t n;

	if (!runs || !json_object_is_type(runs, json_type_array) || !json_object_array_length(runs))
		return err_set(err, EINVAL, "%s: iodig.repeats.runs is missing or empty (truncated or hand-edited trace file?)",
			       tf->name);
	n = json_object_array_length(runs);
	for (size_t i = 0; i < n; i++) {
		struct json_object *figs = tracefile_jget(json_object_array_get_idx(runs, i), "figures");

		if (!figs || !json_object_is_type(figs, json_type_object))
			return err_set(err, EINVAL, "%s: iodig.repeats.runs[%zu] has no \"figures\" object",
				       tf->name, i);
		json_object_object_foreach(figs, key, val) {
			if (!is_num(val) || !isfinite(json_object_get_double(val)))
				return err_set(err, EINVAL, "%s: iodig.repeats.runs[%zu].figures.%.64s is not a finite number",
					       tf->name, i, key);
			if (metric_add(tf, key, json_object_get_double(val), i, n))
				return err_set(err, ENOMEM, "out of memory reading %s", tf->name);
		}
	}
	tf->nr_repeats = n;
	/* a function or kernel figure missing from a repeat did not show up
	 * in it (no switches there, below the sampling top list): count 0 */
	for (size_t i = 0; i < tf->nr_metrics; i++) {
		struct tf_metric *m = &tf->metrics[i];

		if (counts_zero_when_absent(tf, m->key))
			while (m->n < n)
				m->v[m->n++] = 0.0;
	}
	return 0;
}

int tracefile_parse_stacks(struct tracefile *tf, struct json_object *arr, const char *where,
			   struct stack_count **out, size_t *nr, struct errbuf *err)
{
	size_t n;

	if (!arr)
		return 0;
	if (!json_object_is_type(arr, json_type_array))
		return err_set(err, EINVAL, "%s: %s is not an array", tf->name, where);
	n = json_object_array_length(arr);
	*out = calloc(n ? n : 1, sizeof(**out));
	if (!*out)
		return err_set(err, ENOMEM, "out of memory reading %s", tf->name);
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(arr, i), *s, *c;

		if (!e || !json_object_is_type(e, json_type_array) || json_object_array_length(e) != 2 ||
		    !(s = json_object_array_get_idx(e, 0)) || !json_object_is_type(s, json_type_string) ||
		    !is_num(c = json_object_array_get_idx(e, 1)) || !(json_object_get_double(c) >= 0))
			return err_set(err, EINVAL, "%s: %s[%zu] is not a [\"a;b;c\", count] pair",
				       tf->name, where, i);
		(*out)[i].stack = strdup(json_object_get_string(s));
		if (!(*out)[i].stack)
			return err_set(err, ENOMEM, "out of memory reading %s", tf->name);
		(*out)[i].count = json_object_get_double(c);
		(*nr)++;
	}
	return 0;
}

static int parse_histograms(struct tracefile *tf, struct json_object *iodig, struct errbuf *err)
{
	struct json_object *arr = tracefile_jget(iodig, "histograms");

	tf->clat = calloc(1, sizeof(*tf->clat));
	if (!tf->clat)
		return err_set(err, ENOMEM, "out of memory reading %s", tf->name);
	if (!arr)
		return 0;
	if (!json_object_is_type(arr, json_type_array))
		return err_set(err, EINVAL, "%s: iodig.histograms is not an array", tf->name);
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *pairs = tracefile_jget(json_object_array_get_idx(arr, i), "clat_ns");

		if (!pairs || !json_object_is_type(pairs, json_type_array))
			return err_set(err, EINVAL, "%s: iodig.histograms[%zu].clat_ns is not an array",
				       tf->name, i);
		for (size_t k = 0; k < json_object_array_length(pairs); k++) {
			struct json_object *p = json_object_array_get_idx(pairs, k), *s, *c;
			int64_t slot, cnt;

			if (!p || !json_object_is_type(p, json_type_array) || json_object_array_length(p) != 2 ||
			    !json_object_is_type(s = json_object_array_get_idx(p, 0), json_type_int) ||
			    !json_object_is_type(c = json_object_array_get_idx(p, 1), json_type_int))
				return err_set(err, EINVAL, "%s: iodig.histograms[%zu].clat_ns[%zu] is not a [slot, count] pair",
					       tf->name, i, k);
			slot = json_object_get_int64(s);
			cnt = json_object_get_int64(c);
			if (slot < 0 || slot >= IODIG_HIST_SLOTS || cnt < 0)
				return err_set(err, EINVAL, "%s: iodig.histograms[%zu].clat_ns[%zu]: slot %lld or count %lld out of range",
					       tf->name, i, k, (long long)slot, (long long)cnt);
			tf->clat->slot[slot] += (uint64_t)cnt;
			tf->clat->total += (uint64_t)cnt;
		}
	}
	return 0;
}

int tracefile_from_doc(const char *name, struct json_object *doc,
		       struct tracefile **out, struct errbuf *err)
{
	struct tracefile *tf = calloc(1, sizeof(*tf));
	struct json_object *iodig, *st;
	int ret;

	*out = NULL;
	if (!tf)
		return err_set(err, ENOMEM, "out of memory reading %s", name);
	tf->root = json_object_get(doc);
	tf->name = strdup(name);
	if (!tf->name) {
		ret = err_set(err, ENOMEM, "out of memory reading %s", name);
		goto cleanup;
	}
	if (!doc || !json_object_is_type(doc, json_type_object)) {
		ret = err_set(err, EINVAL, "%s: not an iodig trace file (the top level is not a JSON object)", name);
		goto cleanup;
	}
	ret = parse_version(tf, err);
	if (ret)
		goto cleanup;
	iodig = tracefile_jget(doc, "iodig");
	if (!iodig || !json_object_is_type(iodig, json_type_object)) {
		ret = err_set(err, EINVAL, "%s: has no \"iodig\" object", name);
		goto cleanup;
	}
	tf->env = tracefile_jget(iodig, "environment");
	if (!tf->env || !json_object_is_type(tf->env, json_type_object)) {
		ret = err_set(err, EINVAL, "%s: iodig.environment is missing", name);
		goto cleanup;
	}
	if (!tracefile_jget(doc, "jobs") || !json_object_is_type(tracefile_jget(doc, "jobs"), json_type_array)) {
		ret = err_set(err, EINVAL, "%s: the fio \"jobs\" array is missing", name);
		goto cleanup;
	}
	ret = tracefile_parse_defs(tf, iodig, err);
	if (!ret)
		ret = parse_repeats(tf, iodig, err);
	if (!ret)
		ret = tracefile_parse_sampling(tf, iodig, err);
	if (!ret)
		ret = parse_histograms(tf, iodig, err);
	if (!ret)
		ret = tracefile_parse_series(tf, iodig, err);
	st = tracefile_jget(iodig, "stacks");
	if (!ret)
		ret = tracefile_parse_stacks(tf, tracefile_jget(st, "on_cpu_submission"), "iodig.stacks.on_cpu_submission",
				       &tf->oncpu, &tf->nr_oncpu, err);
	if (!ret)
		ret = tracefile_parse_stacks(tf, tracefile_jget(st, "off_cpu_switches"), "iodig.stacks.off_cpu_switches",
				       &tf->offcpu, &tf->nr_offcpu, err);
cleanup:
	if (ret) {
		tracefile_free(tf);
		return ret;
	}
	*out = tf;
	return 0;
}

int tracefile_parse_buffer(const char *name, const char *buf, size_t len,
			   struct tracefile **out, struct errbuf *err)
{
	struct json_tokener *tok;
	struct json_object *doc;
	enum json_tokener_error jerr;
	size_t end;
	int ret;

	*out = NULL;
	if (!len)
		return err_set(err, EINVAL, "%s: empty file, not an iodig trace file", name);
	if (len > MAX_TRACE_BYTES || len > INT_MAX)
		return err_set(err, EFBIG, "%s: %zu bytes is larger than any trace file iodig writes", name, len);
	if (memchr(buf, 0, len))
		return err_set(err, EINVAL, "%s: contains a NUL byte, not a JSON trace file", name);
	tok = json_tokener_new();
	if (!tok)
		return err_set(err, ENOMEM, "out of memory reading %s", name);
	doc = json_tokener_parse_ex(tok, buf, (int)len);
	jerr = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!doc && jerr == json_tokener_continue)
		return err_set(err, EINVAL, "%s: truncated: the JSON document ends early (after %zu bytes); the file was cut short",
			       name, len);
	if (!doc)
		return err_set(err, EINVAL, "%s: not valid JSON at byte %zu: %s", name, end,
			       json_tokener_error_desc(jerr));
	while (end < len && strchr(" \t\r\n", buf[end]))
		end++;
	if (end < len) {
		json_object_put(doc);
		return err_set(err, EINVAL, "%s: unexpected data after the JSON document at byte %zu", name, end);
	}
	ret = tracefile_from_doc(name, doc, out, err);
	json_object_put(doc);
	return ret;
}

int tracefile_load(const char *path, struct tracefile **out, struct errbuf *err)
{
	char *buf = NULL;
	size_t len = 0;
	int fd, ret;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, errno, "%s: cannot open: %s", path, strerror(errno));
	ret = read_whole(fd, MAX_TRACE_BYTES, &buf, &len);
	close(fd);
	if (ret == -EFBIG || ret == -ENOMEM)
		return err_set(err, EFBIG, "%s: too large for a trace file", path);
	if (ret)
		return err_set(err, -ret, "%s: read failed: %s", path, strerror(-ret));
	ret = tracefile_parse_buffer(path, buf, len, out, err);
	free(buf);
	return ret;
}

const char *tracefile_env_str(const struct tracefile *tf, const char *path,
			      char *buf, size_t size)
{
	struct json_object *o = tf->env;
	char part[128];
	const char *p = path;

	while (o && *p) {
		size_t n = strcspn(p, ".");

		snprintf(part, sizeof(part), "%.*s", (int)n, p);
		if (json_object_is_type(o, json_type_array) && n && strspn(part, "0123456789") == n)
			o = json_object_array_get_idx(o, strtoul(part, NULL, 10));
		else
			o = tracefile_jget(o, part);
		p += n;
		if (*p == '.')
			p++;
	}
	buf[0] = 0;
	if (o && !json_object_is_type(o, json_type_object) && !json_object_is_type(o, json_type_array))
		snprintf(buf, size, "%s", json_object_get_string(o));
	else if (o)
		snprintf(buf, size, "%s", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));
	return buf;
}

static void folded_lines(FILE *f, const char *root, const struct stack_count *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s;%s %.0f\n", root, s[i].stack, s[i].count);
}

int tracefile_write_folded(const struct tracefile *tf, const char *path, struct errbuf *err)
{
	FILE *f = fopen(path, "we");
	int ret = 0;

	if (!f)
		return err_set(err, errno, "option --folded: cannot create %s: %s", path, strerror(errno));
	folded_lines(f, "on-cpu", tf->oncpu, tf->nr_oncpu);
	folded_lines(f, "off-cpu", tf->offcpu, tf->nr_offcpu);
	if (fflush(f) || ferror(f))
		ret = err_set(err, EIO, "option --folded: writing %s failed", path);
	if (fclose(f) && !ret)
		ret = err_set(err, EIO, "option --folded: writing %s failed", path);
	return ret;
}
