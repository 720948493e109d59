// SPDX-License-Identifier: GPL-2.0
/* Whether a DAX fault can happen here: see probes/fs_dax_source.h. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "base/sysfs_num.h"
#include "probes/fs_dax_source.h"

/* The first disk whose queue has the DAX feature, into @name. */
static bool dax_disk(const char *sys_root, DIR *block, char *name, size_t size)
{
	struct dirent *de;

	while ((de = readdir(block))) {
		if (de->d_name[0] == '.')
			continue;
		if (sysfs_read_u64("%s/block/%s/queue/dax", sys_root, de->d_name) == 1) {
			snprintf(name, size, "%s", de->d_name);
			return true;
		}
	}
	return false;
}

/* The first device bound to the virtio-fs driver, into @name. */
static bool virtiofs_device(const char *sys_root, char *name, size_t size)
{
	char path[256];
	struct dirent *de;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "%s/bus/virtio/drivers/virtiofs", sys_root);
	d = opendir(path);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (strncmp(de->d_name, "virtio", 6))
			continue;
		snprintf(name, size, "%s", de->d_name);
		found = true;
	}
	closedir(d);
	return found;
}

bool fs_dax_possible(const char *sys_root, char *why, size_t size)
{
	char path[256], name[128];
	bool found;
	DIR *block;

	if (!sys_root)
		sys_root = "/sys";
	snprintf(path, sizeof(path), "%s/block", sys_root);
	block = opendir(path);
	if (!block) {
		/* Cannot tell: trace as if one could. */
		snprintf(why, size, "no %s to tell", path);
		return true;
	}
	found = dax_disk(sys_root, block, name, sizeof(name));
	closedir(block);
	if (found) {
		snprintf(why, size, "%s is DAX-capable", name);
		return true;
	}
	if (virtiofs_device(sys_root, name, sizeof(name))) {
		snprintf(why, size, "virtio-fs device %s may have a DAX window", name);
		return true;
	}
	snprintf(why, size, "no DAX-capable block device");
	return false;
}
