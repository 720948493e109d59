// SPDX-License-Identifier: GPL-2.0
/*
 * e4defrag: fio's engine that simulates online defragmentation of an ext4
 * file.  Each write I/O is one EXT4_IOC_MOVE_EXT ioctl that swaps the I/O's
 * blocks of the job's file with those of a donor file (donorname=,
 * preallocated, or with inplace=1 allocated and freed around each I/O);
 * the data does not change, its layout does.  Reads fail with EINVAL, as
 * fio's do.  As fio, the donor file is created in directory= (or the
 * working directory) and left there.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "workload/engines/shared.h"
#include "workload/worker.h"

/* The kernel's ABI (fs/ext4/ext4.h), not in the uapi headers. */
struct move_extent {
	uint32_t reserved;     /* zero */
	uint32_t donor_fd;
	uint64_t orig_start;   /* in blocks */
	uint64_t donor_start;
	uint64_t len;
	uint64_t moved_len;    /* set by the kernel */
};
#ifndef EXT4_IOC_MOVE_EXT
#define EXT4_IOC_MOVE_EXT _IOWR('f', 15, struct move_extent)
#endif

struct e4defrag_opts {
	char donorname[240];
	unsigned int inplace;
};
ENGINE_OPTS_FIT(struct e4defrag_opts);

#define EOPT(f) OPT_FIELD(struct e4defrag_opts, f)

static const struct opt_desc e4defrag_options[] = {
	STR_OPT("donorname", EOPT(donorname), NULL,
		"File used as a block donor (in directory=, created if missing)"),
	UINT_OPT("inplace", EOPT(inplace), NULL, 0, 1, "Alloc and free space inside defrag event"),
	{ .name = NULL },
};

struct e4defrag_data {
	int donor_fd;
	unsigned int bsz;      /* the donor's st_blksize: the ioctl's unit */
};

static int e4defrag_check_job(const struct job *job, const char *where,
			      struct errbuf *err)
{
	const struct e4defrag_opts *o = engine_opts_of(job);

	if (!o->donorname[0])
		return err_set(err, EINVAL, "%s: ioengine=e4defrag needs donorname=", where);
	/* it moves blocks and writes no data to verify */
	return engine_refuse_verify(job, where, err);
}

static void e4defrag_cleanup(struct worker *w)
{
	struct e4defrag_data *d = w->engine_data;

	if (!d)
		return;
	if (d->donor_fd >= 0)
		close(d->donor_fd);
}

/* The ioctl exists on ext4 only; elsewhere every I/O would fail ENOTTY. */
static int e4defrag_need_ext4(struct worker *w, struct errbuf *err)
{
	struct statfs fs;
	int ret = engine_need_regular_file(w, "EXT4_IOC_MOVE_EXT moves the blocks "
					   "of files", err);

	if (ret)
		return ret;
	if (fstatfs(w->fd, &fs))
		return err_set(err, errno, "e4defrag on %s: fstatfs: %m", w->path);
	if (fs.f_type != EXT4_SUPER_MAGIC)
		return err_set(err, EOPNOTSUPP, "e4defrag on %s: the file is not on ext4 "
			       "(filesystem magic %#lx): EXT4_IOC_MOVE_EXT is ext4's",
			       w->path, (unsigned long)fs.f_type);
	return 0;
}

/* Opens (creates) the donor and, unless inplace=1, allocates it over the
 * job's range, as fio does. */
static int e4defrag_open_donor(struct worker *w, struct e4defrag_data *d,
			       struct errbuf *err)
{
	const struct e4defrag_opts *o = engine_opts_of(w->job);
	uint64_t end = w->file_size ? w->file_size : w->region_start + w->region_len;
	char path[PATH_MAX + 256];
	struct stat st;

	snprintf(path, sizeof(path), "%s%s%s", w->job->directory,
		 w->job->directory[0] ? "/" : "", o->donorname);
	d->donor_fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	if (d->donor_fd < 0)
		return err_set(err, errno, "e4defrag: donor file %s: %m", path);
	if (!o->inplace && end > w->region_start &&
	    fallocate(d->donor_fd, 0, (off_t)w->region_start, (off_t)(end - w->region_start)))
		return err_set(err, errno, "e4defrag: allocating %llu bytes of donor file %s: %m",
			       (unsigned long long)(end - w->region_start), path);
	if (fstat(d->donor_fd, &st))
		return err_set(err, errno, "e4defrag: donor file %s: fstat: %m", path);
	d->bsz = (unsigned int)st.st_blksize;
	return 0;
}

static int e4defrag_init(struct worker *w, struct errbuf *err)
{
	struct e4defrag_data *d;
	int ret = e4defrag_need_ext4(w, err);

	if (ret)
		return ret;
	d = w->engine_data;
	d->donor_fd = -1;
	ret = e4defrag_open_donor(w, d, err);
	if (ret)
		e4defrag_cleanup(w);
	return ret;
}

/* One move of the unit's blocks; the bytes moved, or -errno. */
static int64_t e4defrag_move(struct worker *w, const struct e4defrag_data *d,
			     const struct io_unit *u)
{
	struct move_extent me = { .donor_fd = (uint32_t)d->donor_fd };
	uint64_t moved;
	int ret;

	me.orig_start = u->offset / d->bsz;
	me.donor_start = me.orig_start;
	me.len = (u->offset + u->len + d->bsz - 1) / d->bsz - me.orig_start;
	ret = ioctl(w->fd, EXT4_IOC_MOVE_EXT, &me);
	if (ret)
		return -(int64_t)errno;
	moved = me.moved_len * d->bsz;
	if (moved > u->len)
		moved = u->len;
	/* nothing moved: the range is past the file's end (fio's EINVAL) */
	return moved ? (int64_t)moved : -EINVAL;
}

static enum io_result e4defrag_queue(struct worker *w, struct io_unit *u)
{
	const struct e4defrag_data *d = w->engine_data;
	const struct e4defrag_opts *o = engine_opts_of(w->job);
	bool inplace = o->inplace;

	/* defragmenting keeps the data: only writes, as fio */
	if (u->ddir != DDIR_WRITE) {
		u->result = -EINVAL;
		return IO_COMPLETED;
	}
	if (inplace && fallocate(d->donor_fd, 0, (off_t)u->offset, (off_t)u->len)) {
		u->result = -(int64_t)errno;
		return IO_COMPLETED;
	}
	u->result = e4defrag_move(w, d, u);
	if (inplace && ftruncate(d->donor_fd, 0) && u->result >= 0)
		u->result = -(int64_t)errno;
	return IO_COMPLETED;
}

ENGINE_DEFINE(e4defrag, ENGINE_SYNC | ENGINE_RDWR,
	      ENGINE_STATE(struct e4defrag_data), ENGINE_STATE_OPS(e4defrag),
	      .options = e4defrag_options, .check_job = e4defrag_check_job);
