/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Targets: what a job's filename points at, the destructive-write guard, the
 * scratch loop device iodig makes when no target is given, and the block
 * device counters behind fio's "Disk stats".
 */
#ifndef IODIG_TARGET_H
#define IODIG_TARGET_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/errbuf.h"

struct target_info {
	char path[4096];
	bool exists;
	bool is_blockdev;
	bool is_regular;
	uint64_t size;             /* bytes (device size or file size) */
	dev_t rdev;                /* block device number (is_blockdev) */
	dev_t backing_dev;         /* device holding a regular file */
	char disk_name[64];        /* /sys/block name of the whole disk that
				    * carries the I/O ("loop0", "vda"); empty
				    * when none (tmpfs) */
	unsigned int logical_block_size;
	/* A block device's atomic write unit (queue/atomic_write_unit_*),
	 * 0 when it has none; unknown (0) for a file. */
	unsigned int atomic_unit_min, atomic_unit_max;
	char fs_type[32];          /* a file's filesystem ("ext4"); empty
				    * for a block device */
	bool missing_dirs;         /* a missing file's directory is missing
				    * too, and the layout makes it */
};

/* dev_t of a whole disk from /sys/block/NAME/dev (a disk_name), 0 when
 * unknown. */
dev_t disk_devt(const char *disk);

/* Stats the path; a missing regular file is not an error (exists=false). */
int target_inspect(const char *path, struct target_info *t, struct errbuf *err);
/* target_inspect for a job file's own file name: its missing directories
 * are not an error either (missing_dirs), as fio 3.33 makes them, when the
 * nearest one that exists is a directory iodig can create files in. */
int target_inspect_making_dirs(const char *path, struct target_info *t,
			       struct errbuf *err);

#endif /* IODIG_TARGET_H */
