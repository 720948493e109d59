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
	w->engine_data = NULL;
	return engine_need_regular_file(w, "a device has no size to truncate",
					err);
}

static enum io_result ftruncate_queue(struct worker *w, struct io_unit *u)
{
	int ret;

	do
		ret = ftruncate(w->fd, (off_t)u->offset);
	while (ret < 0 && errno == EINTR);
	u->result = ret < 0 ? -(int64_t)errno : (int64_t)u->len;
	return IO_COMPLETED;
}

const struct engine_ops ftruncate_engine = {
	.name = "ftruncate",
	.flags = ENGINE_SYNC,
	.init = ftruncate_init,
	.queue = ftruncate_queue,
	.cleanup = engine_cleanup_stateless,
	.check_job = ftruncate_check_job,
};
