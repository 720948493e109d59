// SPDX-License-Identifier: GPL-2.0
/*
 * The words a report uses for what a job measured: the path, the device
 * under it and the filesystem, so that a reader sees at once whether a run
 * went to a disk, a loop device on tmpfs or a file on tmpfs (page cache
 * only, no block layer at all).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "target/describe.h"

/* /proc/self/mountinfo: "ID PARENT MAJ:MIN ROOT POINT OPTS... - FSTYPE SRC
 * SUPER"; the first mount of @dev names its filesystem. */
int target_fs_type(dev_t dev, char *buf, size_t len)
{
	char line[4096], want[32], *dash, *fstype;
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int ret = -ENOENT;

	if (!f)
		return -errno;
	snprintf(want, sizeof(want), " %u:%u ", major(dev), minor(dev));
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, want) || !(dash = strstr(line, " - ")))
			continue;
		fstype = dash + 3;
		fstype[strcspn(fstype, " \n")] = '\0';
		snprintf(buf, len, "%s", fstype);
		ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

void target_describe(const struct target_info *t, bool scratch, char *buf,
		     size_t len)
{
	if (t->is_blockdev)
		snprintf(buf, len, "%s (%sblock device, no filesystem)", t->path,
			 scratch ? "iodig's scratch loop device on tmpfs, " : "");
	else if (t->disk_name[0])
		snprintf(buf, len, "%s on %s (%s)", t->path,
			 t->fs_type[0] ? t->fs_type : "an unknown filesystem",
			 t->disk_name);
	else
		snprintf(buf, len, "%s on %s (no block device)", t->path,
			 t->fs_type[0] ? t->fs_type : "an unknown filesystem");
}
