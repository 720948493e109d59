/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The disks whose counters a run reports, as fio's disk list: each target's
 * whole disk, followed by the disks under it (an md array's members, a dm
 * device's targets).
 */
#ifndef IODIG_DISK_LIST_H
#define IODIG_DISK_LIST_H

#include <stddef.h>

#include "base/errbuf.h"

#define DISK_NAME_LEN 64
#define DISK_LIST_MAX 16

struct disk_list {
	char name[DISK_LIST_MAX][DISK_NAME_LEN];
	int master[DISK_LIST_MAX];   /* the disk it is under, -1 none */
	unsigned int nr;
};

/*
 * The whole disks that <sys_root>/block/<disk>/slaves/ lists, in the
 * directory's order, which is the order fio's find_add_disk_slaves adds
 * them in; a partition is named by its disk, as fio reports it.  At most
 * @max names into @names, their number in *@nr.  A disk without slaves/
 * has none.  @sys_root is sysfs's mount point, NULL = "/sys".
 * 0, or -errno with @err naming the directory.
 */
int disk_slaves_read(const char *sys_root, const char *disk,
		     char (*names)[DISK_NAME_LEN], size_t max, size_t *nr,
		     struct errbuf *err);

/*
 * @disk, a target's whole disk, then the disks under it, depth first as
 * fio's find_add_disk_slaves adds them.  A disk listed already is neither
 * added again nor counted under another master, as in fio; past
 * DISK_LIST_MAX disks the rest are left out.  Slaves are best effort: fio
 * too reports a disk whose slaves/ it cannot read without them.
 * @sys_root as for disk_slaves_read.
 */
void disk_list_add(struct disk_list *l, const char *sys_root, const char *disk);

#endif /* IODIG_DISK_LIST_H */
