// SPDX-License-Identifier: GPL-2.0
/* When fsync=/fdatasync=/sync_file_range= syncs, and the syncs
 * (workload/file_sync.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload/file_sync.h"
#include "workload/files.h"
#include "workload/worker.h"

#define NOTHING_WRITTEN ((struct written_range){ .first = UINT64_MAX, .end = 0 })

int file_sync_init(struct file_sync *s, int fd, const struct job *job,
		   unsigned int nr_files)
{
	*s = (struct file_sync){ .fd = fd };
	if (!job->sync_file_range_nr)
		return 0;
	s->written = malloc(nr_files * sizeof(*s->written));
	if (!s->written)
		return -ENOMEM;
	s->nr_files = nr_files;
	for (unsigned int i = 0; i < nr_files; i++)
		s->written[i] = NOTHING_WRITTEN;
	return 0;
}

void file_sync_free(struct file_sync *s)
{
	free(s->written);
	s->written = NULL;
}

static struct written_range *written_of(const struct file_sync *s, unsigned int file)
{
	return s->written && file < s->nr_files ? &s->written[file] : NULL;
}

const char *io_sync_name(enum io_sync k)
{
	return k == IO_SYNC_DATASYNC ? "fdatasync" :
	       k == IO_SYNC_FILE_RANGE ? "sync_file_range" : "fsync";
}

void file_sync_issued(struct file_sync *s, const struct io_unit *u)
{
	if (u->sync != IO_SYNC_NONE || u->ddir != DDIR_WRITE)
		return;
	s->writes++;
	s->fd = u->fd;
	s->file = u->file;
	s->aimed = false;
}

void file_sync_aim(struct file_sync *s, int fd, unsigned int file)
{
	s->fd = fd;
	s->file = file;
	s->aimed = true;
}

void file_sync_sent(struct file_sync *s)
{
	s->aimed = false;
}

void file_sync_new_loop(struct file_sync *s)
{
	s->last_was_sync = false;
	s->aimed = false;
}

void file_sync_completed(struct file_sync *s, const struct io_unit *u)
{
	struct written_range *r = written_of(s, u->file);

	s->last_was_sync = u->sync != IO_SYNC_NONE;
	if (!r)
		return;
	if (s->last_was_sync) {
		*r = NOTHING_WRITTEN; /* any sync of the file, as fio's */
	} else if (u->ddir == DDIR_WRITE && u->result > 0) {
		if (u->offset < r->first)
			r->first = u->offset;
		if (u->offset + (uint64_t)u->result > r->end)
			r->end = u->offset + (uint64_t)u->result;
	}
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
	if (every(s->writes, job->sync_file_range_nr))
		return IO_SYNC_FILE_RANGE;
	return IO_SYNC_NONE;
}

void file_sync_fill(const struct file_sync *s, struct io_unit *u, enum io_sync k)
{
	const struct written_range *r = written_of(s, s->file);

	u->sync = k;
	u->fd = s->fd;
	u->file = s->file;
	u->ddir = DDIR_WRITE; /* not looked at for a sync unit */
	u->len = 0;
	u->offset = 0;
	if (k == IO_SYNC_FILE_RANGE && r) {
		u->offset = r->first;
		/* fio's io_u length is 32 bits here too */
		u->len = r->first < r->end ? (uint32_t)(r->end - r->first) : 0;
	}
	u->nr_ranges = 0;
	u->result = 0;
}

/* The range written to file @file since its last sync, by the worker:
 * no call when there is none. */
static int sync_written_range(const struct file_sync *s, int fd, unsigned int file,
			      unsigned int flags)
{
	const struct written_range *r = written_of(s, file);

	if (!r || r->first >= r->end)
		return 0;
	if (sync_file_range(fd, (off64_t)r->first, (off64_t)(r->end - r->first), flags))
		return -errno;
	return 0;
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
	struct written_range *r = written_of(s, s->file);
	int ret;

	s->last_was_sync = true; /* issued and completed at once */
	s->aimed = false;
	if (k != IO_SYNC_FILE_RANGE)
		ret = sync_one(w, e, s->fd, s->file, k == IO_SYNC_DATASYNC);
	else if (s->fd < 0)
		ret = 0;
	else
		ret = sync_written_range(s, s->fd, s->file, w->job->sync_file_range_flags);
	if (r)
		*r = NOTHING_WRITTEN;
	return ret;
}

int file_sync_replayed(struct worker *w, const struct engine_ops *e,
		       unsigned int file, bool datasync)
{
	return sync_one(w, e, w->fds ? w->fds[file] : w->fd, file, datasync);
}

/* File @k's sync at the end; one closed once done opens for it and
 * closes after, as fio's fio_file_fsync. */
static int sync_file_at_end(struct worker *w, const struct engine_ops *e,
			    unsigned int k)
{
	struct errbuf err = { { 0 } };
	bool reopen = w->fds && w->fds[k] < 0 && worker_files_limited(w);
	int ret = reopen ? worker_open_file(w, k, &err) : 0;

	if (ret)
		return ret;
	ret = sync_one(w, e, w->fds ? w->fds[k] : w->fd, k, false);
	if (reopen)
		worker_close_file(w, k);
	return ret;
}

int file_sync_at_end(struct worker *w, const struct engine_ops *e)
{
	const struct job *job = w->job;
	unsigned int n = w->fds ? w->nr_files : 1;
	int ret = 0;

	if (!rw_has_write(job->rw) || !(job->end_fsync || job->fsync_on_close))
		return 0;
	for (unsigned int i = 0; i < n && !ret; i++)
		ret = sync_file_at_end(w, e, i);
	return ret;
}

int file_sync_check_job(const struct job *job, const char *where,
			struct errbuf *err)
{
	if (!job->fsync_blocks && !job->fdatasync_blocks && !job->sync_file_range_nr)
		return 0;
	if (job->iodepth <= 1 || engine_is_sync(job) ||
	    job->engine->flags & ENGINE_QUEUED_SYNC || !strcmp(job->engine->name, "libaio"))
		return 0;
	return err_set(err, ENOTSUP, "%s: %s with ioengine=%s at iodepth=%u: iodig "
		       "does not sync beside this engine's I/O in flight as fio does; "
		       "use iodepth=1, or io_uring, posixaio, libaio or a synchronous "
		       "engine", where, job->fsync_blocks ? "fsync" :
		       job->fdatasync_blocks ? "fdatasync" : "sync_file_range",
		       job->engine->name, job->iodepth);
}
