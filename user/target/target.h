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
};

/* Stats the path; a missing regular file is not an error (exists=false). */
int target_inspect(const char *path, struct target_info *t, struct errbuf *err);

/*
 * Refuses a write job against a block device that is mounted (itself or a
 * partition), is held by another device (/sys/block/X/holders), is active
 * swap, or carries a filesystem, partition table, RAID or swap signature
 * (libblkid).  Regular files are always allowed.  Returns 0 when allowed.
 */
int target_write_guard(const struct target_info *t, bool allow_destructive,
		       struct errbuf *err);

/* A loop device backed by a sparse file on tmpfs, removed by
 * scratch_destroy (which accepts NULL). */
struct scratch_dev;

int scratch_create(uint64_t size, struct scratch_dev **out, struct errbuf *err);
const char *scratch_path(const struct scratch_dev *s);   /* "/dev/loopN" */
void scratch_destroy(struct scratch_dev *s);
/* Detaches loop devices and removes backing files left by an earlier iodig
 * that was killed; returns how many it removed (>= 0) or -errno. */
int scratch_cleanup_stale(struct errbuf *err);

/* /sys/block/<disk>/stat, see Documentation/block/stat.rst. */
struct disk_counters {
	uint64_t ios[2];      /* read, write I/Os completed */
	uint64_t merges[2];
	uint64_t sectors[2];
	uint64_t ticks[2];    /* ms */
	uint64_t io_ticks;    /* ms the device was busy */
	uint64_t time_in_queue;
};

int diskstats_read(const char *disk_name, struct disk_counters *c,
		   struct errbuf *err);

#endif /* IODIG_TARGET_H */
