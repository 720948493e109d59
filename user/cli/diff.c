// SPDX-License-Identifier: GPL-2.0
/*
 * iodig diff: compare trace files of runs or kernels.  With --fail-on the
 * exit status is for `git bisect run` and CI: 0 when B is not
 * significantly worse than A on the metric, 1 when it is, 2 on any error.
 */
#include <errno.h>
#include <stdio.h>

#include "analysis/diff.h"
#include "cli/cli.h"

#define EXIT_WORSE 1

int cmd_diff(int argc, char **argv)
{
	struct errbuf err = { { 0 } };
	struct diff_outcome outcome = { 0 };
	struct cli_args rest;
	struct cli_opts o;
	int ret;

	cli_opts_init(&o, NULL);
	ret = cli_parse(CMD_DIFF, argc, argv, &o, NULL, &rest, &err);
	if (!ret && o.help) {
		cli_usage(stdout, CMD_DIFF);
		goto cleanup;
	}
	if (!ret && rest.nr_words < 2)
		ret = err_set(&err, EINVAL, "diff: give at least two trace files (iodig diff A.json B.json)");
	if (ret) {
		fprintf(stderr, "iodig: %s\n", err.msg);
		ret = EXIT_USAGE;
		goto cleanup;
	}
	ret = diff_files((const char *const *)rest.words, rest.nr_words, &o.diff, stdout,
			 stderr, &outcome, &err);
	if (ret) {
		fprintf(stderr, "iodig: %s\n", err.msg);
		/* an error must not read as "B is worse" to git bisect */
		ret = o.diff.fail_on ? EXIT_USAGE : 1;
	} else if (o.diff.fail_on) {
		fprintf(stderr, "iodig: --fail-on %s\n", outcome.why);
		ret = outcome.worse ? EXIT_WORSE : 0;
	}
cleanup:
	cli_args_free(&rest);
	return ret;
}
