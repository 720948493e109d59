// SPDX-License-Identifier: GPL-2.0
/*
 * The run flow behind `iodig run`, once or --repeat=N times: probes are
 * loaded fresh for every repeat and every job group in it (their maps
 * count from zero), the workers are rebuilt, and each repeat's figures
 * are kept.  Only the last repeat's full report is printed; the others
 * survive as figures.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include <json-c/json.h>

#include "probes/figures.h"
#include "run/group_probes.h"
#include "run/io_sched_jobs.h"
#include "run/repeat.h"
#include "base/ttest.h"

/* run_begin maps fresh worker stats each time; release the last ones. */
static void reset_workers(struct run_ctx *ctx)
{
	free(ctx->workers);
	ctx->workers = NULL;
	if (ctx->shared)
		munmap(ctx->shared, ctx->shared_len);
	ctx->shared = NULL;
	ctx->nr_workers = 0;
}

/* Sleeps --repeat-delay, waking early for SIGINT/SIGTERM. */
static void repeat_pause(struct run_ctx *ctx, uint64_t ns)
{
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };
	int sig;

	if (!ns)
		return;
	sig = sigtimedwait(&ctx->signals, NULL, &ts);
	if (sig > 0)
		ctx->stop_signal = sig;
}

/* The job groups in order, each with its own probes, opened while its
 * workers wait to start (run_group_execute). */
static int run_groups(struct run_ctx *ctx, struct errbuf *err)
{
	struct run_group g = { 0 };
	int ret = run_begin(ctx, err);

	ctx->groups_let_go = 0;
	while (!ret && run_group_next(ctx, &g)) {
		if (!run_signal_pending(ctx))
			ret = run_group_execute(ctx, &g, err);
		if (!ret)
			ret = group_probes_collect(ctx, &g, err);
		if (run_signal_pending(ctx))
			break;
	}
	if (!ret)
		run_end(ctx, err);
	/* whatever ended the run: the next repeat switches again */
	io_sched_jobs_restore(ctx);
	cgroup_jobs_remove(ctx);
	return ret;
}

static uint64_t wall_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The report tree's iodig.kernel; NULL when it has none. */
static struct json_object *kernel_section(struct json_object *tree)
{
	struct json_object *iodig = NULL, *kernel = NULL;

	if (json_object_object_get_ex(tree, "iodig", &iodig))
		json_object_object_get_ex(iodig, "kernel", &kernel);
	return kernel;
}

static int one_repeat(struct run_ctx *ctx, struct repeat_result *res, struct errbuf *err)
{
	int ret;

	/* this repeat's kernel sections replace the last one's */
	res->rep.kernels = NULL;
	res->rep.nr_kernels = 0;
	group_probes_free(ctx);
	res->started_ns[res->done] = wall_clock_ns();
	ret = run_groups(ctx, err);
	if (ret)
		return ret;
	/* stopped before any worker was let go: as if never begun */
	if (!ctx->groups_let_go && ctx->stop_signal) {
		res->nothing_run = res->done == 0;
		return 0;
	}
	report_free(&res->rep);
	ret = run_build_report(ctx, &res->rep, err);
	if (ret)
		return ret;
	json_object_put(res->tree);
	ret = report_json_tree(&res->rep, &res->tree);
	if (!ret)
		ret = report_run_figures(&res->rep, &res->figures[res->done]);
	if (!ret)
		res->kernels[res->done] = json_object_get(kernel_section(res->tree));
	/* the collector starts afresh next repeat: keep this one's series */
	if (!ret)
		ret = series_set_copy(&res->series[res->done], &ctx->series.set, res->done);
	if (ret)
		return err_set(err, -ret, "building the figures of repeat %u failed: %s",
			       res->done + 1, strerror(-ret));
	res->done++;
	return 0;
}

int repeat_begin(const struct repeat_opts *o, struct repeat_result *res, struct errbuf *err)
{
	unsigned int n = o->count ? o->count : 1;

	memset(res, 0, sizeof(*res));
	res->asked = n;
	res->delay_ns = o->delay_ns;
	res->auto_pct = o->auto_pct;
	res->figures = calloc(n, sizeof(*res->figures));
	res->started_ns = calloc(n, sizeof(*res->started_ns));
	res->series = calloc(n, sizeof(*res->series));
	res->kernels = calloc(n, sizeof(*res->kernels));
	if (!res->figures || !res->started_ns || !res->series || !res->kernels)
		return err_set(err, ENOMEM, "out of memory for %u repeats", n);
	return 0;
}

int repeat_once(struct run_ctx *ctx, struct repeat_result *res, struct errbuf *err)
{
	if (res->done >= res->asked)
		return err_set(err, EINVAL, "all %u repeats have run", res->asked);
	if (res->done) {
		repeat_pause(ctx, res->delay_ns);
		/* interrupted between repeats: keep the last one's report */
		if (ctx->stop_signal)
			return 0;
		reset_workers(ctx);
	}
	if (run_signal_pending(ctx)) {
		res->nothing_run = res->done == 0;
		return 0;
	}
	return one_repeat(ctx, res, err);
}

int repeat_execute(struct run_ctx *ctx, const struct repeat_opts *o,
		   struct repeat_result *res, struct errbuf *err)
{
	int ret = repeat_begin(o, res, err);

	while (!ret && res->done < res->asked) {
		ret = repeat_once(ctx, res, err);
		if (ret || ctx->stop_signal || repeat_auto_enough(res, res->done == res->asked))
			break;
	}
	return ret;
}

void repeat_result_free(struct repeat_result *res)
{
	if (!res)
		return;
	report_free(&res->rep);
	json_object_put(res->tree);
	for (unsigned int i = 0; res->figures && i < res->asked; i++)
		figure_set_free(&res->figures[i]);
	for (unsigned int i = 0; res->series && i < res->asked; i++)
		series_set_free(&res->series[i]);
	for (unsigned int i = 0; res->kernels && i < res->asked; i++)
		json_object_put(res->kernels[i]);
	free(res->kernels);
	free(res->figures);
	free(res->series);
	free(res->started_ns);
	memset(res, 0, sizeof(*res));
}

/* ---- summary ---- */

/* Values of @key over the repeats that have it. */
static size_t values_of(const struct repeat_result *res, const char *key, double *v)
{
	size_t n = 0;

	for (unsigned int i = 0; i < res->done; i++) {
		const struct figure *f = figure_find(&res->figures[i], key);

		if (f)
			v[n++] = f->value;
	}
	return n;
}

/* {key: value} in the set's order. */
static struct json_object *figures_json(const struct figure_set *s)
{
	struct json_object *o = json_object_new_object();

	for (size_t i = 0; o && i < s->n; i++)
		json_object_object_add(o, s->v[i].key, json_object_new_double(s->v[i].value));
	return o;
}

struct json_object *repeat_json(const struct repeat_result *res)
{
	struct json_object *o = json_object_new_object(), *runs, *sum;
	double *v = calloc(res->done ? res->done : 1, sizeof(double));

	if (!o || !v) {
		free(v);
		json_object_put(o);
		return NULL;
	}
	json_object_object_add(o, "count", json_object_new_int((int)res->done));
	json_object_object_add(o, "asked", json_object_new_int((int)res->asked));
	json_object_object_add(o, "delay_s", json_object_new_double((double)res->delay_ns / 1e9));
	if (res->auto_pct > 0.0) {
		json_object_object_add(o, "auto_target_pct", json_object_new_double(res->auto_pct));
		json_object_object_add(o, "auto_stopped", json_object_new_string(res->auto_note));
	}
	runs = json_object_new_array();
	for (unsigned int i = 0; i < res->done; i++) {
		struct json_object *r = json_object_new_object();

		json_object_object_add(r, "start_unix_ns", json_object_new_int64((int64_t)res->started_ns[i]));
		json_object_object_add(r, "figures", figures_json(&res->figures[i]));
		json_object_object_add(r, "series", report_series_json(&res->series[i]));
		json_object_array_add(runs, r);
	}
	json_object_object_add(o, "runs", runs);
	sum = json_object_new_object();
	for (size_t k = 0; res->done && k < res->figures[res->done - 1].n; k++) {
		const char *key = res->figures[res->done - 1].v[k].key;
		struct sample_summary s;
		struct json_object *e = json_object_new_object();
		size_t n = values_of(res, key, v);

		sample_summarize(v, n, &s);
		json_object_object_add(e, "n", json_object_new_int((int)s.n));
		json_object_object_add(e, "mean", json_object_new_double(s.mean));
		json_object_object_add(e, "stdev", json_object_new_double(s.stdev));
		json_object_object_add(e, "ci95_low", json_object_new_double(s.mean - s.ci95_half));
		json_object_object_add(e, "ci95_high", json_object_new_double(s.mean + s.ci95_half));
		json_object_object_add(sum, key, e);
	}
	json_object_object_add(o, "summary", sum);
	free(v);
	return o;
}

int repeat_render_json(const struct repeat_result *res, FILE *out)
{
	return repeat_render_json_tree(res, res->tree, out);
}

int repeat_render_json_tree(const struct repeat_result *res, struct json_object *tree,
			    FILE *out)
{
	struct json_object *doc = NULL, *iodig = NULL;
	int ret = 0;

	if (!tree)
		return -EINVAL;
	if (res->done < 2)
		return report_json_print(tree, out);
	/* new root and "iodig" sharing the report's members */
	doc = json_object_new_object();
	iodig = json_object_new_object();
	if (!doc || !iodig) {
		json_object_put(iodig);
		ret = -ENOMEM;
		goto cleanup;
	}
	json_object_object_foreach(tree, key, val) {
		if (strcmp(key, "iodig")) {
			json_object_object_add(doc, key, json_object_get(val));
			continue;
		}
		json_object_object_foreach(val, ikey, ival)
			json_object_object_add(iodig, ikey, json_object_get(ival));
	}
	json_object_object_add(iodig, "repeats", repeat_json(res));
	json_object_object_add(doc, "iodig", iodig);
	ret = report_json_print(doc, out);
cleanup:
	json_object_put(doc);
	return ret;
}

/* The summary's rows: every labelled figure that is no function row, in
 * the order the repeats put them (first seen first). */
static bool summary_row(const struct repeat_result *res, unsigned int run, size_t k)
{
	const struct figure *f = &res->figures[run].v[k];

	if (!f->def->label || f->def->kind == FIGURE_FUNCTION)
		return false;
	for (unsigned int i = 0; i < run; i++)
		if (figure_find(&res->figures[i], f->key))
			return false;
	return true;
}

/* With several job groups, each group's figures follow a heading. */
static void group_heading(const char *key, int *last, FILE *out)
{
	int group;

	figure_base_key(key, &group);
	if (group >= 0 && group != *last)
		fprintf(out, "  group %d:\n", group);
	*last = group;
}

void repeat_render_text(const struct repeat_result *res, FILE *out)
{
	int group = -1;
	double *v;

	if (res->done < 2)
		return;
	v = calloc(res->done, sizeof(double));
	if (!v)
		return;
	fprintf(out, "\nRepeats: %u of %u (figures of the last one above); mean, stdev, 95%% CI (Student t, %u df):\n",
		res->done, res->asked, res->done - 1);
	if (res->auto_note[0])
		fprintf(out, "  %s\n", res->auto_note);
	for (unsigned int i = 0; i < res->done; i++) {
		for (size_t k = 0; k < res->figures[i].n; k++) {
			const struct figure *f = &res->figures[i].v[k];
			struct sample_summary s;
			size_t n;

			if (!summary_row(res, i, k))
				continue;
			n = values_of(res, f->key, v);
			if (n < 2)
				continue;
			group_heading(f->key, &group, out);
			sample_summarize(v, n, &s);
			fprintf(out, "  %-36s %14.4g  stdev %10.3g (%5.1f%%)  CI [%.4g, %.4g] %s\n",
				f->def->label, s.mean, s.stdev,
				s.mean ? 100.0 * s.stdev / fabs(s.mean) : 0.0,
				s.mean - s.ci95_half, s.mean + s.ci95_half, f->def->unit);
		}
	}
	free(v);
}
