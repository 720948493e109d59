/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zonemode=zbd, after fio 3.33's zbd.c: the zones of a worker's region
 * with their write pointers (reported by the kernel for a zoned block
 * device, emulated as empty sequential zones of zonesize on any other
 * target, as fio does), writes moved to the write pointer of their zone,
 * within max_open_zones / job_max_open_zones open zones, a full zone reset
 * (BLKRESETZONE on a zoned device) before it is written again or when
 * zone_reset_threshold and zone_reset_frequency ask, and reads kept to
 * written data unless read_beyond_wp.  The zones are the worker's own:
 * clones of a job do not share write pointers as fio's threads do.
 */
#ifndef IODIG_ZBD_H
#define IODIG_ZBD_H

#include <stdbool.h>
#include <stdint.h>

#include "base/errbuf.h"
#include "workload/job.h"
#include "workload/offsets.h"

struct zbd_zone {
	uint64_t start, wp, cap_end; /* absolute bytes */
	bool has_wp;                 /* false: a conventional zone */
	bool offline, open;
	bool reset_due;              /* zone_reset_frequency's pick */
};

/* A zoned device as its zone commands see it. */
struct zbd_dev {
	uint64_t zone_size;          /* bytes; 0: @fd is not zoned */
	unsigned int max_open;       /* the device's open zone limit; 0: none */
	unsigned int block;          /* logical block bytes, 0 if unused */
};

/* How zonemode=zbd reaches a zoned device's zones, fio's ioengine_ops
 * get_zoned_model, report_zones, reset_wp and get_max_open_zones: the
 * kernel's zoned block ioctls (zbd_blk_ops), unless the job's engine
 * drives the device by commands of its own (engine_ops.zone_ops). */
struct zbd_dev_ops {
	/* Fills @dev for @fd; 0 with a zone_size of 0 when @fd is not a
	 * zoned device, -errno when it cannot tell. */
	int (*probe)(int fd, struct zbd_dev *dev);
	/* Up to @nr zones from the one holding @offset on, into @zones:
	 * how many (> 0), or -errno. */
	int (*report)(int fd, const struct zbd_dev *dev, uint64_t offset,
		      struct zbd_zone *zones, unsigned int nr);
	/* Resets the write pointer of the zone at @offset. */
	int (*reset)(int fd, const struct zbd_dev *dev, uint64_t offset);
};

/* The zoned block device ioctls (BLKREPORTZONE, BLKRESETZONE). */
extern const struct zbd_dev_ops zbd_blk_ops;

struct zbd {
	bool on;
	bool device;                 /* a zoned device: its zone commands */
	int fd;
	const struct zbd_dev_ops *ops;
	struct zbd_dev dev;
	const struct job *job;
	uint64_t zone_size;
	uint64_t region_start, region_len;
	struct zbd_zone *zones;      /* the zones the region touches */
	unsigned int nr_zones;
	unsigned int *open;          /* indexes of open zones, in order */
	unsigned int nr_open, max_open;
	uint64_t valid_bytes;        /* written below the write pointers */
	unsigned int write_cnt;      /* writes until the next reset pick */
	uint64_t resets;             /* fio's nr_zone_resets */
};

/* Zones for the region [@start, @start + @len) of @fd: the device's,
 * reached through @job's engine's zone commands or the kernel's, else
 * @job's zonesize emulated.  Does nothing unless zonemode=zbd. */
int zbd_init(struct zbd *z, const struct job *job, int fd, uint64_t start,
	     uint64_t len, struct errbuf *err);

/* fio's zbd_adjust_block: moves an I/O of direction @d at *@offset of
 * *@len bytes to where the zones allow it, resetting a zone on the way;
 * false when none can take it (the job's end, as fio's io_u_eof), or
 * -errno in *@ret when a reset failed. */
bool zbd_adjust(struct zbd *z, enum ddir d, uint64_t *offset, uint32_t *len,
		int *ret);

/* fio's zbd_reset_write_cnt: a reset every 1 / zone_reset_frequency
 * writes once past zone_reset_threshold. */
void zbd_reset_write_cnt(struct zbd *z);

/* After offsets_take: fio's last_pos follows the moved I/O (@rel, from
 * the region's start) and a write moves its zone's write pointer. */
void zbd_taken(struct zbd *z, struct offsets *o, enum ddir d, uint64_t rel,
	       uint32_t len);

void zbd_free(struct zbd *z);

#endif /* IODIG_ZBD_H */
