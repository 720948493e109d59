// SPDX-License-Identifier: GPL-2.0
/* The disks a run watches and their slaves: see target/disk_list.h. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "target/disk_list.h"

/*
 * The whole disk behind slaves/<entry>, a link to the slave's sysfs
 * directory: a partition's directory (it has a `partition` attribute)
 * sits in its disk's.  0, or -errno when the link leads nowhere.
 */
static int slave_disk(const char *entry, char *name)
{
	char real[PATH_MAX], attr[PATH_MAX + 16];
	char *slash;

	if (!realpath(entry, real))
		return -errno;
	snprintf(attr, sizeof(attr), "%s/partition", real);
	if (access(attr, F_OK) == 0 && (slash = strrchr(real, '/')) && slash != real)
		*slash = '\0';
	slash = strrchr(real, '/');
	if (!slash || strlen(slash + 1) >= DISK_NAME_LEN)
		return -ENAMETOOLONG;
	snprintf(name, DISK_NAME_LEN, "%s", slash + 1);
	return 0;
}

static bool listed(const char (*names)[DISK_NAME_LEN], size_t nr, const char *name)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(names[i], name))
			return true;
	return false;
}

int disk_slaves_read(const char *sys_root, const char *disk,
		     char (*names)[DISK_NAME_LEN], size_t max, size_t *nr,
		     struct errbuf *err)
{
	char dir[PATH_MAX], entry[PATH_MAX + 256], name[DISK_NAME_LEN];
	struct dirent *de;
	int ret = 0;
	DIR *d;

	*nr = 0;
	if (!sys_root)
		sys_root = "/sys";
	snprintf(dir, sizeof(dir), "%s/block/%s/slaves", sys_root, disk);
	d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : err_set(err, errno, "%s: %s", dir, strerror(errno));
	while (*nr < max && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(entry, sizeof(entry), "%s/%s", dir, de->d_name);
		ret = slave_disk(entry, name);
		if (ret) {
			ret = err_set(err, -ret, "%s: %s", entry, strerror(-ret));
			break;
		}
		/* two partitions of one disk are that disk once */
		if (!listed(names, *nr, name))
			snprintf(names[(*nr)++], DISK_NAME_LEN, "%s", name);
	}
	closedir(d);
	return ret;
}

static void add_under(struct disk_list *l, const char *sys_root, const char *disk,
		      int master)
{
	char slaves[DISK_LIST_MAX][DISK_NAME_LEN];
	struct errbuf ignored;
	size_t nr = 0;
	unsigned int at;

	if (!disk[0] || listed(l->name, l->nr, disk) || l->nr >= DISK_LIST_MAX)
		return;
	at = l->nr++;
	snprintf(l->name[at], sizeof(l->name[at]), "%s", disk);
	l->master[at] = master;
	disk_slaves_read(sys_root, disk, slaves, DISK_LIST_MAX, &nr, &ignored);
	for (size_t i = 0; i < nr; i++)
		add_under(l, sys_root, slaves[i], (int)at);
}

void disk_list_add(struct disk_list *l, const char *sys_root, const char *disk)
{
	add_under(l, sys_root, disk, -1);
}
