// SPDX-License-Identifier: GPL-2.0
/* zonemode=zbd's zones and write pointers (workload/zbd.h). */
#include <errno.h>
#include <linux/blkzoned.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "base/mem.h"
#include "base/sysfs_num.h"
#include "workload/zbd.h"

#define SECTOR 512ull
#define REPORT_BATCH 128u

uint64_t zbd_device_zone_size(int fd)
{
	struct stat st;
	__u32 sectors = 0;

	if (fstat(fd, &st) || !S_ISBLK(st.st_mode) ||
	    ioctl(fd, BLKGETZONESZ, &sectors))
		return 0;
	return sectors * SECTOR;
}

/* The device's open zone limit (queue/max_open_zones); 0: none. */
static unsigned int device_max_open(int fd)
{
	struct stat st;

	if (fstat(fd, &st))
		return 0;
	return (unsigned int)sysfs_read_u64("/sys/dev/block/%u:%u/queue/max_open_zones",
					    major(st.st_rdev), minor(st.st_rdev));
}

static void zone_from_report(struct zbd_zone *zz, const struct blk_zone *b,
			     bool has_capacity)
{
	zz->start = b->start * SECTOR;
	zz->has_wp = b->type != BLK_ZONE_TYPE_CONVENTIONAL;
	zz->offline = b->cond == BLK_ZONE_COND_OFFLINE;
	zz->cap_end = zz->start + (has_capacity ? b->capacity : b->len) * SECTOR;
	/* a full zone's reported write pointer is past its capacity */
	zz->wp = b->cond == BLK_ZONE_COND_FULL ? zz->cap_end :
		 zz->has_wp ? b->wp * SECTOR : zz->start;
}

/* BLKREPORTZONE from the region's first zone on. */
static int report_zones(struct zbd *z)
{
	size_t sz = sizeof(struct blk_zone_report) +
		    REPORT_BATCH * sizeof(struct blk_zone);
	struct blk_zone_report *r = malloc(sz);
	unsigned int done = 0;
	int ret = 0;

	if (!r)
		return -ENOMEM;
	while (done < z->nr_zones && !ret) {
		memset(r, 0, sz);
		r->sector = z->zones[done].start / SECTOR;
		r->nr_zones = REPORT_BATCH;
		if (ioctl(z->fd, BLKREPORTZONE, r)) {
			ret = -errno;
			break;
		}
		if (!r->nr_zones)
			ret = -EIO;
		for (unsigned int i = 0; i < r->nr_zones && done < z->nr_zones; i++)
			zone_from_report(&z->zones[done++], &r->zones[i],
					 r->flags & BLK_ZONE_REP_CAPACITY);
	}
	free(r);
	return ret;
}

static void emulate_zones(struct zbd *z)
{
	uint64_t cap = z->job->zones.capacity;

	if (!cap || cap > z->zone_size)
		cap = z->zone_size;
	for (unsigned int i = 0; i < z->nr_zones; i++) {
		struct zbd_zone *zz = &z->zones[i];

		zz->wp = zz->start; /* fio: every emulated zone starts empty */
		zz->cap_end = zz->start + cap;
		zz->has_wp = true;
	}
}

void zbd_reset_write_cnt(struct zbd *z)
{
	double f = z->job->zones.reset_frequency;

	z->write_cnt = f > 0 && 1.0 / f < 4294967295.0 ? (unsigned int)(1.0 / f) :
		       UINT32_MAX;
}

static unsigned int open_limit(const struct zbd *z, int fd)
{
	unsigned int dev = z->device ? device_max_open(fd) : 0;
	unsigned int lim = z->job->zones.max_open;

	if (!lim || (dev && lim > dev && !z->job->zones.ignore_limits))
		lim = dev;
	if (z->job->zones.job_max_open && (!lim || z->job->zones.job_max_open < lim))
		lim = z->job->zones.job_max_open;
	return lim;
}

int zbd_init(struct zbd *z, const struct job *job, int fd, uint64_t start,
	     uint64_t len, struct errbuf *err)
{
	uint64_t first;
	int ret = 0;

	memset(z, 0, sizeof(*z));
	if (job->zonemode != ZONEMODE_ZBD)
		return 0;
	z->job = job;
	z->fd = fd;
	z->zone_size = zbd_device_zone_size(fd);
	z->device = z->zone_size != 0;
	if (!z->device)
		z->zone_size = job->zones.size;
	if (!z->zone_size)
		return err_set(err, EINVAL, "zonemode=zbd: no zone size");
	first = start / z->zone_size * z->zone_size;
	z->nr_zones = (unsigned int)((start + len - first + z->zone_size - 1) /
				     z->zone_size);
	z->zones = calloc(z->nr_zones ? z->nr_zones : 1, sizeof(*z->zones));
	z->open = calloc(z->nr_zones ? z->nr_zones : 1, sizeof(*z->open));
	if (!z->zones || !z->open) {
		zbd_free(z);
		return err_set(err, ENOMEM, "out of memory for %u zones", z->nr_zones);
	}
	for (unsigned int i = 0; i < z->nr_zones; i++)
		z->zones[i].start = first + i * z->zone_size;
	if (z->device)
		ret = report_zones(z);
	else
		emulate_zones(z);
	if (ret) {
		zbd_free(z);
		return err_set(err, -ret, "zonemode=zbd: cannot report the zones: %s",
			       strerror(-ret));
	}
	z->region_start = start;
	z->region_len = len;
	z->max_open = open_limit(z, fd);
	for (unsigned int i = 0; i < z->nr_zones; i++)
		if (z->zones[i].has_wp)
			z->valid_bytes += z->zones[i].wp - z->zones[i].start;
	zbd_reset_write_cnt(z);
	z->on = true;
	return 0;
}

void zbd_free(struct zbd *z)
{
	if (!z)
		return;
	FREE_AND_NULL(z->zones);
	FREE_AND_NULL(z->open);
	z->on = false;
}
