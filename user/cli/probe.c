// SPDX-License-Identifier: GPL-2.0
/* iodig probe: which kernel probes work here, with which mechanism. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/phase_log.h"
#include "cli/cli.h"
#include "probes/probe.h"
#include "probes/probe_cache.h"
#include "run/repeat.h"
#include "target/target.h"

/* The probe environment the options ask for: the disk under --target. */
static int probe_env_from_opts(const struct cli_opts *o, struct probe_env *env,
			       struct errbuf *err)
{
	struct target_info t;
	int ret;

	env->force_mechanism = o->run.mechanism;
	if (!o->probe_target)
		return 0;
	ret = target_inspect(o->probe_target, &t, err);
	if (ret)
		return ret;
	snprintf(env->target_disk, sizeof(env->target_disk), "%s", t.disk_name);
	env->target_dev = disk_devt(t.disk_name);
	return 0;
}

int cmd_probe(int argc, char **argv)
{
	struct probe_env env = { .runner_tgid = getpid(), .supervisor_tid = gettid() };
	struct probe_set *set = NULL;
	struct errbuf err = { { 0 } };
	struct phase_log phases;
	struct cli_opts o;
	int ret;

	ret = cli_parse_options_only(CMD_PROBE, argc, argv, &o, &err);
	if (!ret && o.help) {
		cli_usage(stdout, CMD_PROBE);
		return 0;
	}
	if (!ret)
		ret = probe_env_from_opts(&o, &env, &err);
	if (ret) {
		fprintf(stderr, "iodig: %s\n", err.msg);
		return EXIT_USAGE;
	}
	probes_env_from_environment(&env);
	/* IODIG_TIMING=1: when each phase ended, on stderr */
	env.phases = phase_log_from_env(&phases);
	/* the table covers every family and hook, opt-in ones too */
	env.detail = true;
	probe_cache_new(&env.cache); /* NULL: each family parses its own */
	ret = probes_open(&env, NULL, &set, &err);
	if (ret) {
		fprintf(stderr, "iodig: %s\n", err.msg);
		probe_cache_free(env.cache);
		return 1;
	}
	probes_print_table(set, stdout);
	phase_mark(env.phases, "table", "printed");
	probes_destroy(set);
	probe_cache_free(env.cache);
	phase_log_print(env.phases, stderr);
	return 0;
}
