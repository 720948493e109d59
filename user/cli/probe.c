// SPDX-License-Identifier: GPL-2.0
/* iodig probe: which kernel probes work here, with which mechanism. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "probes/probe.h"
#include "run/repeat.h"
#include "target/target.h"

int cmd_probe(int argc, char **argv)
{
	struct probe_env env = { .runner_tgid = getpid(), .supervisor_tid = gettid() };
	struct probe_set *set = NULL;
	struct errbuf err = { { 0 } };
	struct target_info t;
	int ret;

	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "--target=", 9)) {
			if (target_inspect(argv[i] + 9, &t, &err)) {
				fprintf(stderr, "iodig: %s\n", err.msg);
				return EXIT_USAGE;
			}
			snprintf(env.target_disk, sizeof(env.target_disk), "%s", t.disk_name);
			env.target_dev = disk_devt(t.disk_name);
		} else if (!strncmp(argv[i], "--mechanism=", 12)) {
			env.force_mechanism = argv[i] + 12;
		} else {
			fprintf(stderr, "iodig: probe: unknown argument '%s'\n", argv[i]);
			return EXIT_USAGE;
		}
	}
	probes_env_from_environment(&env);
	/* the table covers every family and hook, opt-in ones too */
	env.detail = true;
	ret = probes_open(&env, NULL, &set, &err);
	if (ret) {
		fprintf(stderr, "iodig: %s\n", err.msg);
		return 1;
	}
	probes_print_table(set, stdout);
	probes_destroy(set);
	return 0;
}
