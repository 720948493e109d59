// SPDX-License-Identifier: GPL-2.0
/*
 * pvsync: one preadv/pwritev of a single iovec per I/O on the worker's
 * thread, as fio's pvsync engine.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/uio.h>

#include "workload/engines/shared.h"
#include "workload/worker.h"

static enum io_result pvsync_queue(struct worker *w, struct io_unit *u)
{
	struct iovec iov = { .iov_base = u->buf, .iov_len = u->len };
	off_t off = (off_t)u->offset;
	ssize_t ret;

	(void)w;
	do
		ret = u->ddir == DDIR_WRITE ? pwritev(u->fd, &iov, 1, off)
					    : preadv(u->fd, &iov, 1, off);
	while (ret < 0 && errno == EINTR);
	u->result = engine_result(ret);
	return IO_COMPLETED;
}

const struct engine_ops pvsync_engine = {
	.name = "pvsync",
	.flags = ENGINE_SYNC | ENGINE_UNIT_FD,
	.init = engine_init_stateless,
	.queue = pvsync_queue,
	.cleanup = engine_cleanup_stateless,
};
