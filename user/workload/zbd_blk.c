// SPDX-License-Identifier: GPL-2.0
/* The zones of a zoned block device through the kernel's ioctls
 * (zbd_blk_ops, workload/zbd.h), as fio's blkzoned_* do. */
#include <errno.h>
#include <linux/blkzoned.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "base/sysfs_num.h"
#include "workload/zbd.h"

#define SECTOR 512ull
#define REPORT_BATCH 128u

static int blk_probe(int fd, struct zbd_dev *dev)
{
	struct stat st;
	__u32 sectors = 0;

	memset(dev, 0, sizeof(*dev));
	if (fstat(fd, &st) || !S_ISBLK(st.st_mode) ||
	    ioctl(fd, BLKGETZONESZ, &sectors) || !sectors)
		return 0;
	dev->zone_size = sectors * SECTOR;
	dev->max_open = (unsigned int)sysfs_read_u64("/sys/dev/block/%u:%u/queue/max_open_zones",
						     major(st.st_rdev), minor(st.st_rdev));
	return 0;
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

static int blk_report(int fd, const struct zbd_dev *dev, uint64_t offset,
		      struct zbd_zone *zones, unsigned int nr)
{
	unsigned int batch = nr < REPORT_BATCH ? nr : REPORT_BATCH;
	struct blk_zone_report *r;
	int ret;

	(void)dev;
	r = calloc(1, sizeof(*r) + batch * sizeof(struct blk_zone));
	if (!r)
		return -ENOMEM;
	r->sector = offset / SECTOR;
	r->nr_zones = batch;
	if (ioctl(fd, BLKREPORTZONE, r)) {
		ret = -errno;
	} else {
		for (unsigned int i = 0; i < r->nr_zones; i++)
			zone_from_report(&zones[i], &r->zones[i],
					 r->flags & BLK_ZONE_REP_CAPACITY);
		ret = r->nr_zones ? (int)r->nr_zones : -EIO;
	}
	free(r);
	return ret;
}

static int blk_reset(int fd, const struct zbd_dev *dev, uint64_t offset)
{
	struct blk_zone_range r = { offset / SECTOR, dev->zone_size / SECTOR };

	return ioctl(fd, BLKRESETZONE, &r) ? -errno : 0;
}

const struct zbd_dev_ops zbd_blk_ops = {
	.probe = blk_probe, .report = blk_report, .reset = blk_reset,
};
