// SPDX-License-Identifier: GPL-2.0
/*
 * libzbc: a zoned SCSI disk (ZBC, host-managed or host-aware) driven by
 * SCSI commands, as fio's libzbc engine drives it through libzbc.  fio
 * opens the device with zbc_open(ZBC_O_DRV_SCSI | ZBC_O_DRV_ATA), so
 * libzbc's zoned block device backend is never used: a zoned disk that
 * is not SCSI (null_blk, NVMe ZNS) is refused, as fio's zbc_open fails.
 * libzbc's SCSI backend sends every command with SG_IO on the device
 * (/dev/sdX or /dev/sgN); so does this engine: READ(16) and WRITE(16)
 * for I/O on the worker's thread (fio's FIO_SYNCIO), and for
 * zonemode=zbd (engine_ops.zone_ops) REPORT ZONES, RESET WRITE POINTER
 * and the open zone limit of the Zoned Block Device Characteristics VPD
 * page.  An ATA ZAC disk on libata is reached the same way, through the
 * kernel's SCSI-to-ATA translation of those commands; libzbc's ATA
 * PASS-THROUGH backend is not mirrored.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload/engines/scsi_cmd.h"
#include "workload/engines/shared.h"
#include "workload/worker.h"
#include "workload/zbd.h"

#define ZBC_IN 0x95
#define ZBC_OUT 0x94
#define ZBC_SA_REPORT_ZONES 0x00
#define ZBC_SA_RESET_WP 0x04
#define ZBC_RO_PARTIAL 0x80
#define ZBC_PDT_HOST_MANAGED 0x14
#define ZBC_VPD_BLOCK_CHARS 0xb1
#define ZBC_VPD_ZONED_CHARS 0xb6
#define ZBC_NO_LIMIT 0xffffffffu
#define ZBC_DESC 64u
#define ZBC_REPORT_BATCH 128u

enum zbc_zone_type { ZBC_ZT_CONV = 1, ZBC_ZT_SEQ_REQ = 2, ZBC_ZT_SEQ_PREF = 3 };
enum zbc_zone_cond {
	ZBC_ZC_NOT_WP = 0x0, ZBC_ZC_RDONLY = 0xd, ZBC_ZC_FULL = 0xe,
	ZBC_ZC_OFFLINE = 0xf,
};

struct libzbc_data {
	unsigned int block; /* logical block bytes */
	unsigned char sense[SCSI_SENSE_LEN];
};

/* INQUIRY: the standard data, or VPD page @page. */
static int zbc_inquiry(int fd, int page, unsigned char *buf, unsigned int len)
{
	unsigned char cdb[6] = { 0x12 }, sense[SCSI_SENSE_LEN];

	if (page >= 0) {
		cdb[1] = 0x01;
		cdb[2] = (unsigned char)page;
	}
	scsi_put_be16(cdb + 3, (uint16_t)len);
	memset(buf, 0, len);
	return scsi_run(fd, cdb, 6, SG_DXFER_FROM_DEV, buf, len, sense, 0);
}

/* libzbc's SCSI backend's test: a host-managed device type, or a disk
 * whose Block Device Characteristics say host-aware. */
static bool zbc_is_zoned(int fd)
{
	unsigned char buf[64];

	if (zbc_inquiry(fd, -1, buf, 36))
		return false;
	if ((buf[0] & 0x1f) == ZBC_PDT_HOST_MANAGED)
		return true;
	return (buf[0] & 0x1f) == 0 &&
	       !zbc_inquiry(fd, ZBC_VPD_BLOCK_CHARS, buf, sizeof(buf)) &&
	       buf[1] == ZBC_VPD_BLOCK_CHARS && ((buf[8] >> 4) & 3) == 1;
}

/* What zbc_open() checks before it accepts @fd (@path names it): a SCSI
 * device (SG_IO answers) that is zoned; its block size and blocks. */
static int zbc_check(int fd, const char *path, unsigned int *block,
		     uint64_t *blocks, struct errbuf *err)
{
	int version, ret;

	if (ioctl(fd, SG_GET_VERSION_NUM, &version) < 0)
		return err_set(err, ENODEV, "%s: not a SCSI device (SG_GET_VERSION_NUM: %m): fio's libzbc engine opens only libzbc's SCSI and ATA backends, not its zoned block device one; use ioengine=psync with zonemode=zbd",
			       path);
	if (!zbc_is_zoned(fd))
		return err_set(err, ENXIO, "%s: not a zoned SCSI device (ZBC host-managed or host-aware), which ioengine=libzbc needs",
			       path);
	ret = scsi_capacity(fd, block, blocks);
	if (ret) {
		errno = -ret;
		return err_set(err, -ret, "%s: READ CAPACITY failed: %m", path);
	}
	return 0;
}

static int libzbc_inspect_device(const char *path, struct engine_device *dev,
				 struct errbuf *err)
{
	const char *base = strrchr(path, '/');
	struct stat st;
	uint64_t blocks;
	int fd, ret;

	if (stat(path, &st) < 0)
		return err_set(err, errno, "%s: %m: ioengine=libzbc needs a zoned SCSI disk (/dev/sdX or /dev/sgN)", path);
	if (!S_ISBLK(st.st_mode) && !S_ISCHR(st.st_mode))
		return err_set(err, ENODEV, "%s: not a device: ioengine=libzbc only works on block or character devices (a zoned SCSI disk)", path);
	/* Read-only: inspecting must never be able to change the device. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return err_set(err, errno, "%s: %m", path);
	ret = zbc_check(fd, path, &dev->block_size, &blocks, err);
	if (!ret) {
		dev->size = blocks * dev->block_size;
		if (S_ISBLK(st.st_mode))
			snprintf(dev->disk, sizeof(dev->disk), "%s", base ? base + 1 : path);
		else
			scsi_sg_disk_of(path, dev->disk, sizeof(dev->disk));
		ret = 1;
	}
	close(fd);
	return ret;
}

static int libzbc_init(struct worker *w, struct errbuf *err)
{
	struct libzbc_data *d = w->engine_data;
	uint64_t blocks;
	int ret;

	ret = zbc_check(w->fd, w->path, &d->block, &blocks, err);
	if (!ret && w->region_start % d->block)
		ret = err_set(err, EINVAL, "libzbc on %s: offset %llu is not a multiple of the device's %u-byte blocks",
			      w->path, (unsigned long long)w->region_start, d->block);
	return ret;
}

/* zbc_pread / zbc_pwrite: READ(16) or WRITE(16), one command per I/O. */
static enum io_result libzbc_queue(struct worker *w, struct io_unit *u)
{
	struct libzbc_data *d = w->engine_data;
	unsigned char cdb[16] = { 0 };
	bool rd = u->ddir == DDIR_READ;
	int ret;

	if ((u->offset | u->len) % d->block || !u->len) {
		u->result = -EINVAL; /* bssplit or a short last block */
		return IO_COMPLETED;
	}
	cdb[0] = rd ? 0x88 : 0x8a;
	scsi_put_be64(cdb + 2, u->offset / d->block);
	scsi_put_be32(cdb + 10, u->len / d->block);
	ret = scsi_run(u->fd, cdb, 16, rd ? SG_DXFER_FROM_DEV : SG_DXFER_TO_DEV,
		       u->buf, u->len, d->sense, 0);
	u->result = ret ? ret : (int64_t)u->len;
	return IO_COMPLETED;
}

/* REPORT ZONES (ZBC IN) of all zones from @lba on, partial: the header's
 * list length counts only the descriptors returned. */
static int zbc_report(int fd, uint64_t lba, unsigned char *buf, unsigned int len)
{
	unsigned char cdb[16] = { ZBC_IN, ZBC_SA_REPORT_ZONES }, sense[SCSI_SENSE_LEN];

	scsi_put_be64(cdb + 2, lba);
	scsi_put_be32(cdb + 10, len);
	cdb[14] = ZBC_RO_PARTIAL;
	memset(buf, 0, len);
	return scsi_run(fd, cdb, 16, SG_DXFER_FROM_DEV, buf, len, sense, 0);
}

/* One zone descriptor as fio's libzbc_report_zones maps it: no zone
 * capacity in ZBC, read-only and offline zones both offline. */
static int zone_from_desc(struct zbd_zone *zz, const unsigned char *p,
			  unsigned int block)
{
	unsigned int type = p[0] & 0x0f, cond = p[1] >> 4;

	if (type != ZBC_ZT_CONV && type != ZBC_ZT_SEQ_REQ && type != ZBC_ZT_SEQ_PREF)
		return -EIO;
	zz->start = scsi_get_be64(p + 16) * block;
	zz->cap_end = zz->start + scsi_get_be64(p + 8) * block;
	zz->has_wp = type != ZBC_ZT_CONV && cond != ZBC_ZC_NOT_WP;
	zz->offline = cond == ZBC_ZC_RDONLY || cond == ZBC_ZC_OFFLINE;
	/* a full zone's write pointer field is invalid */
	zz->wp = cond == ZBC_ZC_FULL ? zz->cap_end :
		 zz->has_wp && !zz->offline ? scsi_get_be64(p + 24) * block : zz->start;
	return 0;
}

static int libzbc_report_zones(int fd, const struct zbd_dev *dev, uint64_t offset,
			       struct zbd_zone *zones, unsigned int nr)
{
	unsigned int batch = nr < ZBC_REPORT_BATCH ? nr : ZBC_REPORT_BATCH;
	unsigned int len = (ZBC_DESC * (batch + 1) + 511) / 512 * 512, n;
	unsigned char *buf = malloc(len);
	int ret;

	if (!buf)
		return -ENOMEM;
	ret = zbc_report(fd, offset / dev->block, buf, len);
	if (ret)
		goto cleanup;
	n = scsi_get_be32(buf) / ZBC_DESC;
	if (n > batch)
		n = batch;
	for (unsigned int i = 0; i < n && !ret; i++)
		ret = zone_from_desc(&zones[i], buf + ZBC_DESC * (i + 1), dev->block);
	if (!ret)
		ret = n ? (int)n : -EIO;
cleanup:
	free(buf);
	return ret;
}

/* The zone size (the first zone's: ZBC zones are all one size but the
 * last) and zbc_device_info's zbd_max_nr_open_seq_req. */
static int libzbc_probe(int fd, struct zbd_dev *dev)
{
	unsigned char vpd[64];
	struct zbd_zone first;
	uint64_t blocks;
	int ret;

	memset(dev, 0, sizeof(*dev));
	ret = scsi_capacity(fd, &dev->block, &blocks);
	if (!ret)
		ret = libzbc_report_zones(fd, dev, 0, &first, 1);
	if (ret < 0)
		return ret;
	dev->zone_size = first.cap_end - first.start;
	if (!zbc_inquiry(fd, ZBC_VPD_ZONED_CHARS, vpd, sizeof(vpd)) &&
	    vpd[1] == ZBC_VPD_ZONED_CHARS &&
	    scsi_get_be32(vpd + 16) != ZBC_NO_LIMIT)
		dev->max_open = scsi_get_be32(vpd + 16);
	return 0;
}

/* RESET WRITE POINTER (ZBC OUT) of the zone at @offset. */
static int libzbc_reset_zone(int fd, const struct zbd_dev *dev, uint64_t offset)
{
	unsigned char cdb[16] = { ZBC_OUT, ZBC_SA_RESET_WP }, sense[SCSI_SENSE_LEN];

	scsi_put_be64(cdb + 2, offset / dev->block);
	return scsi_run(fd, cdb, 16, SG_DXFER_NONE, NULL, 0, sense, 0);
}

static const struct zbd_dev_ops libzbc_zone_ops = {
	.probe = libzbc_probe,
	.report = libzbc_report_zones,
	.reset = libzbc_reset_zone,
};

ENGINE_DEFINE(libzbc, ENGINE_SYNC | ENGINE_NO_ODIRECT, ENGINE_STATE(struct libzbc_data),
	      .init = libzbc_init, .queue = libzbc_queue,
	      .inspect_device = libzbc_inspect_device,
	      .zone_ops = &libzbc_zone_ops);
