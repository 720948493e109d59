// SPDX-License-Identifier: GPL-2.0
/*
 * null: fio's engine that does no I/O and completes it at once.  It opens
 * no file and needs no target (ENGINE_DISKLESS), so it measures iodig's
 * own loop, as fio's measures fio.  At iodepth=1 queue() completes each
 * I/O, a sync engine; deeper, queue() holds I/Os until commit() makes
 * them all complete and refuses more (IO_BUSY) until they are reaped,
 * which is what fio's null does.  With verify= it does the verify
 * reads and checks nothing, as fio's (workload/verify_opts.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "workload/engines/shared.h"
#include "workload/worker.h"

struct null_data {
	struct io_unit **queued;   /* held by queue() */
	unsigned int nr_queued;
	struct io_unit **done;     /* completed by commit(), not yet reaped */
	unsigned int nr_done;
};

static void null_cleanup(struct worker *w)
{
	struct null_data *d = w->engine_data;

	if (!d)
		return;
	free(d->queued);
	free(d->done);
	free(d);
	w->engine_data = NULL;
}

static int null_init(struct worker *w, struct errbuf *err)
{
	struct null_data *d = calloc(1, sizeof(*d));

	if (!d)
		return err_set(err, ENOMEM, "null: out of memory");
	w->engine_data = d;
	d->queued = calloc(w->nr_units, sizeof(*d->queued));
	d->done = calloc(w->nr_units, sizeof(*d->done));
	if (!d->queued || !d->done) {
		null_cleanup(w);
		return err_set(err, ENOMEM, "null: out of memory");
	}
	return 0;
}

static enum io_result null_queue(struct worker *w, struct io_unit *u)
{
	struct null_data *d = w->engine_data;

	u->result = u->len;
	if (w->nr_units == 1)
		return IO_COMPLETED;
	if (d->nr_done)
		return IO_BUSY;
	d->queued[d->nr_queued++] = u;
	return IO_QUEUED;
}

/* Everything held completes now, unless completions wait to be reaped
 * (then queue() held nothing). */
static int null_commit(struct worker *w)
{
	struct null_data *d = w->engine_data;
	unsigned int n = d->nr_queued;
	uint64_t t = now_ns();

	if (d->nr_done)
		return 0;
	for (unsigned int i = 0; i < n; i++) {
		d->queued[i]->issue_ns = t;
		d->done[i] = d->queued[i];
	}
	d->nr_done = n;
	d->nr_queued = 0;
	return (int)n;
}

/* Every completion at once, when at least one is asked for. */
static int null_getevents(struct worker *w, unsigned int min, unsigned int max,
			  struct io_unit **done)
{
	struct null_data *d = w->engine_data;
	unsigned int n = d->nr_done;

	(void)max; /* never more than were committed */
	if (!min)
		return 0;
	memcpy(done, d->done, n * sizeof(*done));
	d->nr_done = 0;
	return (int)n;
}

const struct engine_ops null_engine = {
	.name = "null",
	.flags = ENGINE_DISKLESS | ENGINE_SYNC_AT_DEPTH1 | ENGINE_OWN_TRIM,
	ENGINE_QUEUEING_OPS(null),
};
