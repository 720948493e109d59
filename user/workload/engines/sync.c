// SPDX-License-Identifier: GPL-2.0
/*
 * sync: read/write at the file position, moved with lseek only when the
 * I/O does not start where the last one ended, as fio's sync engine does:
 * a sequential job is one lseek-free stream of read(2)/write(2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <unistd.h>

#include "workload/engines/shared.h"
#include "workload/worker.h"

struct sync_data {
	uint64_t pos; /* the file position after the last I/O */
};

static enum io_result sync_queue(struct worker *w, struct io_unit *u)
{
	struct sync_data *d = w->engine_data;
	ssize_t ret;

	if (d->pos != u->offset &&
	    lseek(u->fd, (off_t)u->offset, SEEK_SET) < 0) {
		u->result = -errno;
		d->pos = UINT64_MAX; /* unknown: seek again next time */
		return IO_COMPLETED;
	}
	do
		ret = u->ddir == DDIR_WRITE ? write(u->fd, u->buf, u->len)
					    : read(u->fd, u->buf, u->len);
	while (ret < 0 && errno == EINTR);
	u->result = engine_result(ret);
	d->pos = ret < 0 ? UINT64_MAX : u->offset + (uint64_t)ret;
	return IO_COMPLETED;
}

/* A freshly opened file is at position 0, as the zeroed state says. */
ENGINE_DEFINE(sync, ENGINE_SYNC | ENGINE_UNIT_FD, ENGINE_STATE(struct sync_data),
	      .queue = sync_queue);
