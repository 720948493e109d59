// SPDX-License-Identifier: GPL-2.0
/*
 * mtd: fio's engine for an MTD character device (/dev/mtdN), raw flash,
 * through libmtd (mtd-utils) as fio's: the geometry from
 * mtd_get_dev_info (sysfs, MEMGETINFO), reads and writes with
 * mtd_read/mtd_write (read(2)/write(2) on the node), trims as erases
 * (MEMERASE), one erase block at a time so an error names its block.  A
 * failure with EIO marks the block bad (MEMSETBADBLOCK) and skip_bad=1
 * skips known bad blocks (MEMGETBADBLOCK), failing that piece with EIO
 * as fio does.  The driver, not the block layer, does the I/O: the
 * block family sees none of it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stddef.h>
#include <stdint.h> /* libmtd.h uses its types without including it */
#include <libmtd.h>
#include <string.h>

#include "workload/engines/char_dev.h"
#include "workload/engines/shared.h"
#include "workload/worker.h"

#define MTD_NEEDS "ioengine=mtd needs an MTD character device (/dev/mtdN)"

struct mtd_opts {
	bool skip_bad;
};
ENGINE_OPTS_FIT(struct mtd_opts);

static const struct opt_desc mtd_options[] = {
	{ .name = "skip_bad", .type = OPT_BOOL, OPT_FIELD(struct mtd_opts, skip_bad),
	  .help = "Skip operations against known bad blocks (MEMGETBADBLOCK)" },
	{ .name = NULL },
};

struct mtd_data {
	libmtd_t lib;
	struct mtd_dev_info info;
};

/* libmtd_open fails with errno 0 when the kernel has no MTD at all. */
static int mtd_open_info(const char *path, libmtd_t *lib,
			 struct mtd_dev_info *info, struct errbuf *err)
{
	dev_t rdev;
	int ret = char_dev_of_class(path, "mtd", MTD_NEEDS, &rdev, err);

	if (ret)
		return ret;
	*lib = libmtd_open();
	if (!*lib)
		return err_set(err, errno ? errno : ENODEV, "%s: libmtd_open: %s",
			       path, errno ? strerror(errno) : "the kernel has no MTD support");
	if (mtd_get_dev_info(*lib, path, info))
		return err_set(err, errno, "%s: mtd_get_dev_info: %m", path);
	return 0;
}

/* The size fio's get_file_size takes from mtd_get_dev_info. */
static int mtd_inspect_device(const char *path, struct engine_device *dev,
			      struct errbuf *err)
{
	struct mtd_dev_info info;
	libmtd_t lib = NULL;
	int ret = mtd_open_info(path, &lib, &info, err);

	if (!ret) {
		dev->size = (uint64_t)info.size;
		dev->block_size = (unsigned int)info.min_io_size;
		ret = 1;
	}
	if (lib)
		libmtd_close(lib);
	return ret;
}

/* An erase takes whole erase blocks: fio fails an unaligned trim with
 * EINVAL ("trim on MTD must be erase block-aligned") on every I/O, and
 * then erases its block anyway; iodig refuses the job before any I/O. */
static int mtd_check_trims(const struct worker *w, const struct mtd_data *d,
			   struct errbuf *err)
{
	uint64_t eb = (uint64_t)d->info.eb_size;

	if (!rw_has_trim(w->job->rw))
		return 0;
	if (w->job->bs[DDIR_TRIM] % eb || w->region_start % eb)
		return err_set(err, EINVAL, "mtd on %s: trim on MTD must be erase block-aligned: the trim block size %u and offset %llu must be multiples of the %llu-byte erase block",
			       w->path, w->job->bs[DDIR_TRIM],
			       (unsigned long long)w->region_start, (unsigned long long)eb);
	return 0;
}

static int mtd_init(struct worker *w, struct errbuf *err)
{
	struct mtd_data *d = w->engine_data;
	int ret = mtd_open_info(w->path, &d->lib, &d->info, err);

	return ret ? ret : mtd_check_trims(w, d, err);
}

static void mtd_cleanup(struct worker *w)
{
	struct mtd_data *d = w->engine_data;

	if (d->lib)
		libmtd_close(d->lib);
}

/* One piece of an I/O, inside erase block @eb: 0, or -1 with errno. */
static int mtd_piece(struct worker *w, struct mtd_data *d, enum ddir ddir,
		     int eb, int offs, char *buf, int len)
{
	if (ddir == DDIR_READ)
		return mtd_read(&d->info, w->fd, eb, offs, buf, len);
	if (ddir == DDIR_WRITE)
		return mtd_write(d->lib, &d->info, w->fd, eb, offs, buf, len, NULL, 0, 0);
	if (offs || len != d->info.eb_size) {
		errno = EINVAL;
		return -1;
	}
	return mtd_erase(d->lib, &d->info, w->fd, eb);
}

/* fio's per-block step: skip a known bad block (EIO), else do the piece;
 * an EIO marks the block bad.  0 to go on to the next block, else the
 * I/O ends there; *@error keeps the last error. */
static int mtd_block(struct worker *w, struct io_unit *u, int eb, int offs,
		     int done, int len, int *error)
{
	struct mtd_data *d = w->engine_data;
	const struct mtd_opts *o = engine_opts_of(w->job);
	int bad = o->skip_bad ? mtd_is_bad(&d->info, w->fd, eb) : 0;

	if (bad < 0) {
		*error = errno;
		return -1;
	}
	if (bad) {
		*error = EIO;
		return 0;
	}
	if (!mtd_piece(w, d, u->ddir, eb, offs, (char *)u->buf + done, len))
		return 0;
	*error = errno;
	if (*error == EIO && mtd_mark_bad(&d->info, w->fd, eb)) {
		*error = errno;
		return -1;
	}
	return 0;
}

static enum io_result mtd_queue(struct worker *w, struct io_unit *u)
{
	struct mtd_data *d = w->engine_data;
	uint64_t eb_size = (uint64_t)d->info.eb_size;
	int error = 0;

	for (uint32_t done = 0; done < u->len;) {
		uint64_t at = u->offset + done;
		int offs = (int)(at % eb_size);
		int len = (int)(u->len - done < eb_size - (uint64_t)offs ?
				u->len - done : eb_size - (uint64_t)offs);

		if (mtd_block(w, u, (int)(at / eb_size), offs, (int)done, len, &error))
			break;
		done += (uint32_t)len;
	}
	u->result = error ? -(int64_t)error : (int64_t)u->len;
	return IO_COMPLETED;
}

ENGINE_DEFINE(mtd, ENGINE_SYNC | ENGINE_OWN_TRIM, ENGINE_STATE(struct mtd_data),
	      ENGINE_STATE_OPS(mtd), .options = mtd_options,
	      .inspect_device = mtd_inspect_device);
