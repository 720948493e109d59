// SPDX-License-Identifier: GPL-2.0
/*
 * posixaio: POSIX AIO (aio_read/aio_write, and aio_fsync for fsync= and
 * fdatasync=, reaped with aio_error and aio_return, waited for with
 * aio_suspend), as fio's posixaio engine.
 * glibc implements POSIX AIO in user space: each request is handed to a
 * pool of helper threads of the worker's process that do plain
 * pread/pwrite, so the kernel sees synchronous I/O from those threads,
 * not from the worker's, and no kernel AIO at all.
 */
#define _GNU_SOURCE
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

#include "workload/engines/shared.h"
#include "workload/worker.h"

struct posixaio_data {
	struct aiocb *cbs;              /* one per unit, unit->engine_priv */
	unsigned int nr_queued;         /* issued by queue(), not committed */
	struct io_unit **busy;          /* in flight */
	unsigned int nr_busy;
	const struct aiocb **waiting;   /* aio_suspend's list */
};

/* Waits for every request in flight, so none writes into buffers the
 * runner frees after cleanup. */
static void posixaio_drain(struct worker *w, struct posixaio_data *d)
{
	/* What cannot be cancelled is waited for below. */
	if (d->nr_busy)
		(void)aio_cancel(w->fd, NULL);
	for (unsigned int i = 0; i < d->nr_busy; i++) {
		const struct aiocb *cb = d->busy[i]->engine_priv;

		while (aio_error(cb) == EINPROGRESS)
			aio_suspend(&cb, 1, NULL);
		aio_return((struct aiocb *)cb);
	}
	d->nr_busy = 0;
}

static void posixaio_cleanup(struct worker *w)
{
	struct posixaio_data *d = w->engine_data;

	if (!d)
		return;
	posixaio_drain(w, d);
}

static int posixaio_init(struct worker *w, struct errbuf *err)
{
	struct posixaio_data *d = w->engine_data;

	(void)err;
	engine_units_priv(w, d->cbs, sizeof(*d->cbs));
	return 0;
}

/* fio starts each request in queue(); commit() has nothing left to do
 * but count them. */
static enum io_result posixaio_queue(struct worker *w, struct io_unit *u)
{
	struct posixaio_data *d = w->engine_data;
	struct aiocb *cb = u->engine_priv;
	int ret;

	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = u->fd;
	cb->aio_buf = u->buf;
	cb->aio_nbytes = u->len;
	cb->aio_offset = (off_t)u->offset;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
	/* fio asks aio_fsync for O_SYNC for fdatasync= too: glibc's helper
	 * thread calls fsync(2) for both */
	if (u->sync != IO_SYNC_NONE)
		ret = aio_fsync(O_SYNC, cb);
	else
		ret = u->ddir == DDIR_WRITE ? aio_write(cb) : aio_read(cb);
	if (ret < 0) {
		u->result = -errno;
		return IO_COMPLETED;
	}
	u->issue_ns = now_ns();
	d->busy[d->nr_busy++] = u;
	d->nr_queued++;
	return IO_QUEUED;
}

static int posixaio_commit(struct worker *w)
{
	struct posixaio_data *d = w->engine_data;
	unsigned int n = d->nr_queued;

	d->nr_queued = 0;
	return (int)n;
}

static int by_index(const void *a, const void *b)
{
	const struct io_unit *x = *(struct io_unit *const *)a, *y = *(struct io_unit *const *)b;

	return (x->index > y->index) - (x->index < y->index);
}

/* fio's posixaio waits on the first 8 requests still in progress only
 * (its SUSPEND_ENTRIES), so it sleeps until one of those is done. */
#define POSIXAIO_SUSPEND_ENTRIES 8u

/*
 * Moves every finished request of the busy list to @done (*@nr_done in
 * it); lists the first POSIXAIO_SUSPEND_ENTRIES still in progress in
 * d->waiting.  Returns how many are waiting.  As fio's posixaio: every
 * finished one is taken whatever the most asked, in the order of the
 * units, which decides whether the last completion seen is a sync
 * (fsync=, workload/file_sync.h).
 */
static unsigned int posixaio_collect(struct posixaio_data *d,
				     struct io_unit **done, unsigned int *nr_done)
{
	unsigned int nr_waiting = 0, nr_busy = 0;

	qsort(d->busy, d->nr_busy, sizeof(*d->busy), by_index);
	for (unsigned int i = 0; i < d->nr_busy; i++) {
		struct io_unit *u = d->busy[i];
		struct aiocb *cb = u->engine_priv;
		int err = aio_error(cb);

		if (err == EINPROGRESS) {
			if (nr_waiting < POSIXAIO_SUSPEND_ENTRIES)
				d->waiting[nr_waiting++] = cb;
			d->busy[nr_busy++] = u;
			continue;
		}
		u->result = err ? -(int64_t)err : (int64_t)aio_return(cb);
		if (err)
			aio_return(cb); /* releases the request */
		done[(*nr_done)++] = u;
	}
	d->nr_busy = nr_busy;
	return nr_waiting;
}

static int posixaio_getevents(struct worker *w, unsigned int min, unsigned int max,
			      struct io_unit **done)
{
	struct posixaio_data *d = w->engine_data;
	unsigned int got = 0;

	(void)max;
	for (;;) {
		unsigned int nr_waiting = posixaio_collect(d, done, &got);

		if (got >= min || !nr_waiting)
			break;
		if (aio_suspend(d->waiting, (int)nr_waiting, NULL) < 0 &&
		    errno != EINTR && errno != EAGAIN)
			return got ? (int)got : -errno;
	}
	return (int)got;
}

ENGINE_DEFINE(posixaio, ENGINE_UNIT_FD | ENGINE_QUEUED_SYNC,
	      ENGINE_STATE_ARRAYS(struct posixaio_data, cbs, busy, waiting),
	      ENGINE_QUEUEING_OPS(posixaio));
