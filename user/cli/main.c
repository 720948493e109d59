// SPDX-License-Identifier: GPL-2.0
/* iodig command line: dispatch to run / probe / diff. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/errbuf.h"
#include "cli/cli.h"
#include "workload/engine.h"

int main(int argc, char **argv)
{
	struct errbuf err = { { 0 } };

	if (engines_check(&err)) {
		fprintf(stderr, "iodig: %s\n", err.msg);
		return 1;
	}
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("iodig %s\n", IODIG_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 2, argv + 2);
	if (!strcmp(argv[1], "probe"))
		return cmd_probe(argc - 2, argv + 2);
	if (!strcmp(argv[1], "diff"))
		return cmd_diff(argc - 2, argv + 2);
	/* fio's own form: "iodig --name=x ..." or "iodig job.fio" means run. */
	if (!strncmp(argv[1], "--", 2) || access(argv[1], R_OK) == 0)
		return cmd_run(argc - 1, argv + 1);
	fprintf(stderr, "iodig: unknown command '%s' (try iodig --help)\n", argv[1]);
	return EXIT_USAGE;
}
