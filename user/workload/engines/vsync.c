// SPDX-License-Identifier: GPL-2.0
/*
 * vsync: fio's vectored sync engine.  queue() gathers I/Os of one
 * direction that each start where the previous one ended; commit() does
 * the whole group as one lseek plus one readv/writev on the worker's
 * thread.  So iodepth_batch_submit decides how much is merged: with the
 * default 1 every I/O is its own readv/writev.
 *
 * Completions follow fio 3.33's engines/sync.c: fio_vsyncio_commit sets
 * the events to the group it just did, dropping those of a group not
 * reaped yet, and fio_vsyncio_getevents answers a poll (min 0) with
 * none.  fio's do_io reaps only a full queue, so with iodepth > 1 and
 * iodepth_batch_submit below it the first iodepth - batch I/Os never
 * complete: issued, done, never counted, holding their slots.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "workload/engines/shared.h"
#include "workload/worker.h"

struct vsync_data {
	struct iovec *iov;        /* the group gathered, one per unit */
	struct io_unit **group;
	unsigned int nr_group;
	uint64_t group_end;       /* offset right after the group */
	enum ddir group_ddir;
	unsigned int max_group;   /* iodepth, at most IOV_MAX */
	struct io_unit **done;    /* the last commit's group, not yet reaped */
	unsigned int nr_done;
};

static int vsync_init(struct worker *w, struct errbuf *err)
{
	struct vsync_data *d = w->engine_data;

	(void)err;
	/* readv takes at most IOV_MAX vectors (fio would fail past it). */
	d->max_group = w->nr_units < IOV_MAX ? w->nr_units : IOV_MAX;
	return 0;
}

static bool vsync_extends_group(const struct vsync_data *d,
				const struct io_unit *u)
{
	return d->nr_group && u->offset == d->group_end &&
	       u->ddir == d->group_ddir;
}

/* A unit that does not continue the group waits until the group is done;
 * so does one that would make it longer than readv allows. */
static enum io_result vsync_queue(struct worker *w, struct io_unit *u)
{
	struct vsync_data *d = w->engine_data;

	if (d->nr_group && (!vsync_extends_group(d, u) ||
			    d->nr_group == d->max_group))
		return IO_BUSY;
	d->iov[d->nr_group].iov_base = u->buf;
	d->iov[d->nr_group].iov_len = u->len;
	d->group[d->nr_group++] = u;
	d->group_end = u->offset + u->len;
	d->group_ddir = u->ddir;
	return IO_QUEUED;
}

/* Hands the bytes of one readv/writev to its units in order, as fio does:
 * a short transfer leaves the last units short (or empty). */
static void vsync_share_result(struct vsync_data *d, ssize_t ret)
{
	int64_t left = ret;

	for (unsigned int i = 0; i < d->nr_group; i++) {
		struct io_unit *u = d->group[i];

		if (ret < 0) {
			u->result = engine_result(ret);
		} else {
			u->result = left < (int64_t)u->len ? left : u->len;
			left -= u->result;
		}
		d->done[d->nr_done++] = u;
	}
}

static int vsync_commit(struct worker *w)
{
	struct vsync_data *d = w->engine_data;
	unsigned int n = d->nr_group;
	ssize_t ret;

	uint64_t t = now_ns();

	if (!n)
		return 0;
	w->units_lost += d->nr_done;
	d->nr_done = 0;
	/* Issued now; done when readv/writev returns (clat covers it). */
	for (unsigned int i = 0; i < n; i++)
		d->group[i]->issue_ns = t;
	if (lseek(w->fd, (off_t)d->group[0]->offset, SEEK_SET) < 0) {
		ret = -1;
	} else {
		do
			ret = d->group_ddir == DDIR_WRITE ?
			      writev(w->fd, d->iov, (int)n) :
			      readv(w->fd, d->iov, (int)n);
		while (ret < 0 && errno == EINTR);
	}
	vsync_share_result(d, ret);
	d->nr_group = 0;
	return (int)n;
}

static int vsync_getevents(struct worker *w, unsigned int min, unsigned int max,
			   struct io_unit **done)
{
	struct vsync_data *d = w->engine_data;
	unsigned int n = d->nr_done;

	/* the last commit's group, whatever the most asked, as fio's vsync */
	(void)max;
	if (!min)
		return 0;
	memcpy(done, d->done, n * sizeof(*done));
	d->nr_done = 0;
	return (int)n;
}

ENGINE_DEFINE(vsync, ENGINE_SYNC,
	      ENGINE_STATE_ARRAYS(struct vsync_data, iov, group, done),
	      .init = vsync_init, .queue = vsync_queue, .commit = vsync_commit,
	      .getevents = vsync_getevents);
