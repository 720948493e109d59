// SPDX-License-Identifier: GPL-2.0
/* iodig diff: compare trace files of runs or kernels. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diff.h"
#include "cli/cli.h"

/* iodig diff [--format=F] [--svg=DIR] [--alpha=P] A B [C...] */
int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = { .format = DIFF_TEXT, .alpha = DIFF_DEFAULT_ALPHA };
	struct errbuf err = { { 0 } };
	const char **files = calloc((size_t)argc + 1, sizeof(char *));
	size_t nr = 0;
	int ret = EXIT_USAGE;

	if (!files) {
		fprintf(stderr, "iodig: out of memory\n");
		return 1;
	}
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--help")) {
			usage(stdout);
			ret = 0;
			goto cleanup;
		} else if (!strncmp(arg, "--format=", 9)) {
			if (diff_parse_format(arg + 9, &o.format, &err))
				goto fail;
		} else if (!strncmp(arg, "--svg=", 6)) {
			o.svg_dir = arg + 6;
		} else if (!strncmp(arg, "--alpha=", 8)) {
			char *end;

			o.alpha = strtod(arg + 8, &end);
			if (!arg[8] || *end || !(o.alpha > 0 && o.alpha < 0.5)) {
				err_set(&err, EINVAL, "option --alpha: '%s' is not a probability between 0 and 0.5", arg + 8);
				goto fail;
			}
		} else if (!strncmp(arg, "--", 2) && arg[2]) {
			err_set(&err, EINVAL, "diff: unknown option '%s'", arg);
			goto fail;
		} else {
			files[nr++] = arg;
		}
	}
	if (nr < 2) {
		err_set(&err, EINVAL, "diff: give at least two trace files (iodig diff A.json B.json)");
		goto fail;
	}
	ret = diff_files(files, nr, &o, stdout, stderr, &err) ? 1 : 0;
	if (ret)
		goto fail;
	goto cleanup;
fail:
	fprintf(stderr, "iodig: %s\n", err.msg);
cleanup:
	free(files);
	return ret;
}
