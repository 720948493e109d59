// SPDX-License-Identifier: GPL-2.0
/*
 * libaio: Linux native AIO (io_setup/io_submit/io_getevents).  Every unit
 * owns one struct iocb; queue() only prepares it, commit() hands the
 * queued ones to io_submit in batches of iodepth_batch_submit.  Buffered
 * I/O through AIO is done synchronously inside io_submit by the kernel;
 * only O_DIRECT is truly asynchronous (fio documents the same).
 * nowait=1 puts RWF_NOWAIT in each read and write iocb's aio_rw_flags.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libaio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "workload/engines/cmdprio.h"
#include "workload/engines/shared.h"
#include "workload/worker.h"

/* linux/aio_abi.h's, which libaio.h's struct iocb conflicts with: the
 * iocb carries its own priority in aio_reqprio. */
#ifndef IOCB_FLAG_IOPRIO
#define IOCB_FLAG_IOPRIO (1 << 1)
#endif

/* The engine's job options, in job->engine_opts. */
struct libaio_opts {
	struct cmdprio_opts cmdprio;
	bool nowait;
	bool userspace_reap;
};
ENGINE_OPTS_FIT(struct libaio_opts);

/* fio's [libaio] options that iodig implements. */
static const struct opt_desc libaio_options[] = {
	CMDPRIO_OPTIONS(struct libaio_opts, cmdprio),
	ENGINE_OPT_NOWAIT(struct libaio_opts),
	{ .name = "userspace_reap", .type = OPT_BOOL, .flags = OPT_BARE, OPT_FIELD(struct libaio_opts, userspace_reap),
	  .help = "With iodepth_batch_complete_min=0, take completions from the kernel's ring "
		  "in user space, not by io_getevents" },
	{ .name = NULL },
};

/* The kernel's completion ring, mapped at the address io_setup returned
 * (fs/aio.c's struct aio_ring), as fio's userspace_reap reads it. */
struct aio_ring {
	unsigned int id, nr, head, tail;
	unsigned int magic, compat_features, incompat_features, header_length;
	struct io_event events[];
};
#define AIO_RING_MAGIC 0xa10a10a1u

static int libaio_check_job(const struct job *job, const char *where,
			    struct errbuf *err)
{
	const struct libaio_opts *o = engine_opts_of(job);

	return cmdprio_check(&o->cmdprio, where, err);
}

struct libaio_data {
	io_context_t ctx;
	bool ctx_ready;
	struct iocb *iocbs;        /* one per unit, unit->engine_priv */
	struct iocb **pending;     /* queued, not yet submitted, in order */
	unsigned int nr_pending;
	unsigned int inflight;     /* submitted, not yet reaped */
	struct io_event *events;   /* getevents()'s io_getevents */
	unsigned int cap;          /* nr_units */
	unsigned int batch;        /* iocbs per io_submit, 0 = all */
	int rw_flags;              /* RWF_NOWAIT with nowait */
	struct cmdprio cmdprio;
};

static void libaio_cleanup(struct worker *w)
{
	struct libaio_data *d = w->engine_data;

	if (!d)
		return;
	/* io_destroy cancels what it can and waits for the rest, so no
	 * I/O lands in the buffers after the runner frees them. */
	if (d->ctx_ready)
		io_destroy(d->ctx);
}

/* io_setup's -errno @ret as the reason, with what to do about it. */
static int libaio_setup_error(struct worker *w, int ret, struct errbuf *err)
{
	unsigned int n = w->nr_units;

	errno = -ret;
	if (ret == -EAGAIN)
		return err_set(err, EAGAIN,
			       "libaio on %s: io_setup(%u): %m: the system-wide limit fs.aio-max-nr would be exceeded (raise it with sysctl fs.aio-max-nr)",
			       w->path, n);
	if (ret == -ENOSYS)
		return err_set(err, ENOSYS,
			       "libaio on %s: io_setup(%u): %m: the kernel is built without CONFIG_AIO",
			       w->path, n);
	return err_set(err, -ret, "libaio on %s: io_setup(%u): %m", w->path, n);
}

/*
 * io_submit refuses RWF_NOWAIT with -EOPNOTSUPP on a file without
 * FMODE_NOWAIT (tmpfs, bio-based devices like zram), and a request-based
 * device may fail it at completion: one NOWAIT read of the job's first
 * block turns either into a clear error before the run.  -EAGAIN is a
 * valid answer; a read leaves the data alone.
 */
static int libaio_probe_nowait(struct worker *w, struct libaio_data *d,
			       struct errbuf *err)
{
	struct iocb iocb, *iocbs[1] = { &iocb };
	struct io_event ev;
	uint32_t len;
	void *buf = engine_probe_buf(w, &len);
	long res = 0;
	int ret;

	if (!buf)
		return err_set(err, ENOMEM, "libaio on %s: out of memory", w->path);
	io_prep_pread(&iocb, w->fd, buf, len, (long long)w->region_start);
	iocb.aio_rw_flags = RWF_NOWAIT;
	do
		ret = io_submit(d->ctx, 1, iocbs);
	while (ret == -EINTR);
	if (ret == 1) {
		do
			ret = io_getevents(d->ctx, 1, 1, &ev, NULL);
		while (ret == -EINTR);
		res = ret == 1 ? (long)ev.res : 0;
	}
	free(buf);
	if (ret < 0)
		res = ret;
	errno = res < 0 ? (int)-res : 0;
	if (res == -EOPNOTSUPP)
		return err_set(err, EOPNOTSUPP,
			       "libaio on %s: nowait=1 (RWF_NOWAIT): a read failed with %m: the file or device does not support non-blocking I/O; drop nowait",
			       w->path);
	if (res < 0 && res != -EAGAIN)
		return err_set(err, (int)-res,
			       "libaio on %s: nowait=1 (RWF_NOWAIT): a probe read of %u bytes at offset %llu failed: %m",
			       w->path, len, (unsigned long long)w->region_start);
	return 0;
}

static int libaio_init(struct worker *w, struct errbuf *err)
{
	const struct libaio_opts *o = engine_opts_of(w->job);
	struct libaio_data *d;
	int ret;

	if (!w->nr_units)
		return err_set(err, EINVAL, "libaio on %s: iodepth is 0", w->path);

	d = w->engine_data;
	d->cap = w->nr_units;
	d->batch = w->job->iodepth_batch_submit;
	d->rw_flags = o->nowait ? RWF_NOWAIT : 0;
	ret = engine_cmdprio_init(w, &d->cmdprio, &o->cmdprio, err);
	if (ret)
		return ret;
	if (o->nowait) {
		ret = engine_refuse_nowait_writes(w, "libaio", err);
		if (ret)
			return ret;
	}
	engine_units_priv(w, d->iocbs, sizeof(*d->iocbs));

	/* libaio returns -errno rather than setting errno. */
	ret = io_setup((int)d->cap, &d->ctx);
	if (ret < 0) {
		return libaio_setup_error(w, ret, err);
	}
	d->ctx_ready = true;
	ret = o->nowait ? libaio_probe_nowait(w, d, err) : 0;
	if (ret)
		libaio_cleanup(w); /* the runner cleans up only after init */
	return ret;
}

static enum io_result libaio_queue(struct worker *w, struct io_unit *u)
{
	struct libaio_data *d = w->engine_data;
	struct iocb *iocb = u->engine_priv;

	if (d->nr_pending + d->inflight >= d->cap)
		return IO_BUSY;
	if (u->ddir == DDIR_WRITE)
		io_prep_pwrite(iocb, u->fd, u->buf, u->len, (long long)u->offset);
	else
		io_prep_pread(iocb, u->fd, u->buf, u->len, (long long)u->offset);
	iocb->data = u; /* io_prep_* clear the iocb, so set it last */
	iocb->aio_rw_flags = d->rw_flags | engine_rw_atomic(w->job, u);
	if (engine_cmdprio_pick(&d->cmdprio, u)) {
		iocb->u.c.flags |= IOCB_FLAG_IOPRIO;
		iocb->aio_reqprio = (short)u->ioprio;
	}
	d->pending[d->nr_pending++] = iocb;
	return IO_QUEUED;
}

static int libaio_commit(struct worker *w)
{
	struct libaio_data *d = w->engine_data;
	unsigned int done = 0;
	int ret = 0;

	while (done < d->nr_pending) {
		unsigned int want = d->nr_pending - done;
		uint64_t t;
		int i;

		if (d->batch && want > d->batch)
			want = d->batch;
		ret = io_submit(d->ctx, (long)want, d->pending + done);
		if (ret == -EINTR)
			continue;
		/* -EAGAIN: the kernel is short of resources for now; what is
		 * left stays queued for the next commit. */
		if (ret == -EAGAIN) {
			ret = 0;
			break;
		}
		if (ret < 0)
			break;
		t = now_ns();
		for (i = 0; i < ret; i++) {
			struct io_unit *u = d->pending[done + i]->data;

			u->issue_ns = t;
		}
		done += (unsigned int)ret;
		d->inflight += (unsigned int)ret;
		/* A partial submit means the rest would fail the same way
		 * right now. */
		if ((unsigned int)ret < want)
			break;
	}
	if (done) {
		memmove(d->pending, d->pending + done,
			(d->nr_pending - done) * sizeof(*d->pending));
		d->nr_pending -= done;
	}
	/* An error after some batches went in is reported by the next
	 * commit, which retries the failing iocb first. */
	if (ret < 0 && !done)
		return ret;
	return (int)done;
}

/* Up to @max completions from the ring, without a system call. */
static int ring_reap(io_context_t ctx, struct io_event *out, unsigned int max)
{
	struct aio_ring *ring = (struct aio_ring *)ctx;
	unsigned int head = __atomic_load_n(&ring->head, __ATOMIC_RELAXED);
	int n = 0;

	while ((unsigned int)n < max && head != __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE)) {
		out[n++] = ring->events[head];
		head = (head + 1) % ring->nr;
	}
	__atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
	return n;
}

/* fio's fio_libaio_getevents: userspace_reap reads the ring itself when
 * the job reaps with iodepth_batch_complete_min=0 (spinning on it until
 * enough are in, as fio does) and the ring is one it knows. */
static bool reap_in_user_space(const struct worker *w, io_context_t ctx)
{
	const struct libaio_opts *o = engine_opts_of(w->job);

	return o->userspace_reap && !w->job->iodepth_batch_complete_min &&
	       ((struct aio_ring *)ctx)->magic == AIO_RING_MAGIC;
}

static int libaio_getevents(struct worker *w, unsigned int min, unsigned int max,
			    struct io_unit **done)
{
	struct libaio_data *d = w->engine_data;
	bool user = reap_in_user_space(w, d->ctx);
	unsigned int got = 0, i;
	int ret;

	engine_reap_bounds(&min, &max, d->cap);
	do {
		if (user)
			ret = ring_reap(d->ctx, d->events + got, max - got);
		else
			ret = io_getevents(d->ctx, min > got ? (long)(min - got) : 0,
					   (long)(max - got), d->events + got, NULL);
		if (ret == -EINTR)
			continue;
		if (ret < 0) {
			if (!got)
				return ret;
			break;
		}
		got += (unsigned int)ret;
	} while (got < min);

	for (i = 0; i < got; i++) {
		struct io_unit *u = d->events[i].data;

		/* res is unsigned long in the ABI; errors are -errno. */
		u->result = (long)d->events[i].res;
		if (u->result == -EAGAIN && d->rw_flags)
			engine_nowait_retry(w, u, engine_rw_atomic(w->job, u));
		done[i] = u;
	}
	d->inflight -= got;
	return (int)got;
}

ENGINE_DEFINE(libaio, ENGINE_UNIT_FD | ENGINE_ATOMIC,
	      ENGINE_STATE_ARRAYS(struct libaio_data, iocbs, pending, events),
	      ENGINE_QUEUEING_OPS(libaio),
	      .options = libaio_options, .check_job = libaio_check_job);
