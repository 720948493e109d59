// SPDX-License-Identifier: GPL-2.0
/* iodig run: parse run and job options, run the jobs, report, save. */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "analysis/pictures.h"
#include "analysis/tracefile.h"
#include "cli/cli.h"
#include "iodig/block.h"
#include "iodig/sampling.h"
#include "iodig/tgid_filter.h"
#include "job/options.h"
#include "probes/probe.h"
#include "run/output.h"
#include "run/repeat.h"
#include "run/run.h"

/* iodig's own options; everything else that looks like --key[=value] is a
 * job option. */
enum { OPT_OUTPUT_FORMAT = 1000, OPT_OUTPUT, OPT_TARGET, OPT_ALLOW, OPT_PROBES,
       OPT_NO_PROBES, OPT_MECHANISM, OPT_PROGRESS, OPT_NO_PROGRESS,
       OPT_SCRATCH_SIZE, OPT_BPF_STATS, OPT_STACKS, OPT_SAVE, OPT_NO_SAVE,
       OPT_REPEAT, OPT_REPEAT_DELAY, OPT_SVG, OPT_FOLDED, OPT_DETAIL, OPT_SAMPLE_FREQ,
       OPT_BLOCK_SAMPLE, OPT_PROBE_TOGGLE,
       OPT_PROBE_TOGGLE_SETTLE, OPT_HELP };

static const struct option run_options[] = {
	{ "output-format", required_argument, NULL, OPT_OUTPUT_FORMAT },
	{ "output", required_argument, NULL, OPT_OUTPUT },
	{ "target", required_argument, NULL, OPT_TARGET },
	{ "allow-destructive", no_argument, NULL, OPT_ALLOW },
	{ "probes", required_argument, NULL, OPT_PROBES },
	{ "no-probes", no_argument, NULL, OPT_NO_PROBES },
	{ "detail", no_argument, NULL, OPT_DETAIL },
	{ "sample-freq", required_argument, NULL, OPT_SAMPLE_FREQ },
	{ "block-sample", required_argument, NULL, OPT_BLOCK_SAMPLE },
	{ "probe-toggle", required_argument, NULL, OPT_PROBE_TOGGLE },
	{ "probe-toggle-settle", required_argument, NULL, OPT_PROBE_TOGGLE_SETTLE },
	{ "mechanism", required_argument, NULL, OPT_MECHANISM },
	{ "progress", no_argument, NULL, OPT_PROGRESS },
	{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
	{ "scratch-size", required_argument, NULL, OPT_SCRATCH_SIZE },
	{ "bpf-stats", no_argument, NULL, OPT_BPF_STATS },
	{ "stacks", required_argument, NULL, OPT_STACKS },
	{ "save", required_argument, NULL, OPT_SAVE },
	{ "no-save", no_argument, NULL, OPT_NO_SAVE },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "repeat-delay", required_argument, NULL, OPT_REPEAT_DELAY },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "folded", required_argument, NULL, OPT_FOLDED },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

static const struct option *find_run_option(const char *arg)
{
	size_t len = strcspn(arg, "=");

	for (const struct option *o = run_options; o->name; o++)
		if (strlen(o->name) == len && !strncmp(o->name, arg, len))
			return o;
	return NULL;
}

static int parse_output_format(const char *s, unsigned int *out, struct errbuf *err)
{
	char buf[64], *save = NULL;
	unsigned int fmt = 0;

	snprintf(buf, sizeof(buf), "%s", s);
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "normal"))
			fmt |= OUTPUT_NORMAL;
		else if (!strcmp(tok, "json"))
			fmt |= OUTPUT_JSON;
		else
			return err_set(err, EINVAL, "option --output-format: '%s' is not one of normal, json, normal,json", tok);
	}
	if (!fmt)
		return err_set(err, EINVAL, "option --output-format: empty value");
	*out = fmt;
	return 0;
}

/* Options of the run's artifacts: trace file, repeats, pictures. */
struct run_extra {
	const char *save;
	bool no_save;
	struct repeat_opts repeat;
	const char *svg_dir;
	const char *folded;
};

/* Whether @val is a whole decimal number from @lo to @hi, into @out
 * (strtoul alone takes "-1" for ULONG_MAX and "" for 0). */
static bool parse_bounded(const char *val, unsigned long lo, unsigned long hi,
			  unsigned long *out)
{
	char *end;

	if (!*val || *val == '-')
		return false;
	*out = strtoul(val, &end, 10);
	return !*end && *out >= lo && *out <= hi;
}

static int apply_extra_option(struct run_extra *x, int id, const char *val,
			      struct errbuf *err)
{
	unsigned long n;

	switch (id) {
	case OPT_SAVE:
		x->save = val;
		return 0;
	case OPT_NO_SAVE:
		x->no_save = true;
		return 0;
	case OPT_REPEAT:
		if (!parse_bounded(val, 1, 1000, &n))
			return err_set(err, EINVAL, "option --repeat: '%s' is not a number from 1 to 1000", val);
		x->repeat.count = (unsigned int)n;
		return 0;
	case OPT_REPEAT_DELAY:
		if (parse_time_ns(val, 1000000000ull, &x->repeat.delay_ns))
			return err_set(err, EINVAL, "option --repeat-delay: '%s' is not a time (e.g. 5, 2s, 500ms)", val);
		return 0;
	case OPT_SVG:
		x->svg_dir = val;
		return 0;
	case OPT_FOLDED:
		x->folded = val;
		return 0;
	}
	return 1;
}

static int apply_run_option(struct run_ctx *ctx, struct run_extra *x, int id,
			    const char *val, struct errbuf *err)
{
	unsigned long n;
	int ret = apply_extra_option(x, id, val, err);

	if (ret <= 0)
		return ret;
	switch (id) {
	case OPT_OUTPUT_FORMAT:
		return parse_output_format(val, &ctx->opts.output_format, err);
	case OPT_OUTPUT:
		ctx->opts.output_path = val;
		return 0;
	case OPT_TARGET:
		ctx->opts.target = val;
		return 0;
	case OPT_ALLOW:
		ctx->opts.allow_destructive = true;
		return 0;
	case OPT_PROBES:
		ctx->opts.probes = val;
		return 0;
	case OPT_NO_PROBES:
		ctx->opts.no_probes = true;
		return 0;
	case OPT_DETAIL:
		ctx->opts.detail = true;
		return 0;
	case OPT_MECHANISM:
		ctx->opts.mechanism = val;
		return 0;
	case OPT_PROGRESS:
		ctx->opts.progress = 1;
		return 0;
	case OPT_NO_PROGRESS:
		ctx->opts.progress = 0;
		return 0;
	case OPT_BPF_STATS:
		ctx->opts.bpf_stats = true;
		return 0;
	case OPT_STACKS:
		if (!parse_bounded(val, 0, 1000, &n))
			return err_set(err, EINVAL, "option --stacks: '%s' is not a number from 0 to 1000", val);
		ctx->opts.stacks = (unsigned int)n;
		return 0;
	case OPT_SAMPLE_FREQ:
		if (!parse_bounded(val, 1, SAMPLING_MAX_FREQ_HZ, &n))
			return err_set(err, EINVAL, "option --sample-freq: '%s' is not a number "
				       "from 1 to %d", val, SAMPLING_MAX_FREQ_HZ);
		ctx->opts.sample_hz = (unsigned int)n;
		return 0;
	case OPT_BLOCK_SAMPLE:
		if (!parse_bounded(val, 1, BLOCK_STRIDE_MAX, &n) || (n & (n - 1)))
			return err_set(err, EINVAL, "option --block-sample: '%s' is not a power "
				       "of two from 1 to %d", val, BLOCK_STRIDE_MAX);
		ctx->opts.block_sample = (unsigned int)n;
		return 0;
	case OPT_PROBE_TOGGLE:
		if (!parse_bounded(val, 20, 60000, &n))
			return err_set(err, EINVAL, "option --probe-toggle: '%s' is not a number "
				       "of milliseconds from 20 to 60000", val);
		ctx->opts.probe_toggle_ms = (unsigned int)n;
		return 0;
	case OPT_PROBE_TOGGLE_SETTLE:
		if (!parse_bounded(val, 0, 60000, &n))
			return err_set(err, EINVAL, "option --probe-toggle-settle: '%s' is not a "
				       "number of milliseconds from 0 to 60000", val);
		ctx->opts.probe_toggle_settle_ms = (int)n;
		return 0;
	case OPT_SCRATCH_SIZE:
		if (parse_size(val, &ctx->opts.scratch_size) || ctx->opts.scratch_size < (1u << 20))
			return err_set(err, EINVAL, "option --scratch-size: '%s' is not a size of at least 1m", val);
		return 0;
	}
	return err_set(err, EINVAL, "internal: unknown run option %d", id);
}

struct run_args {
	char **files;
	size_t nr_files;
	char **job_args;     /* --key[=value] job options, in order */
	size_t nr_job_args;
	bool has_name;
	bool help;
};

static int split_args(struct run_ctx *ctx, struct run_extra *x, int argc, char **argv,
		      struct run_args *a, struct errbuf *err)
{
	a->files = calloc((size_t)argc + 1, sizeof(char *));
	a->job_args = calloc((size_t)argc + 1, sizeof(char *));
	if (!a->files || !a->job_args)
		return err_set(err, ENOMEM, "out of memory");
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];
		const struct option *o;
		char key[128];
		int ret;

		if (strncmp(arg, "--", 2) || !arg[2]) {
			a->files[a->nr_files++] = argv[i];
			continue;
		}
		o = find_run_option(arg + 2);
		if (o) {
			const char *val = strchr(arg, '=');

			if (o->val == OPT_HELP) {
				a->help = true;
				continue;
			}
			if (o->has_arg == required_argument) {
				if (val)
					val++;
				else if (i + 1 < argc)
					val = argv[++i];
				else
					return err_set(err, EINVAL, "option --%s needs a value", o->name);
			} else if (val) {
				return err_set(err, EINVAL, "option --%s takes no value", o->name);
			}
			ret = apply_run_option(ctx, x, o->val, val, err);
			if (ret)
				return ret;
			continue;
		}
		snprintf(key, sizeof(key), "%.*s", (int)strcspn(arg + 2, "="), arg + 2);
		if (!job_option_known(key))
			return err_set(err, EINVAL, "unknown option '--%s' (see iodig run --help)", key);
		if (!strcmp(key, "name"))
			a->has_name = true;
		a->job_args[a->nr_job_args++] = argv[i];
	}
	return 0;
}

/* Job options given next to job files apply to every job in them. */
static int apply_overrides(struct job_list *list, struct run_args *a,
			   struct errbuf *err)
{
	for (size_t i = 0; i < a->nr_job_args; i++) {
		const char *arg = a->job_args[i] + 2;
		const char *eq = strchr(arg, '=');
		char key[128];

		snprintf(key, sizeof(key), "%.*s", (int)strcspn(arg, "="), arg);
		for (size_t j = 0; j < list->count; j++) {
			int ret = job_option_set(&list->jobs[j], key, eq ? eq + 1 : NULL,
						 "command line", err);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static int load_jobs(struct run_ctx *ctx, struct run_args *a, struct errbuf *err)
{
	int ret;

	if (!a->nr_files && !a->nr_job_args)
		return err_set(err, EINVAL, "no job given: name a job file or use --name=NAME with fio options");
	for (size_t i = 0; i < a->nr_files; i++) {
		ret = jobfile_parse(a->files[i], &ctx->jobs, err);
		if (ret)
			return ret;
	}
	if (a->nr_files && !a->has_name)
		ret = apply_overrides(&ctx->jobs, a, err);
	else
		ret = cmdline_jobs_parse((int)a->nr_job_args, a->job_args, &ctx->jobs, err);
	if (ret)
		return ret;
	return job_list_finalize(&ctx->jobs, err);
}

/* Trace file, folded stacks and pictures of a finished run. */
static int save_artifacts(const struct run_ctx *ctx, const struct repeat_result *res,
			  const struct run_extra *x, struct errbuf *err)
{
	struct json_object *doc = NULL;
	struct tracefile *tf = NULL;
	char path[4096];
	int ret;

	if (x->no_save && !x->svg_dir && !x->folded)
		return 0;
	ret = tracefile_build(res, ctx, &doc, err);
	if (!ret && !x->no_save) {
		if (x->save)
			snprintf(path, sizeof(path), "%s", x->save);
		else
			ret = tracefile_default_path(ctx->jobs.count ? ctx->jobs.jobs[0].name : "run",
						     path, sizeof(path), err);
		if (!ret)
			ret = tracefile_write(doc, path, err);
		/* told on a terminal only, like the progress line: scripts
		 * expect a quiet stderr from a run that worked */
		if (!ret && isatty(STDERR_FILENO))
			fprintf(stderr, "iodig: trace file: %s\n", path);
	}
	if (!ret && (x->svg_dir || x->folded))
		ret = tracefile_from_doc(x->save ? x->save : "this run", doc, &tf, err);
	if (!ret && x->folded)
		ret = tracefile_write_folded(tf, x->folded, err);
	if (!ret && x->svg_dir)
		ret = pictures_write_run(tf, x->svg_dir, err);
	tracefile_free(tf);
	json_object_put(doc);
	return ret;
}

static void join_command(char *buf, size_t len, int argc, char **argv)
{
	size_t off = 0;

	buf[0] = 0;
	for (int i = 0; i < argc && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? " " : "", argv[i]);
}

int cmd_run(int argc, char **argv)
{
	struct run_ctx ctx;
	struct run_args a = { 0 };
	struct run_extra x = { .repeat = { .count = 1 } };
	struct repeat_result res = { 0 };
	struct errbuf err = { { 0 } };
	int status = EXIT_USAGE, ret, stale;

	run_ctx_init(&ctx);
	join_command(ctx.opts.command, sizeof(ctx.opts.command), argc + 1, argv - 1);
	ret = split_args(&ctx, &x, argc, argv, &a, &err);
	/* a bad --probes is a usage error, not a run without probes */
	if (!ret && ctx.opts.probes)
		ret = probes_check_spec(ctx.opts.probes, &err);
	if (!ret && ctx.opts.probe_toggle_settle_ms >= 0 && !ctx.opts.probe_toggle_ms)
		ret = err_set(&err, EINVAL, "option --probe-toggle-settle: only with "
			      "--probe-toggle");
	if (!ret && ctx.opts.probe_toggle_ms && ctx.opts.no_probes)
		ret = err_set(&err, EINVAL, "option --probe-toggle: there are no probes to "
			      "toggle with --no-probes");
	if (!ret && a.help) {
		usage(stdout);
		status = 0;
		goto cleanup;
	}
	if (!ret)
		ret = load_jobs(&ctx, &a, &err);
	if (ret)
		goto fail;
	status = 1;
	stale = scratch_cleanup_stale(&err);
	if (stale > 0)
		fprintf(stderr, "iodig: removed %d scratch device(s) left by a killed iodig run\n", stale);
	ret = run_prepare(&ctx, &err);
	if (ret) {
		status = EXIT_USAGE;
		goto fail;
	}
	ret = repeat_execute(&ctx, &x.repeat, &res, &err);
	if (ctx.untraced_workers)
		fprintf(stderr, "iodig: worker process %d and later ones are not traced: the probes follow at most %d processes (thread=1 puts all workers in one)\n",
			(int)ctx.first_untraced, IODIG_MAX_TGIDS);
	if (!ret && res.nothing_run) {
		fprintf(stderr, "iodig: interrupted by signal %d before the workload started; nothing was run\n",
			ctx.stop_signal);
		status = 128 + ctx.stop_signal;
		goto cleanup;
	}
	if (!ret)
		ret = output_report(&res, &ctx.opts, &err);
	if (!ret)
		ret = save_artifacts(&ctx, &res, &x, &err);
	if (ret)
		goto fail;
	status = 0;
	for (size_t i = 0; i < res.rep.nr_jobs; i++) {
		if (res.rep.jobs[i].error) {
			fprintf(stderr, "iodig: job '%s': %s\n", res.rep.jobs[i].job->name,
				res.rep.jobs[i].errmsg);
			status = 1;
		}
	}
	if (ctx.stop_signal) {
		fprintf(stderr, "iodig: interrupted by signal %d; the report covers the I/O done until then\n",
			ctx.stop_signal);
		status = 128 + ctx.stop_signal;
	} else if (run_signal_pending(&ctx)) {
		/* Signals stay blocked while the report is written; say so. */
		fprintf(stderr, "iodig: signal %d arrived while the report was written; the report is complete\n",
			ctx.stop_signal);
		status = 128 + ctx.stop_signal;
	}
	goto cleanup;
fail:
	fprintf(stderr, "iodig: %s\n", err.msg);
cleanup:
	repeat_result_free(&res);
	run_ctx_cleanup(&ctx);
	free(a.files);
	free(a.job_args);
	return status;
}
