/* SPDX-License-Identifier: GPL-2.0 */
/* iodig's command line: one file per subcommand, main.c dispatches. */
#ifndef IODIG_CLI_H
#define IODIG_CLI_H

#include <stdio.h>

/* Exit status of a usage error: bad option, value or argument. */
#define EXIT_USAGE 2

/* help.c: the usage text, run's and job options included. */
void usage(FILE *out);

/* One file per subcommand. */
int cmd_run(int argc, char **argv);
int cmd_probe(int argc, char **argv);
int cmd_diff(int argc, char **argv);

#endif /* IODIG_CLI_H */
