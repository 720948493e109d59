/* SPDX-License-Identifier: GPL-2.0 */
/* A disk's I/O counters, read before and after a run. */
#ifndef IODIG_DISKSTATS_H
#define IODIG_DISKSTATS_H

#include <stdint.h>

#include "base/errbuf.h"

/* /sys/block/<disk>/stat, see Documentation/block/stat.rst. */
struct disk_counters {
	uint64_t ios[2];      /* read, write I/Os completed */
	uint64_t merges[2];
	uint64_t sectors[2];
	uint64_t ticks[2];    /* ms */
	uint64_t io_ticks;    /* ms the device was busy */
	uint64_t time_in_queue;
	/* since 4.18 and 5.5; 0 on older kernels */
	uint64_t discard_ios;  /* discards completed */
	uint64_t flush_ios;    /* flush requests completed */
};

/* @sys_root is sysfs's mount point, NULL = "/sys". */
int diskstats_read(const char *sys_root, const char *disk_name,
		   struct disk_counters *c, struct errbuf *err);

#endif /* IODIG_DISKSTATS_H */
