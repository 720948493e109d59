// SPDX-License-Identifier: GPL-2.0
/*
 * falloc: fio's engine whose I/Os are fallocate(2) calls over the I/O's
 * range: a read allocates without changing the file size
 * (FALLOC_FL_KEEP_SIZE), a write allocates and extends it (mode 0).
 * fio's third mode, a trim punching a hole, needs rw=trim, which iodig
 * does not issue.  The file is opened read-write for every job, as fio's
 * falloc opens it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>

#include "workload/engines/shared.h"
#include "workload/worker.h"

/* A block device takes only hole punching and zeroing (block/fops.c):
 * both fio modes here would fail with EOPNOTSUPP on every I/O. */
static int falloc_init(struct worker *w, struct errbuf *err)
{
	w->engine_data = NULL;
	return engine_need_regular_file(w, "fallocate allocates blocks only "
					"to files (a device refuses both modes "
					"with EOPNOTSUPP)", err);
}

static enum io_result falloc_queue(struct worker *w, struct io_unit *u)
{
	int mode = u->ddir == DDIR_READ ? FALLOC_FL_KEEP_SIZE : 0;
	int ret;

	do
		ret = fallocate(w->fd, mode, (off_t)u->offset, (off_t)u->len);
	while (ret < 0 && errno == EINTR);
	u->result = ret < 0 ? -(int64_t)errno : (int64_t)u->len;
	return IO_COMPLETED;
}

const struct engine_ops falloc_engine = {
	.name = "falloc",
	.flags = ENGINE_SYNC | ENGINE_RDWR,
	.init = falloc_init,
	.queue = falloc_queue,
	.cleanup = engine_cleanup_stateless,
	.check_job = engine_refuse_verify,
};
