// SPDX-License-Identifier: GPL-2.0
/* zonemode=zbd's zones and write pointers (workload/zbd.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "workload/engine.h"
#include "workload/zbd.h"

/* The device's zones from the region's first one on. */
static int report_zones(struct zbd *z)
{
	unsigned int done = 0;
	int n;

	while (done < z->nr_zones) {
		n = z->ops->report(z->fd, &z->dev, z->zones[done].start,
				   &z->zones[done], z->nr_zones - done);
		if (n < 0)
			return n;
		done += (unsigned int)n;
	}
	return 0;
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

static unsigned int open_limit(const struct zbd *z)
{
	unsigned int dev = z->dev.max_open;
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
	z->ops = job->engine && job->engine->zone_ops ? job->engine->zone_ops :
		 &zbd_blk_ops;
	ret = z->ops->probe(fd, &z->dev);
	if (ret)
		return err_set(err, -ret, "zonemode=zbd: cannot tell whether the target is zoned: %s",
			       strerror(-ret));
	z->device = z->dev.zone_size != 0;
	z->zone_size = z->device ? z->dev.zone_size : job->zones.size;
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
	z->max_open = open_limit(z);
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
