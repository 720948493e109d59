// SPDX-License-Identifier: GPL-2.0
/*
 * Trims, after fio 3.33's do_io_u_trim and os_trim (os/os-linux.h): a
 * BLKDISCARD of the I/O's range on a block device.  On a regular file
 * fio's ioctl fails (ENOTTY) and ends the job; iodig punches a hole
 * instead (fallocate PUNCH_HOLE | KEEP_SIZE, what fio's falloc engine
 * does for a trim), the file system's discard of a range.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>

#include "workload/trim.h"
#include "workload/worker.h"

enum { TRIM_UNKNOWN, TRIM_DISCARD, TRIM_PUNCH };

bool trim_by_worker(const struct job *job)
{
	return rw_has_trim(job->rw) && !(job->engine->flags & ENGINE_OWN_TRIM);
}

/* The job's files are all of one kind, as the runner laid them out. */
static int trim_kind(struct worker *w, int fd)
{
	struct stat st;

	if (!w->trim_kind)
		w->trim_kind = fstat(fd, &st) == 0 && S_ISBLK(st.st_mode) ?
			       TRIM_DISCARD : TRIM_PUNCH;
	return w->trim_kind;
}

static int64_t trim_range(struct worker *w, int fd, uint64_t offset,
			  uint32_t len)
{
	uint64_t range[2] = { offset, len };
	int ret;

	if (trim_kind(w, fd) == TRIM_DISCARD)
		ret = ioctl(fd, BLKDISCARD, range);
	else
		ret = fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				(off_t)offset, (off_t)len);
	return ret < 0 ? -errno : (int64_t)len;
}

enum io_result trim_or_queue(struct worker *w, struct io_unit *u,
			     unsigned int queued)
{
	int fd = w->job->engine->flags & ENGINE_UNIT_FD ? u->fd : w->fd;

	if (u->ddir != DDIR_TRIM || !trim_by_worker(w->job))
		return w->job->engine->queue(w, u);
	if (queued)
		return IO_BUSY;
	u->result = trim_range(w, fd, u->offset, u->len);
	return IO_COMPLETED;
}

enum ddir trim_next_ddir(struct worker *w)
{
	if (rw_is_trimwrite(w->job->rw))
		return offsets_trimwrite_ddir(&w->offsets);
	return DDIR_TRIM;
}

bool trim_fill_write(struct worker *w, struct io_unit *u)
{
	uint64_t rel;
	uint32_t len;

	if (u->ddir != DDIR_WRITE || !rw_is_trimwrite(w->job->rw) ||
	    !offsets_after_trim(&w->offsets, &rel, &len))
		return false;
	u->len = offsets_take(&w->offsets, DDIR_WRITE, rel, len, false);
	u->offset = w->region_start + rel;
	u->result = 0;
	return true;
}

int trim_check_job(const struct job *job, const char *where,
		   struct errbuf *err)
{
	unsigned int flags = job->engine->flags;

	if (!rw_has_trim(job->rw) || (flags & ENGINE_OWN_TRIM))
		return 0;
	if ((flags & (ENGINE_FILE_OPS | ENGINE_DISKLESS)) ||
	    job->engine->inspect_device)
		return err_set(err, ENOTSUP, "%s: rw=%s: engine %s issues no "
			       "trims (iodig trims with BLKDISCARD or a punched "
			       "hole on the job's file)", where,
			       rw_mode_name(job->rw), job->engine->name);
	if (rw_is_trimwrite(job->rw) && job->nrfiles > 1)
		return err_set(err, ENOTSUP, "%s: rw=%s with nrfiles=%u: iodig "
			       "pairs each trim with its write in one file only",
			       where, rw_mode_name(job->rw), job->nrfiles);
	return 0;
}
