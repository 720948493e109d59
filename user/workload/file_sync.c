// SPDX-License-Identifier: GPL-2.0
/* When fsync=/fdatasync= syncs, and the syncs (workload/file_sync.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "workload/file_sync.h"
#include "workload/worker.h"

void file_sync_init(struct file_sync *s, int fd)
{
	*s = (struct file_sync){ .fd = fd };
}

void file_sync_issued(struct file_sync *s, const struct io_unit *u)
{
	if (u->sync != IO_SYNC_NONE || u->ddir != DDIR_WRITE)
		return;
	s->writes++;
	s->fd = u->fd;
	s->file = u->file;
}

void file_sync_completed(struct file_sync *s, const struct io_unit *u)
{
	s->last_was_sync = u->sync != IO_SYNC_NONE;
}

static bool every(uint64_t writes, unsigned int n)
{
	return n && writes && writes % n == 0;
}

enum io_sync file_sync_due(const struct file_sync *s, const struct job *job)
{
	if (s->last_was_sync || !rw_has_write(job->rw))
		return IO_SYNC_NONE;
	if (every(s->writes, job->fsync_blocks))
		return IO_SYNC_FSYNC;
	if (every(s->writes, job->fdatasync_blocks))
		return IO_SYNC_DATASYNC;
	return IO_SYNC_NONE;
}

void file_sync_fill(const struct file_sync *s, struct io_unit *u, enum io_sync k)
{
	u->sync = k;
	u->fd = s->fd;
	u->file = s->file;
	u->ddir = DDIR_WRITE; /* not looked at for a sync unit */
	u->len = 0;
	u->offset = 0;
	u->nr_ranges = 0;
	u->result = 0;
}

/* One sync of file @file (descriptor @fd), by @e or by the worker. */
static int sync_one(struct worker *w, const struct engine_ops *e, int fd,
		    unsigned int file, bool datasync)
{
	if (fd < 0) /* a diskless engine has no file to sync */
		return 0;
	if (e->sync_file)
		return e->sync_file(w, fd, file, datasync);
	if (datasync ? fdatasync(fd) : fsync(fd))
		return -errno;
	return 0;
}

int file_sync_run(struct file_sync *s, struct worker *w,
		  const struct engine_ops *e, enum io_sync k)
{
	s->last_was_sync = true; /* issued and completed at once */
	return sync_one(w, e, s->fd, s->file, k == IO_SYNC_DATASYNC);
}

int file_sync_replayed(struct worker *w, const struct engine_ops *e,
		       unsigned int file, bool datasync)
{
	return sync_one(w, e, w->fds ? w->fds[file] : w->fd, file, datasync);
}

int file_sync_at_end(struct worker *w, const struct engine_ops *e)
{
	const struct job *job = w->job;
	unsigned int n = w->fds ? w->nr_files : 1;
	int ret = 0;

	if (!rw_has_write(job->rw) || !(job->end_fsync || job->fsync_on_close))
		return 0;
	for (unsigned int i = 0; i < n && !ret; i++)
		ret = sync_one(w, e, w->fds ? w->fds[i] : w->fd, i, false);
	return ret;
}

int file_sync_check_job(const struct job *job, const char *where,
			struct errbuf *err)
{
	if (!job->fsync_blocks && !job->fdatasync_blocks)
		return 0;
	if (job->iodepth <= 1 || engine_is_sync(job) ||
	    job->engine->flags & ENGINE_QUEUED_SYNC || !strcmp(job->engine->name, "libaio"))
		return 0;
	return err_set(err, ENOTSUP, "%s: %s with ioengine=%s at iodepth=%u: iodig "
		       "does not sync beside this engine's I/O in flight as fio does; "
		       "use iodepth=1, or io_uring, posixaio, libaio or a synchronous "
		       "engine", where, job->fsync_blocks ? "fsync" : "fdatasync",
		       job->engine->name, job->iodepth);
}
