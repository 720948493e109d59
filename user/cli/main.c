// SPDX-License-Identifier: GPL-2.0
/* iodig command line: dispatch to the subcommand (iodig fio when called as
 * fio); each prints its errors. */
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/errbuf.h"
#include "cli/cli.h"
#include "workload/engine.h"

/* The name the program was run as, without its directory. */
static const char *program_name(const char *argv0)
{
	const char *slash = strrchr(argv0, '/');

	return slash ? slash + 1 : argv0;
}

/*
 * libbpf parses the kernel's BTF, several MiB, once for each family's
 * object and frees it again.  Kept on the heap rather than unmapped, the
 * next parse reuses pages already faulted in instead of faulting in fresh
 * ones, the larger part of opening the probes in a VM (docs/overhead.md).
 */
static void keep_large_buffers(void)
{
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
}

int main(int argc, char **argv)
{
	struct errbuf err = { { 0 } };

	keep_large_buffers();

	if (engines_check(&err)) {
		fprintf(stderr, "iodig: %s\n", err.msg);
		return 1;
	}
	/* run through a link named fio: fio's command line, for scripts */
	if (!strcmp(program_name(argv[0]), "fio"))
		return cmd_fio(argc - 1, argv + 1);
	if (argc < 2) {
		cli_usage(stderr, CMD_NR);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return cmd_help(argc - 2, argv + 2);
	if (!strcmp(argv[1], "--version"))
		return cmd_version(argc - 2, argv + 2);
	for (int c = 0; c < CMD_NR; c++)
		if (!strcmp(argv[1], cli_commands[c].name))
			return cli_commands[c].main(argc - 2, argv + 2);
	/* fio's own form: "iodig --name=x ..." or "iodig job.fio" means run. */
	if (!strncmp(argv[1], "--", 2) || access(argv[1], R_OK) == 0)
		return cmd_run(argc - 1, argv + 1);
	fprintf(stderr, "iodig: unknown command '%s' (try iodig --help)\n", argv[1]);
	return EXIT_USAGE;
}
