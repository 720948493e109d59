// SPDX-License-Identifier: GPL-2.0
/*
 * Character devices of one kernel class, found through sysfs as fio's
 * dev-dax engine does (/sys/dev/char/MAJ:MIN); libmtd does the same for
 * MTD.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "workload/engines/char_dev.h"

/* Whether the link @sys resolves to /sys/class/@cls or /sys/bus/@cls
 * (device-DAX moved from its class to the dax bus in Linux 5.1). */
static int subsystem_is(const char *sys, const char *cls)
{
	char real[PATH_MAX], want[64];

	if (!realpath(sys, real))
		return 0;
	snprintf(want, sizeof(want), "/sys/class/%s", cls);
	if (!strcmp(real, want))
		return 1;
	snprintf(want, sizeof(want), "/sys/bus/%s", cls);
	return !strcmp(real, want);
}

int char_dev_of_class(const char *path, const char *cls, const char *needs,
		      dev_t *rdev, struct errbuf *err)
{
	char sys[96];
	struct stat st;

	if (stat(path, &st) < 0)
		return err_set(err, errno, "%s: %m: %s", path, needs);
	if (!S_ISCHR(st.st_mode))
		return err_set(err, ENODEV, "%s: not a character device: %s",
			       path, needs);
	snprintf(sys, sizeof(sys), "/sys/dev/char/%u:%u/subsystem",
		 major(st.st_rdev), minor(st.st_rdev));
	if (!subsystem_is(sys, cls))
		return err_set(err, ENODEV, "%s: character device %u:%u is not of the kernel's %s devices (%s): %s",
			       path, major(st.st_rdev), minor(st.st_rdev), cls, sys, needs);
	*rdev = st.st_rdev;
	return 0;
}

int char_dev_attr(dev_t rdev, const char *attr, uint64_t *val,
		  struct errbuf *err)
{
	char sys[128];
	FILE *f;
	int n;

	snprintf(sys, sizeof(sys), "/sys/dev/char/%u:%u/%s", major(rdev),
		 minor(rdev), attr);
	f = fopen(sys, "re");
	if (!f)
		return err_set(err, errno, "%s: %m", sys);
	n = fscanf(f, "%" SCNu64, val);
	fclose(f);
	if (n != 1)
		return err_set(err, EINVAL, "%s: not a number", sys);
	return 0;
}
