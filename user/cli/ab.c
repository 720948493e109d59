// SPDX-License-Identifier: GPL-2.0
/*
 * iodig ab: two job files run alternately on this kernel in ABBA order
 * (run/ab.h), each side's trace file written, then iodig diff of A against
 * B.  An interrupted ab writes no trace file: an unfinished ABBA sequence
 * is not the fair comparison the files would claim.  Exit status: 0, 1
 * when a job or the run failed, 2 for a usage error, 128 + a signal; with
 * --fail-on, iodig diff's (1 only when B is worse, 2 on any error).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "analysis/diff.h"
#include "analysis/tracefile.h"
#include "cli/cli.h"
#include "run/ab.h"

#define EXIT_WORSE 1

static const char side_tag[AB_SIDES] = { 'A', 'B' };

/* The side's jobs: its job file, and the job options given beside both. */
static int load_side(struct run_ctx *ctx, const struct cli_args *a, enum ab_side s,
		     struct errbuf *err)
{
	struct cli_args one = {
		.words = &a->words[s], .nr_words = 1,
		.extra = a->extra, .nr_extra = a->nr_extra,
	};
	int ret = cli_load_jobs(ctx, &one, false, err);

	if (!ret && !ctx->jobs.count)
		ret = cli_no_jobs_error(&one, err);
	if (ret && !strstr(err->msg, a->words[s]))
		return err_set(err, -ret, "side %c (%s): %s", side_tag[s], a->words[s], err->msg);
	return ret;
}

/* "./iodig-runs/STEM-A-TIME.json": the job file's name without its folder
 * and extension, and the side, so the same job on both sides gets two. */
static int default_path(const char *jobfile, enum ab_side s, char *buf, size_t len,
			struct errbuf *err)
{
	const char *base = strrchr(jobfile, '/');
	char stem[128];

	snprintf(stem, sizeof(stem), "%s", base ? base + 1 : jobfile);
	if (strrchr(stem, '.') && strrchr(stem, '.') != stem)
		*strrchr(stem, '.') = 0;
	snprintf(stem + strlen(stem), sizeof(stem) - strlen(stem), "-%c", side_tag[s]);
	return tracefile_default_path(stem, buf, len, err);
}

/* Writes side @s's trace file to @path and loads it back for the diff. */
static int save_side(struct run_ctx *ctx, const struct repeat_result *res, const char *jobfile,
		     const char *given, enum ab_side s, char path[static 4096],
		     struct tracefile **tf, struct errbuf *err)
{
	struct json_object *doc = NULL;
	int ret = tracefile_build(res, ctx, &doc, err);

	path[0] = 0;
	if (!ret && given)
		snprintf(path, 4096, "%s", given);
	else if (!ret)
		ret = default_path(jobfile, s, path, 4096, err);
	if (!ret)
		ret = tracefile_write(doc, path, err);
	if (ret)
		path[0] = 0;
	else
		ret = tracefile_from_doc(path, doc, tf, err);
	json_object_put(doc);
	return ret;
}

/* Each failed job's error, named with its side; true when there was one. */
static bool print_job_errors(const struct repeat_result res[AB_SIDES])
{
	bool failed = false;

	for (int s = 0; s < AB_SIDES; s++) {
		for (size_t i = 0; i < res[s].rep.nr_jobs; i++) {
			/* errors continue_on_error went on from fail no run */
			if (!res[s].rep.jobs[i].error ||
			    report_job_went_on(&res[s].rep.jobs[i]))
				continue;
			fprintf(stderr, "iodig: side %c: job '%s': %s\n", side_tag[s],
				res[s].rep.jobs[i].job->name, res[s].rep.jobs[i].errmsg);
			failed = true;
		}
	}
	return failed;
}

/* Both trace files, then the diff of A against B; the exit status. */
static int save_and_diff(struct run_ctx *ctx[AB_SIDES], const struct repeat_result res[AB_SIDES],
			 const struct cli_opts *o, const struct cli_args *a, struct errbuf *err)
{
	const char *given[AB_SIDES] = { o->save_a, o->save_b };
	struct tracefile *tf[AB_SIDES] = { NULL, NULL };
	struct diff_outcome outcome = { 0 };
	char path[AB_SIDES][4096] = { "", "" };
	int ret = 0;

	for (int s = 0; s < AB_SIDES && !ret; s++)
		ret = save_side(ctx[s], &res[s], a->words[s], given[s], s, path[s], &tf[s], err);
	if (ret) {
		/* one side's file alone would pass for a finished ab */
		for (int s = 0; s < AB_SIDES; s++)
			if (path[s][0])
				unlink(path[s]);
		tracefile_free(tf[AB_A]);
		tracefile_free(tf[AB_B]);
		return -1;
	}
	ret = diff_loaded(tf, AB_SIDES, &o->diff, stdout, stderr, &outcome, err);
	if (ret)
		return -1;
	if (!o->diff.fail_on)
		return 0;
	fprintf(stderr, "iodig: --fail-on %s\n", outcome.why);
	return outcome.worse ? EXIT_WORSE : 0;
}

/* Runs both sides and reports; ctx[] are loaded. */
static int run_both(struct run_ctx *ctx[AB_SIDES], struct cli_opts *o, const struct cli_args *a,
		    struct errbuf *err)
{
	struct repeat_result res[AB_SIDES];
	int status, sig, ret;

	memset(res, 0, sizeof(res));
	ret = ab_prepare(ctx, err);
	if (ret) {
		status = EXIT_USAGE;
		goto fail;
	}
	/* with --fail-on, an error must not read as "B is worse" to git bisect */
	status = o->diff.fail_on ? EXIT_USAGE : 1;
	ret = ab_execute(ctx, &o->repeat, res, err);
	if (ret)
		goto fail;
	sig = ab_interrupted(ctx);
	if (sig) {
		fprintf(stderr, "iodig: interrupted by signal %d (runs done: A %u, B %u); "
			"no trace file written\n", sig, res[AB_A].done, res[AB_B].done);
		status = 128 + sig;
		goto cleanup;
	}
	if (print_job_errors(res)) {
		fprintf(stderr, "iodig: a job failed; no trace file written\n");
		goto cleanup;
	}
	ret = save_and_diff(ctx, res, o, a, err);
	if (ret >= 0) {
		status = ret;
		goto cleanup;
	}
fail:
	fprintf(stderr, "iodig: %s\n", err->msg);
cleanup:
	repeat_result_free(&res[AB_A]);
	repeat_result_free(&res[AB_B]);
	return status;
}

static int ab_parsed(struct run_ctx *ctx, struct cli_opts *o, const struct cli_args *a)
{
	struct errbuf err = { { 0 } };
	struct run_ctx b;
	struct run_ctx *side[AB_SIDES] = { ctx, &b };
	int ret, stale, status = EXIT_USAGE;

	if (o->help) {
		cli_usage(stdout, CMD_AB);
		return 0;
	}
	if (a->nr_words != 2) {
		fprintf(stderr, "iodig: ab: give two job files, A and B (iodig ab A.fio B.fio)\n");
		return EXIT_USAGE;
	}
	run_ctx_init(&b);
	/* --steady: both sides' steady-state figures, and the chart's mark */
	ctx->opts.steady = o->diff.steady;
	b.opts = ctx->opts;
	ret = load_side(ctx, a, AB_A, &err);
	if (!ret)
		ret = load_side(&b, a, AB_B, &err);
	if (ret) {
		fprintf(stderr, "iodig: %s\n", err.msg);
		goto cleanup;
	}
	stale = scratch_cleanup_stale(&err);
	if (stale > 0)
		fprintf(stderr, "iodig: removed %d scratch device(s) left by a killed iodig run\n", stale);
	status = run_both(side, o, a, &err);
cleanup:
	ab_release(side);
	run_ctx_cleanup(&b);
	return status;
}

int cmd_ab(int argc, char **argv)
{
	return cli_jobs_command(CMD_AB, argc, argv, ab_parsed);
}
