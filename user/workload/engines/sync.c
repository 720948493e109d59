// SPDX-License-Identifier: GPL-2.0
/*
 * sync: read/write at the file position, moved with lseek only when the
 * I/O does not start where the last one ended, as fio's sync engine does:
 * a sequential job is one lseek-free stream of read(2)/write(2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "workload/engines/shared.h"
#include "workload/worker.h"

struct sync_data {
	uint64_t pos; /* the file position after the last I/O */
};

static int sync_init(struct worker *w, struct errbuf *err)
{
	struct sync_data *d = calloc(1, sizeof(*d));

	if (!d)
		return err_set(err, ENOMEM, "sync on %s: out of memory", w->path);
	/* A freshly opened file is at position 0. */
	w->engine_data = d;
	return 0;
}

static enum io_result sync_queue(struct worker *w, struct io_unit *u)
{
	struct sync_data *d = w->engine_data;
	ssize_t ret;

	if (d->pos != u->offset &&
	    lseek(w->fd, (off_t)u->offset, SEEK_SET) < 0) {
		u->result = -errno;
		d->pos = UINT64_MAX; /* unknown: seek again next time */
		return IO_COMPLETED;
	}
	do
		ret = u->ddir == DDIR_WRITE ? write(w->fd, u->buf, u->len)
					    : read(w->fd, u->buf, u->len);
	while (ret < 0 && errno == EINTR);
	u->result = engine_result(ret);
	d->pos = ret < 0 ? UINT64_MAX : u->offset + (uint64_t)ret;
	return IO_COMPLETED;
}

static void sync_cleanup(struct worker *w)
{
	free(w->engine_data);
	w->engine_data = NULL;
}

const struct engine_ops sync_engine = {
	.name = "sync",
	.flags = ENGINE_SYNC,
	ENGINE_STATE_OPS(sync),
};
