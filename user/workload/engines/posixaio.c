// SPDX-License-Identifier: GPL-2.0
/*
 * posixaio: POSIX AIO (aio_read/aio_write, reaped with aio_error and
 * aio_return, waited for with aio_suspend), as fio's posixaio engine.
 * glibc implements POSIX AIO in user space: each request is handed to a
 * pool of helper threads of the worker's process that do plain
 * pread/pwrite, so the kernel sees synchronous I/O from those threads,
 * not from the worker's, and no kernel AIO at all.
 */
#define _GNU_SOURCE
#include <aio.h>
#include <errno.h>
#include <string.h>

#include "workload/engines/shared.h"
#include "workload/worker.h"

struct posixaio_data {
	struct aiocb *cbs;              /* one per unit, unit->engine_priv */
	unsigned int nr_queued;         /* issued by queue(), not committed */
	struct io_unit **busy;          /* in flight, in no order */
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

/* Moves every finished request of the busy list to @done (*@nr_done in
 * it), up to @max; lists the rest in d->waiting.  Returns how many are
 * waiting. */
static unsigned int posixaio_collect(struct posixaio_data *d, unsigned int max,
				     struct io_unit **done, unsigned int *nr_done)
{
	unsigned int i = 0, nr_waiting = 0;

	while (i < d->nr_busy) {
		struct io_unit *u = d->busy[i];
		struct aiocb *cb = u->engine_priv;
		int err = aio_error(cb);

		if (err == EINPROGRESS || *nr_done == max) {
			d->waiting[nr_waiting++] = cb;
			i++;
			continue;
		}
		u->result = err ? -(int64_t)err : (int64_t)aio_return(cb);
		if (err)
			aio_return(cb); /* releases the request */
		done[(*nr_done)++] = u;
		d->busy[i] = d->busy[--d->nr_busy];
	}
	return nr_waiting;
}

static int posixaio_getevents(struct worker *w, unsigned int min, unsigned int max,
			      struct io_unit **done)
{
	struct posixaio_data *d = w->engine_data;
	unsigned int got = 0;

	for (;;) {
		unsigned int nr_waiting = posixaio_collect(d, max, done, &got);

		if (got >= min || !nr_waiting)
			break;
		if (aio_suspend(d->waiting, (int)nr_waiting, NULL) < 0 &&
		    errno != EINTR && errno != EAGAIN)
			return got ? (int)got : -errno;
	}
	return (int)got;
}

ENGINE_DEFINE(posixaio, ENGINE_UNIT_FD,
	      ENGINE_STATE_ARRAYS(struct posixaio_data, cbs, busy, waiting),
	      ENGINE_QUEUEING_OPS(posixaio));
