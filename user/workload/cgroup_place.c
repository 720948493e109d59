// SPDX-License-Identifier: GPL-2.0
/* A worker's way into its job's control group and out of it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "workload/cgroup_place.h"

/* Writes @id to @dir's member file; 0 or -errno. */
static int write_member(const struct cgroup_place *p, const char *dir, pid_t id)
{
	char path[PATH_MAX + 16], num[16];
	int fd, len, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, p->v2 ? "cgroup.procs" : "tasks");
	len = snprintf(num, sizeof(num), "%d", (int)id);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, num, (size_t)len) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

int cgroup_place_join(const struct cgroup_place *p, pid_t id, char *why, size_t len)
{
	int ret = write_member(p, p->dir, id);

	if (ret)
		snprintf(why, len, "cannot move the worker into cgroup %s (cgroup): %s", p->dir,
			 strerror(-ret));
	return ret;
}

void cgroup_place_leave(const struct cgroup_place *p, pid_t id)
{
	write_member(p, p->root, id);
}
