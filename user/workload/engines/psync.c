// SPDX-License-Identifier: GPL-2.0
/*
 * psync: one pread/pwrite per I/O on the worker's thread, fio's default
 * engine.  It takes no options (fio's pvsync2 is the one with per-I/O
 * flags).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <unistd.h>

#include "workload/engines/shared.h"
#include "workload/worker.h"

static enum io_result psync_queue(struct worker *w, struct io_unit *u)
{
	off_t off = (off_t)u->offset;
	ssize_t ret;

	(void)w;
	do
		ret = u->ddir == DDIR_WRITE ? pwrite(u->fd, u->buf, u->len, off)
					    : pread(u->fd, u->buf, u->len, off);
	while (ret < 0 && errno == EINTR);
	u->result = engine_result(ret);
	return IO_COMPLETED;
}

const struct engine_ops psync_engine = {
	.name = "psync",
	.flags = ENGINE_SYNC | ENGINE_UNIT_FD,
	.init = engine_init_stateless,
	.queue = psync_queue,
	.cleanup = engine_cleanup_stateless,
};
