// SPDX-License-Identifier: GPL-2.0
/*
 * exec_prerun and exec_postrun.  posix_spawn rather than system(): the
 * worker blocks SIGINT and SIGTERM (the supervisor takes them), and a
 * command started by system() would inherit that and outlive a stop.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "workload/job_commands.h"

extern char **environ;

int job_command_run(const char *cmd, const char *job_name, const char *mode)
{
	posix_spawnattr_t attr;
	sigset_t none, dfl;
	char *line = NULL;
	char *argv[] = { "sh", "-c", NULL, NULL };
	pid_t pid;
	int status = 0, ret;

	if (asprintf(&line, "%s > %s.%s.txt 2>&1", cmd, job_name, mode) < 0)
		return -ENOMEM;
	argv[2] = line;
	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGHUP);
	sigaddset(&dfl, SIGCHLD);
	ret = -posix_spawnattr_init(&attr);
	if (!ret) {
		posix_spawnattr_setsigmask(&attr, &none);
		posix_spawnattr_setsigdefault(&attr, &dfl);
		posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
		ret = -posix_spawn(&pid, "/bin/sh", NULL, &attr, argv, environ);
		posix_spawnattr_destroy(&attr);
	}
	while (!ret && waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			ret = -errno;
	free(line);
	return ret ? ret : status;
}
