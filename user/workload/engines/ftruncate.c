// SPDX-License-Identifier: GPL-2.0
/*
 * ftruncate: fio's engine whose every write is an ftruncate(2) of the file
 * to the I/O's offset (the block size only steps the offsets): rw=write
 * grows the file block by block, randwrite resizes it at random.  Reads
 * are not I/Os it knows.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <unistd.h>

#include "workload/engines/shared.h"
#include "workload/worker.h"

/* fio fails every read with EINVAL at run time; say so before. */
static int ftruncate_check_job(const struct job *job, const char *where,
			       struct errbuf *err)
{
	if (rw_has_read(job->rw))
		return err_set(err, EINVAL, "%s: ioengine=ftruncate only "
			       "writes (each write truncates the file to its "
			       "offset), not rw=%s", where,
			       rw_mode_name(job->rw));
	return engine_refuse_verify(job, where, err);
}

static int ftruncate_init(struct worker *w, struct errbuf *err)
{
	return engine_need_regular_file(w, "a device has no size to truncate",
					err);
}

/* The whole unit counts as done, as fio counts it. */
static ssize_t ftruncate_call(int fd, const struct io_unit *u)
{
	return ftruncate(fd, (off_t)u->offset) < 0 ? -1 : (ssize_t)u->len;
}

SYSCALL_ENGINE(ftruncate, ftruncate_call, 0, ftruncate_init,
	       ftruncate_check_job);
