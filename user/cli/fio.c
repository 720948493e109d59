// SPDX-License-Identifier: GPL-2.0
/*
 * iodig fio: fio's own command line, so that a script or benchmark harness
 * that calls fio gets iodig's report (fio's, with the iodig section) without
 * a change.  The options come from the one table (table.c, CMD_FIO); the
 * jobs run through iodig run's path.  Differences from run, as fio has them:
 * exit status 1 for every error, no trace file unless --save asks, a run
 * without a job (a bare "fio", files of [global] only) prints the usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "job/options.h"
#include "run/run.h"

/* --showcmd's listener: fio's "fio --key=value --name=job ..." line, the
 * options of [global] before the first --name.  fio lists a section's
 * options in the order it applies them: by option priority, then as
 * written; only these four options have one other than 0. */
static const struct { const char *key; int prio; } option_prio[] = {
	{ "kb_base", 1 }, { "unit_base", 1 }, { "filename", -1 }, { "filename_format", -1 },
};

#define SHOWCMD_MAX_OPTS 512

struct showcmd {
	FILE *out;
	bool started;
	char *opts[SHOWCMD_MAX_OPTS];  /* "--key=value" of the current section */
	int prio[SHOWCMD_MAX_OPTS];
	size_t nr_opts;
};

static int showcmd_prio(const char *key)
{
	for (size_t i = 0; i < sizeof(option_prio) / sizeof(*option_prio); i++)
		if (!strcmp(option_prio[i].key, key))
			return option_prio[i].prio;
	return 0;
}

/* Prints the current section's options, highest priority first. */
static void showcmd_flush(struct showcmd *sc)
{
	for (int prio = 1; prio >= -1; prio--)
		for (size_t i = 0; i < sc->nr_opts; i++)
			if (sc->prio[i] == prio)
				fprintf(sc->out, "%s ", sc->opts[i]);
	for (size_t i = 0; i < sc->nr_opts; i++)
		free(sc->opts[i]);
	sc->nr_opts = 0;
}

static void showcmd_echo(void *arg, const char *section, const char *key, const char *value)
{
	struct showcmd *sc = arg;

	if (!sc->started)
		fputs("fio ", sc->out);
	sc->started = true;
	if (!key) {
		showcmd_flush(sc);
		if (strcmp(section, "global"))
			fprintf(sc->out, "--name=%s ", section);
		return;
	}
	if (sc->nr_opts == SHOWCMD_MAX_OPTS ||
	    asprintf(&sc->opts[sc->nr_opts], value ? "--%s=%s" : "--%s", key, value) < 0)
		return;  /* the parse that follows reports a section this large */
	sc->prio[sc->nr_opts++] = showcmd_prio(key);
}

/* Each job file as one command line, as fio --showcmd prints it. */
static int show_commands(const struct cli_opts *o, const struct cli_args *a)
{
	struct showcmd sc = { .out = stdout };
	struct jobfile_select sel = o->fio.select;
	struct errbuf err = { { 0 } };
	int status = 0;

	sel.echo = showcmd_echo;
	sel.echo_arg = &sc;
	for (size_t i = 0; i < a->nr_words; i++) {
		struct job_list jobs = { .select = &sel };

		sc.started = false;
		if (jobfile_parse(a->words[i], &jobs, &err)) {
			fprintf(stderr, "iodig: %s\n", err.msg);
			status = FIO_EXIT_FAIL;
		}
		showcmd_flush(&sc);
		if (sc.started)
			fputc('\n', stdout);
		job_list_free(&jobs);
	}
	return status;
}

/* fio --version's line, then iodig's own, which fio-plot's "fio-3" check
 * and people both read. */
static int print_version(void)
{
	printf("fio-%s\niodig %s\n", FIO_MIRRORED_VERSION, IODIG_VERSION);
	return 0;
}

/* What fio's options ask of iodig run's: --minimal is the terse format,
 * given to the --output-format option's own parser. */
static int fio_to_run(struct cli_opts *o, struct errbuf *err)
{
	const struct cli_option *fmt = cli_option_find(CMD_FIO, "output-format");
	struct errbuf why = { { 0 } };
	int ret;

	if (!o->fio.minimal)
		return 0;
	ret = fmt->parse((char *)o + fmt->offset, "terse", &why);
	if (ret)
		return err_set(err, ret, "option --minimal (fio's terse output): %s", why.msg);
	return 0;
}

/* fio's command line, parsed: what it asks for. */
static int fio_parsed(struct run_ctx *ctx, struct cli_opts *o, const struct cli_args *a)
{
	struct errbuf err = { { 0 } };

	if (o->fio.version)
		return print_version();
	if (o->help) {
		cli_usage(stdout, CMD_FIO);
		return 0;
	}
	if (o->fio.showcmd)
		return show_commands(o, a);
	if (fio_to_run(o, &err)) {
		fprintf(stderr, "iodig: %s\n", err.msg);
		return FIO_EXIT_FAIL;
	}
	ctx->opts.output_format = o->run.output_format;
	ctx->jobs.select = &o->fio.select;
	/* a script's working directory gets no iodig-runs/ it did not ask for */
	o->no_save = !o->save;
	if (cli_load_jobs(ctx, a, o->parse_only, &err)) {
		fprintf(stderr, "iodig: %s\n", err.msg);
		return FIO_EXIT_FAIL;
	}
	/* no job at all (none given, files of [global] only, no section
	 * --section names): fio's --parse-only passes, a run fails with
	 * fio's words and its usage */
	if (!ctx->jobs.count && !o->parse_only) {
		fputs("No job(s) defined\n\n", stderr);
		cli_usage(stdout, CMD_FIO);
		return FIO_EXIT_FAIL;
	}
	return cli_run_loaded(ctx, o);
}

int cmd_fio(int argc, char **argv)
{
	return cli_jobs_command(CMD_FIO, argc, argv, fio_parsed);
}
