// SPDX-License-Identifier: GPL-2.0
/* iodig diff: compare trace files of runs or kernels. */
#include <errno.h>
#include <stdio.h>

#include "analysis/diff.h"
#include "cli/cli.h"

int cmd_diff(int argc, char **argv)
{
	struct errbuf err = { { 0 } };
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
			 stderr, &err);
	if (ret) {
		fprintf(stderr, "iodig: %s\n", err.msg);
		ret = 1;
	}
cleanup:
	cli_args_free(&rest);
	return ret;
}
