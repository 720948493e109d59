// SPDX-License-Identifier: GPL-2.0
/*
 * sg: SCSI commands through the SG_IO ioctl, on a SCSI generic character
 * device (/dev/sgN) or a SCSI block device (/dev/sdX), as fio's sg engine
 * builds them: READ/WRITE(10), or (16) past 32-bit LBAs, and the write
 * units' other commands of sg_write_mode.  Each I/O is one SG_IO on the
 * worker's thread (fio queues them with write(2)/read(2) on /dev/sgN
 * unless direct or sync is set).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <scsi/sg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload/engines/scsi_cmd.h"
#include "workload/engines/shared.h"
#include "workload/worker.h"

#define SG_MAX_10B_LBA 0xffffffffull
#define SG_CDB_FUA 0x08
/* The sg driver's polled-completion flag (Linux 5.13+), which glibc's
 * scsi/sg.h does not have. */
#ifndef SGV4_FLAG_HIPRI
#define SGV4_FLAG_HIPRI 0x800
#endif

enum sg_wmode {
	SG_WRITE = 1,
	SG_WRITE_VERIFY,
	SG_WRITE_SAME,
	SG_WRITE_SAME_NDOB,
	SG_WRITE_STREAM,
	SG_VERIFY_BYTCHK_00,
	SG_VERIFY_BYTCHK_01,
	SG_VERIFY_BYTCHK_11,
};

/* The engine's job options, in job->engine_opts. */
struct sg_opts {
	bool hipri;
	bool readfua;
	bool writefua;
	unsigned int write_mode;
	unsigned int stream_id;
};
ENGINE_OPTS_FIT(struct sg_opts);

#define SGOPT(f) OPT_FIELD(struct sg_opts, f)

OPT_VALUES(sg_write_mode_values,
	OPT_VAL("write", SG_WRITE),
	/* fio's short names beside the long ones */
	OPT_VAL("write_and_verify", SG_WRITE_VERIFY), OPT_VAL("verify", SG_WRITE_VERIFY),
	OPT_VAL("write_same", SG_WRITE_SAME), OPT_VAL("same", SG_WRITE_SAME),
	OPT_VAL("write_same_ndob", SG_WRITE_SAME_NDOB),
	OPT_VAL("verify_bytchk_00", SG_VERIFY_BYTCHK_00),
	OPT_VAL("verify_bytchk_01", SG_VERIFY_BYTCHK_01),
	OPT_VAL("verify_bytchk_11", SG_VERIFY_BYTCHK_11),
	OPT_VAL("write_stream", SG_WRITE_STREAM));

/* fio's [sg] options. */
static const struct opt_desc sg_options[] = {
	ENGINE_OPT_HIPRI(struct sg_opts, hipri, "Polled completions (SGV4_FLAG_HIPRI)"),
	ENGINE_OPTS_FUA(struct sg_opts),
	ENUM_OPT("sg_write_mode", SGOPT(write_mode), sg_write_mode_values, "write",
		 "Command of write units: write, write_and_verify, write_same, write_same_ndob, "
		 "verify_bytchk_00/01/11, write_stream"),
	UINT_OPT("stream_id", SGOPT(stream_id), NULL, 0, 0xffff,
		 "sg_write_mode=write_stream: the stream of WRITE STREAM(16)"),
	{ .name = NULL },
};

struct sg_data {
	unsigned int block;          /* logical block bytes */
	unsigned char sense[SCSI_SENSE_LEN];
};

static int sg_inspect_device(const char *path, struct engine_device *dev,
			     struct errbuf *err)
{
	struct stat st;
	uint64_t blocks;
	int fd, ret, version;

	if (stat(path, &st) < 0)
		return err_set(err, errno, "%s: %m: ioengine=sg needs a SCSI generic device (/dev/sgN) or a SCSI disk (/dev/sdX)", path);
	if (S_ISBLK(st.st_mode))
		return 0; /* a disk: the runner sizes it, init checks SG_IO */
	if (!S_ISCHR(st.st_mode))
		return err_set(err, ENODEV, "%s: not a device: ioengine=sg sends SCSI commands to /dev/sgN or /dev/sdX", path);
	/* Read-only: inspecting must never be able to change the device. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return err_set(err, errno, "%s: %m", path);
	ret = ioctl(fd, SG_GET_VERSION_NUM, &version);
	if (ret < 0) {
		ret = err_set(err, ENODEV, "%s: not a SCSI generic device (SG_GET_VERSION_NUM: %m): ioengine=sg sends SCSI commands to /dev/sgN or /dev/sdX", path);
		goto cleanup;
	}
	ret = scsi_capacity(fd, &dev->block_size, &blocks);
	if (ret) {
		errno = -ret;
		ret = err_set(err, -ret, "%s: READ CAPACITY failed: %m", path);
		goto cleanup;
	}
	dev->size = blocks * dev->block_size;
	scsi_sg_disk_of(path, dev->disk, sizeof(dev->disk));
	ret = 1;
cleanup:
	close(fd);
	return ret;
}

static int sg_init(struct worker *w, struct errbuf *err)
{
	struct sg_data *d;
	uint64_t blocks;
	int version, ret;

	if (ioctl(w->fd, SG_GET_VERSION_NUM, &version) < 0)
		return err_set(err, ENODEV, "sg on %s: not a SCSI device (SG_GET_VERSION_NUM: %m): ioengine=sg sends SCSI commands to /dev/sgN or /dev/sdX",
			       w->path);
	d = w->engine_data;
	ret = scsi_capacity(w->fd, &d->block, &blocks);
	if (ret) {
		errno = -ret;
		ret = err_set(err, -ret, "sg on %s: READ CAPACITY failed: %m", w->path);
	} else if (w->region_start % d->block) {
		ret = err_set(err, EINVAL, "sg on %s: offset %llu is not a multiple of the device's %u-byte blocks",
			      w->path, (unsigned long long)w->region_start, d->block);
	}
	return ret;
}

/* The LBA and length fields of a (10) or (16) CDB. */
static unsigned int sg_cdb_lba(unsigned char *cdb, uint64_t lba, uint32_t nr,
			       bool cdb16)
{
	if (!cdb16) {
		scsi_put_be32(cdb + 2, (uint32_t)lba);
		scsi_put_be16(cdb + 7, (uint16_t)nr);
		return 10;
	}
	scsi_put_be64(cdb + 2, lba);
	scsi_put_be32(cdb + 10, nr);
	return 16;
}

/* A write unit's command, as fio's sg_write_mode builds it; the bytes it
 * sends in *@len. */
static unsigned int sg_write_cdb(const struct sg_opts *o, unsigned char *cdb,
				 uint64_t lba, uint32_t nr, bool big,
				 unsigned int block, uint32_t *len)
{
	switch (o->write_mode) {
	case SG_WRITE_VERIFY:
		cdb[0] = big ? 0x8e : 0x2e;
		break;
	case SG_WRITE_SAME:
		cdb[0] = big ? 0x93 : 0x41;
		*len = block;
		break;
	case SG_WRITE_SAME_NDOB:
		cdb[0] = 0x93;
		cdb[1] = 0x01;
		*len = 0;
		return sg_cdb_lba(cdb, lba, nr, true);
	case SG_WRITE_STREAM:
		cdb[0] = 0x9a;
		cdb[1] = o->writefua ? SG_CDB_FUA : 0;
		scsi_put_be64(cdb + 2, lba);
		scsi_put_be16(cdb + 10, (uint16_t)o->stream_id);
		scsi_put_be16(cdb + 12, (uint16_t)nr);
		return 16;
	case SG_VERIFY_BYTCHK_00:
	case SG_VERIFY_BYTCHK_01:
	case SG_VERIFY_BYTCHK_11:
		cdb[0] = big ? 0x8f : 0x2f;
		cdb[1] = o->write_mode == SG_VERIFY_BYTCHK_01 ? 0x02 :
			 o->write_mode == SG_VERIFY_BYTCHK_11 ? 0x06 : 0;
		if (o->write_mode == SG_VERIFY_BYTCHK_00)
			*len = 0;
		else if (o->write_mode == SG_VERIFY_BYTCHK_11)
			*len = block;
		break;
	default:
		cdb[0] = big ? 0x8a : 0x2a;
		cdb[1] = o->writefua ? SG_CDB_FUA : 0;
	}
	return sg_cdb_lba(cdb, lba, nr, big);
}

static enum io_result sg_queue(struct worker *w, struct io_unit *u)
{
	const struct sg_opts *o = engine_opts_of(w->job);
	struct sg_data *d = w->engine_data;
	unsigned char cdb[16] = { 0 };
	uint64_t lba = u->offset / d->block;
	uint32_t nr = u->len / d->block, len = u->len;
	bool big = lba >= SG_MAX_10B_LBA || nr > 0xffff;
	unsigned int cdb_len;
	int ret;

	if ((u->offset | u->len) % d->block || !u->len) {
		u->result = -EINVAL; /* bssplit or a short last block */
		return IO_COMPLETED;
	}
	if (u->ddir == DDIR_READ) {
		cdb[0] = big ? 0x88 : 0x28;
		cdb[1] = o->readfua ? SG_CDB_FUA : 0;
		cdb_len = sg_cdb_lba(cdb, lba, nr, big);
	} else {
		cdb_len = sg_write_cdb(o, cdb, lba, nr, big, d->block, &len);
	}
	ret = scsi_run(u->fd, cdb, cdb_len,
		     u->ddir == DDIR_READ ? SG_DXFER_FROM_DEV : SG_DXFER_TO_DEV,
		     u->buf, len, d->sense, o->hipri ? SGV4_FLAG_HIPRI : 0);
	u->result = ret ? ret : (int64_t)u->len;
	return IO_COMPLETED;
}

ENGINE_DEFINE(sg, ENGINE_SYNC | ENGINE_RDWR | ENGINE_ALIGNED_BUFFERS, ENGINE_STATE(struct sg_data),
	      .init = sg_init, .queue = sg_queue,
	      .options = sg_options, .inspect_device = sg_inspect_device);
