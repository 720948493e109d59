// SPDX-License-Identifier: GPL-2.0
/* iodig run: parse run and job options, run the jobs, report, save. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <json-c/json.h>

#include "analysis/diff.h"
#include "analysis/pictures.h"
#include "analysis/tracefile.h"
#include "cli/cli.h"
#include "iodig/tgid_filter.h"
#include "job/given_opts.h"
#include "job/options.h"
#include "run/ab.h"
#include "run/output.h"
#include "run/repeat.h"
#include "run/run.h"

/* Job options given next to job files apply to every job in them. */
static int apply_overrides(struct job_list *list, const struct cli_args *a,
			   struct errbuf *err)
{
	for (size_t i = 0; i < a->nr_extra; i++) {
		const char *arg = a->extra[i] + 2;
		const char *eq = strchr(arg, '=');
		char key[128];

		snprintf(key, sizeof(key), "%.*s", (int)strcspn(arg, "="), arg);
		for (size_t j = 0; j < list->count; j++) {
			int ret = job_option_set_cli(&list->jobs[j], key, eq ? eq + 1 : NULL,
						 "command line", err);
			if (ret)
				return ret;
			job_given_add(&list->jobs[j], job_option_name(key), eq ? eq + 1 : NULL);
		}
	}
	return 0;
}

/* Whether a job option is --name: then the command line holds jobs of its
 * own, not changes to the files' jobs. */
static bool names_a_job(const struct cli_args *a)
{
	for (size_t i = 0; i < a->nr_extra; i++)
		if (!strncmp(a->extra[i], "--name", 6) &&
		    (a->extra[i][6] == '=' || !a->extra[i][6]))
			return true;
	return false;
}

int cli_load_jobs(struct run_ctx *ctx, const struct cli_args *a, bool parse_only,
		  struct errbuf *err)
{
	int ret = 0;

	for (size_t i = 0; i < a->nr_words; i++) {
		ret = jobfile_parse(a->words[i], &ctx->jobs, err);
		if (ret)
			return ret;
	}
	if (a->nr_words && !names_a_job(a))
		ret = apply_overrides(&ctx->jobs, a, err);
	else if (a->nr_extra)
		ret = cmdline_jobs_parse((int)a->nr_extra, a->extra, &ctx->jobs, err);
	/* files of [global] only, or --section, may leave no job: the
	 * caller says what that means */
	if (ret || !ctx->jobs.count)
		return ret;
	ret = job_list_finalize(&ctx->jobs, err);
	if (!ret && !parse_only)
		ret = job_list_check_host(&ctx->jobs, err);
	return ret;
}

/* --baseline: the diff of @base (A) against this run (B), after the
 * report; takes both. */
static int diff_baseline(struct tracefile *base, struct tracefile *run, const struct cli_opts *x,
			 struct errbuf *err)
{
	struct tracefile *tf[2] = { base, run };
	int ret;

	fputc('\n', stdout);
	ret = diff_loaded(tf, 2, &x->diff, stdout, stderr, NULL, err);
	tracefile_free(tf[0]);
	tracefile_free(tf[1]);
	return ret;
}

/* Trace file, folded stacks and pictures of a finished run, and the diff
 * against @base (taken). */
static int save_artifacts(const struct run_ctx *ctx, const struct repeat_result *res,
			  const struct cli_opts *x, struct tracefile *base, struct errbuf *err)
{
	struct json_object *doc = NULL;
	struct tracefile *tf = NULL;
	char path[4096];
	int ret;

	if (x->no_save && !x->svg_dir && !x->folded && !base)
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
	if (!ret && (x->svg_dir || x->folded || base))
		ret = tracefile_from_doc(x->save ? x->save : "this run", doc, &tf, err);
	if (!ret && x->folded)
		ret = tracefile_write_folded(tf, x->folded, err);
	if (!ret && x->svg_dir)
		ret = pictures_write_run(tf, x->svg_dir, x->run.steady, err);
	if (!ret && base) {
		ret = diff_baseline(base, tf, x, err);
		base = tf = NULL;
	}
	tracefile_free(base);
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

/* Checks of run options that depend on each other. */
static int check_run_opts(const struct run_opts *r, struct errbuf *err)
{
	if (r->probe_toggle_settle_ms >= 0 && !r->probe_toggle_ms)
		return err_set(err, EINVAL, "option --probe-toggle-settle: only with "
			       "--probe-toggle");
	if (r->probe_toggle_ms && r->no_probes)
		return err_set(err, EINVAL, "option --probe-toggle: there are no probes to "
			       "toggle with --no-probes");
	return 0;
}

/* fio skips the I/O of a job whose exec_prerun fails and says nothing;
 * iodig says why the job did none. */
static void prerun_note(const struct report_job *j)
{
	int st = j->st.prerun_status;

	if (!st)
		return;
	if (st < 0)
		fprintf(stderr, "iodig: job '%s': exec_prerun could not start /bin/sh (%s); as in "
			"fio, the job did no I/O\n", j->job->name, strerror(-st));
	else if (WIFEXITED(st))
		fprintf(stderr, "iodig: job '%s': exec_prerun exited with status %d; as in fio, "
			"the job did no I/O\n", j->job->name, WEXITSTATUS(st));
	else
		fprintf(stderr, "iodig: job '%s': exec_prerun was killed by signal %d; as in fio, "
			"the job did no I/O\n", j->job->name, WTERMSIG(st));
}

/* fio 3.33 prints "fopen log: <error>" for a log file it cannot create
 * and the job goes on; iodig names the file. */
static void unwritten_logs_note(const struct report_job *j)
{
	const struct worker_stats *s = &j->st;

	if (!s->logs_unwritten)
		return;
	fprintf(stderr, "iodig: job '%s': cannot create the log file %s (%s)%s; as in "
		"fio, the job went on without %s\n", j->job->name, s->log_unwritten,
		strerror(-s->log_error), s->logs_unwritten > 1 ? " and others" : "",
		s->logs_unwritten > 1 ? "them" : "it");
}

static void went_on_note(const struct report_job *j)
{
	const struct worker_stats *s = &j->st;

	fprintf(stderr, "iodig: job '%s': went on from %llu error(s) "
		"(continue_on_error), the first: %s; as in fio, the run does "
		"not fail\n", j->job->name, (unsigned long long)stats_io_errors(s),
		j->errmsg[0] ? j->errmsg : strerror(-s->first_io_error));
}

/* @n clones of job @name that fio's setup_files failed, for @why (fio's
 * message @fio). */
static void clones_failed_note(const char *name, unsigned int n, const char *why,
			       const char *fio)
{
	if (n)
		fprintf(stderr, "iodig: job '%s': %u clone%s start%s %s %s file%s "
			"(fio 3.33: '%s'); as in fio, %s no I/O and the run fails\n",
			name, n, n > 1 ? "s" : "", n > 1 ? "" : "s", why,
			n > 1 ? "their" : "its", n > 1 ? "s" : "", fio,
			n > 1 ? "they did" : "it did");
}

/* fio 3.33 says "blocksize is larger than data set range" of a clone
 * whose start leaves its file less than a block, and "you need to
 * specify valid offset=" of one whose start is past the size it gives
 * its file; it counts each as failed in its exit status though its
 * report shows no error. */
static void setup_failures_note(const struct report_job *j)
{
	unsigned int bad = j->st.bad_offsets;

	clones_failed_note(j->job->name, j->st.setup_failures - bad,
			   "with less than a block left of", "blocksize is larger than data set range");
	clones_failed_note(j->job->name, bad, "past the size filesize= gives, or the end of,",
			   "you need to specify valid offset=");
}

/* Exit status of a run that was reported: as fio's, the number of jobs that
 * failed (fio counts each reaped job with an error, and each clone whose
 * setup failed; the shell keeps its low 8 bits), 128 + the signal that
 * stopped it, else 0. */
static int finished_status(struct run_ctx *ctx, const struct repeat_result *res)
{
	int status = 0;

	for (size_t i = 0; i < res->rep.nr_jobs; i++) {
		prerun_note(&res->rep.jobs[i]);
		unwritten_logs_note(&res->rep.jobs[i]);
		setup_failures_note(&res->rep.jobs[i]);
		status += (int)res->rep.jobs[i].st.setup_failures;
		if (report_job_went_on(&res->rep.jobs[i])) {
			went_on_note(&res->rep.jobs[i]);
		} else if (res->rep.jobs[i].error) {
			fprintf(stderr, "iodig: job '%s': %s\n", res->rep.jobs[i].job->name,
				res->rep.jobs[i].errmsg);
			status++;
		}
	}
	if (ctx->stop_signal) {
		fprintf(stderr, "iodig: interrupted by signal %d; the report covers the I/O done until then\n",
			ctx->stop_signal);
		status = 128 + ctx->stop_signal;
	} else if (run_signal_pending(ctx)) {
		/* Signals stay blocked while the report is written; say so. */
		fprintf(stderr, "iodig: signal %d arrived while the report was written; the report is complete\n",
			ctx->stop_signal);
		status = 128 + ctx->stop_signal;
	}
	return status;
}

/* fio's --readonly: no job may write. */
static int check_readonly(const struct job_list *jobs, struct errbuf *err)
{
	for (size_t i = 0; i < jobs->count; i++)
		if (rw_modifies(jobs->jobs[i].rw))
			return err_set(err, EROFS, "job '%s' (%s:%d) writes (rw=%s) and "
				       "--readonly allows no writes", jobs->jobs[i].name,
				       jobs->jobs[i].source, jobs->jobs[i].source_line,
				       rw_mode_name(jobs->jobs[i].rw));
	return 0;
}

int cli_run_loaded(struct run_ctx *ctx, struct cli_opts *o)
{
	struct repeat_result res = { 0 };
	struct errbuf err = { { 0 } };
	struct tracefile *base = NULL;
	int status = o->usage_status, ret = 0, stale;

	if (o->fio.readonly)
		ret = check_readonly(&ctx->jobs, &err);
	/* a baseline that cannot be read fails before the run, not after */
	if (!ret && o->baseline && !o->parse_only)
		ret = tracefile_load(o->baseline, &base, &err);
	if (ret)
		goto fail;
	if (o->parse_only) {
		status = 0;
		goto cleanup;
	}
	status = 1;
	stale = scratch_cleanup_stale(&err);
	if (stale > 0)
		fprintf(stderr, "iodig: removed %d scratch device(s) left by a killed iodig run\n", stale);
	ret = run_prepare(ctx, &err);
	phase_mark(ctx->phases, "targets", "prepared");
	if (ret) {
		status = o->usage_status;
		goto fail;
	}
	ret = repeat_execute(ctx, &o->repeat, &res, &err);
	if (ctx->untraced_workers)
		fprintf(stderr, "iodig: worker process %d and later ones are not traced: the probes follow at most %d processes (thread=1 puts all workers in one)\n",
			(int)ctx->first_untraced, IODIG_MAX_TGIDS);
	if (!ret && res.nothing_run) {
		fprintf(stderr, "iodig: interrupted by signal %d before the workload started; nothing was run\n",
			ctx->stop_signal);
		status = 128 + ctx->stop_signal;
		goto cleanup;
	}
	if (!ret)
		ret = output_report(&res, &ctx->opts, &err);
	phase_mark(ctx->phases, "report", "written");
	if (!ret) {
		ret = save_artifacts(ctx, &res, o, base, &err);
		base = NULL;
	}
	phase_mark(ctx->phases, "trace file", "saved");
	if (ret)
		goto fail;
	status = finished_status(ctx, &res);
	goto cleanup;
fail:
	fprintf(stderr, "iodig: %s\n", err.msg);
cleanup:
	tracefile_free(base);
	repeat_result_free(&res);
	return status;
}

int cli_no_jobs_error(const struct cli_args *a, struct errbuf *err)
{
	if (!a->nr_words && !a->nr_extra)
		return err_set(err, EINVAL, "no job given: name a job file or use --name=NAME with fio options");
	if (!a->nr_words)
		return err_set(err, EINVAL, "command line: no job defined (start one with --name=NAME)");
	if (a->nr_words == 1)
		return err_set(err, EINVAL, "%s: no jobs defined (a job is a [section] other than "
			       "[global])", a->words[0]);
	return err_set(err, EINVAL, "no jobs defined in %zu job files (a job is a [section] "
		       "other than [global])", a->nr_words);
}

int cli_run_parsed(struct run_ctx *ctx, struct cli_opts *o, const struct cli_args *a)
{
	struct errbuf err = { { 0 } };
	int ret = cli_load_jobs(ctx, a, o->parse_only, &err);

	/* fio's --parse-only passes a file of [global] only; iodig run
	 * still wants something named */
	if (!ret && !ctx->jobs.count && (!o->parse_only || (!a->nr_words && !a->nr_extra)))
		ret = cli_no_jobs_error(a, &err);
	if (ret) {
		fprintf(stderr, "iodig: %s\n", err.msg);
		return o->usage_status;
	}
	return cli_run_loaded(ctx, o);
}

int cli_jobs_command(enum cli_cmd cmd, int argc, char **argv, cli_jobs_fn act)
{
	struct run_ctx ctx;
	struct cli_opts o;
	struct cli_args a = { 0 };
	struct errbuf err = { { 0 } };
	struct phase_log phases;
	int status = EXIT_USAGE;

	run_ctx_init(&ctx);
	/* IODIG_TIMING=1: when each phase ended, on stderr (make bench) */
	ctx.phases = phase_log_from_env(&phases);
	cli_opts_init(&o, &ctx.opts);
	/* fio's command line fails as fio does, with 1 for every error */
	o.usage_status = cmd == CMD_FIO ? FIO_EXIT_FAIL : EXIT_USAGE;
	if (cmd == CMD_AB)
		o.repeat.count = AB_DEFAULT_RUNS;
	if (cli_parse(cmd, argc, argv, &o, job_option_known, &a, &err)) {
		fprintf(stderr, "iodig: %s\n", err.msg);
		status = o.usage_status;
	} else {
		ctx.opts = o.run;
		/* argv[-1] is the subcommand, or "fio" through a link */
		join_command(ctx.opts.command, sizeof(ctx.opts.command), argc + 1, argv - 1);
		status = act(&ctx, &o, &a);
	}
	run_ctx_cleanup(&ctx);
	cli_args_free(&a);
	phase_mark(ctx.phases, "cleanup", "done");
	phase_log_print(ctx.phases, stderr);
	return status;
}

static int run_parsed(struct run_ctx *ctx, struct cli_opts *o, const struct cli_args *a)
{
	struct errbuf err = { { 0 } };

	if (check_run_opts(&ctx->opts, &err)) {
		fprintf(stderr, "iodig: %s\n", err.msg);
		return EXIT_USAGE;
	}
	if (o->help) {
		cli_usage(stdout, CMD_RUN);
		return 0;
	}
	return cli_run_parsed(ctx, o, a);
}

int cmd_run(int argc, char **argv)
{
	return cli_jobs_command(CMD_RUN, argc, argv, run_parsed);
}
