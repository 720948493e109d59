// SPDX-License-Identifier: GPL-2.0
/*
 * The io_uring ring of the io_uring and io_uring_cmd engines: setup,
 * registration, commit() as io_uring_submit(), getevents() reaping CQEs
 * in batches.  The unit pointer is each SQE's user_data.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "workload/engines/shared.h"
#include "workload/engines/uring_ring.h"
#include "workload/files.h"
#include "workload/worker.h"

/* The kernel's IORING_MAX_ENTRIES. */
#define URING_MAX_ENTRIES 32768u
/* How long the SQPOLL thread spins without work before it sleeps. */
#define URING_SQ_IDLE_MS 1000u

void uring_cleanup(struct worker *w)
{
	struct uring_data *d = w->engine_data;

	if (!d)
		return;
	if (d->ring_ready) {
		/* Closing the ring does not wait for I/O in flight; reap it
		 * so nothing is written into buffers the runner frees next. */
		while (d->inflight) {
			struct io_uring_cqe *cqe;
			int ret = io_uring_wait_cqe(&d->ring, &cqe);

			if (ret == -EINTR)
				continue;
			if (ret < 0)
				break;
			io_uring_cqe_seen(&d->ring, cqe);
			d->inflight--;
		}
		io_uring_queue_exit(&d->ring);
	}
}

static int uring_init_error(struct worker *w, const struct io_uring_params *p,
			    int ret, struct errbuf *err)
{
	const char *engine = w->job->engine->name;
	char buf[8] = "";
	FILE *f;

	errno = -ret;
	if (ret == -EPERM) {
		/* kernel.io_uring_disabled: 1 = only CAP_SYS_ADMIN or the
		 * io_uring_group may create rings, 2 = nobody may. */
		f = fopen("/proc/sys/kernel/io_uring_disabled", "re");
		if (f) {
			if (!fgets(buf, sizeof(buf), f))
				buf[0] = '\0';
			fclose(f);
		}
		if (buf[0] && buf[0] != '0')
			return err_set(err, EPERM,
				       "%s on %s: io_uring_queue_init_params: %m: io_uring is disabled (kernel.io_uring_disabled=%c)",
				       engine, w->path, buf[0]);
	}
	if (ret == -ENOSYS)
		return err_set(err, ENOSYS,
			       "%s on %s: io_uring_queue_init_params: %m: the kernel is built without CONFIG_IO_URING",
			       engine, w->path);
	if (ret == -ENOMEM)
		return err_set(err, ENOMEM,
			       "%s on %s: io_uring_queue_init_params(%u entries): %m: the rings count against the locked-memory limit (ulimit -l)",
			       engine, w->path, w->nr_units);
	return err_set(err, -ret,
		       "%s on %s: io_uring_queue_init_params(%u entries%s%s%s): %m",
		       engine, w->path, w->nr_units,
		       p->flags & IORING_SETUP_SQPOLL ? ", SQPOLL" : "",
		       p->flags & IORING_SETUP_SQ_AFF ? " on one CPU" : "",
		       p->flags & IORING_SETUP_IOPOLL ? ", IOPOLL" : "");
}

/*
 * Completion task work runs when the worker asks for events
 * (DEFER_TASKRUN, 6.1+) instead of interrupting it (COOP_TASKRUN, 5.19+),
 * as fio does: on a fast device the interruptions cost much of the IOPS
 * (docs/overhead.md, iodig versus fio).  Older
 * kernels reject the flags with -EINVAL, so fall back a step at a time.
 * DEFER_TASKRUN needs SINGLE_ISSUER and excludes SQPOLL.
 */
static int uring_setup(struct uring_data *d, const struct io_uring_params *base)
{
	const unsigned int tries[] = {
		IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER |
			IORING_SETUP_DEFER_TASKRUN,
		IORING_SETUP_COOP_TASKRUN,
		0,
	};
	struct io_uring_params p;
	int ret = -EINVAL;

	for (unsigned int i = 0; i < sizeof(tries) / sizeof(tries[0]); i++) {
		if ((base->flags & IORING_SETUP_SQPOLL) &&
		    (tries[i] & IORING_SETUP_DEFER_TASKRUN))
			continue;
		p = *base;
		p.flags |= tries[i];
		ret = io_uring_queue_init_params(d->cap, &d->ring, &p);
		if (ret != -EINVAL)
			break;
	}
	if (ret == 0)
		d->defer_taskrun = p.flags & IORING_SETUP_DEFER_TASKRUN;
	return ret;
}

static int uring_register(struct worker *w, struct uring_data *d,
			  const struct uring_ring_cfg *cfg, struct errbuf *err)
{
	const char *engine = w->job->engine->name;
	struct iovec *iov;
	unsigned int i;
	int ret;

	if (cfg->opts->fixedbufs) {
		iov = calloc(w->nr_units, sizeof(*iov));
		if (!iov)
			return err_set(err, ENOMEM, "%s on %s: out of memory",
				       engine, w->path);
		/* One buffer per unit, so a unit's index is its buf_index. */
		for (i = 0; i < w->nr_units; i++) {
			iov[i].iov_base = (char *)w->buf_area + (size_t)i * w->buf_unit_size;
			iov[i].iov_len = w->buf_unit_size;
		}
		ret = io_uring_register_buffers(&d->ring, iov, w->nr_units);
		free(iov);
		if (ret < 0) {
			errno = -ret;
			return err_set(err, -ret,
				       "%s on %s: fixedbufs=1: io_uring_register_buffers(%u x %zu bytes): %m%s",
				       engine, w->path, w->nr_units, w->buf_unit_size,
				       ret == -ENOMEM ? ": registered buffers are pinned and count against the locked-memory limit (ulimit -l)" : "");
		}
		d->fixedbufs = true;
	}
	if (cfg->opts->registerfiles && w->fds && worker_files_limited(w))
		return err_set(err, ENOTSUP, "%s on %s: registerfiles=1 registers every "
			       "file at the start, but openfiles=%u opens them one by one",
			       engine, w->path, w->job->openfiles);
	if (cfg->opts->registerfiles) {
		/* file k of the job is index k (io_unit.file) */
		ret = io_uring_register_files(&d->ring, w->fds ? w->fds : &w->fd,
					      w->fds ? w->nr_files : 1);
		if (ret < 0) {
			errno = -ret;
			return err_set(err, -ret,
				       "%s on %s: registerfiles=1: io_uring_register_files: %m",
				       engine, w->path);
		}
		d->sqe_flags |= IOSQE_FIXED_FILE;
	}
	return 0;
}

int uring_set_sqpoll_cpu(void *base, const struct opt_desc *o,
			 const char *value, const char *where, struct errbuf *err)
{
	/* @o is the sqpoll_cpu of the engine's struct uring_ring_opts. */
	struct uring_ring_opts *ring = (struct uring_ring_opts *)
		((char *)base + o->offset - offsetof(struct uring_ring_opts, sqpoll_cpu));
	int ret = opt_set_typed(base, o, value, where, err);

	if (!ret)
		ring->sqpoll_cpu_set = true;
	return ret;
}

/* The engine's @base with what the ring's options ask of the setup. */
static struct io_uring_params uring_params(const struct io_uring_params *base,
					   const struct uring_ring_opts *o)
{
	struct io_uring_params p = *base;

	if (o->sqthread_poll) {
		p.flags |= IORING_SETUP_SQPOLL;
		p.sq_thread_idle = URING_SQ_IDLE_MS;
		if (o->sqpoll_cpu_set) {
			p.flags |= IORING_SETUP_SQ_AFF;
			p.sq_thread_cpu = o->sqpoll_cpu;
		}
	}
	if (o->hipri)
		p.flags |= IORING_SETUP_IOPOLL;
	return p;
}

int uring_ring_open(struct worker *w, const struct io_uring_params *base,
		    const struct uring_ring_cfg *cfg, struct errbuf *err)
{
	const struct io_uring_params params = uring_params(base, cfg->opts);
	const struct io_uring_params *p = &params;
	const char *engine = w->job->engine->name;
	struct uring_data *d;
	int ret;

	if (!w->nr_units)
		return err_set(err, EINVAL, "%s on %s: iodepth is 0", engine, w->path);
	if (w->nr_units > URING_MAX_ENTRIES)
		return err_set(err, EINVAL,
			       "%s on %s: iodepth=%u exceeds io_uring's limit of %u entries",
			       engine, w->path, w->nr_units, URING_MAX_ENTRIES);
	d = w->engine_data;
	d->cap = w->nr_units;
	d->sqpoll = p->flags & IORING_SETUP_SQPOLL;
	d->result = cfg->result;
	/* The kernel rounds entries up to a power of two and makes the CQ
	 * twice as big, so iodepth units in flight never overflow it. */
	ret = uring_setup(d, p);
	if (ret < 0) {
		ret = uring_init_error(w, p, ret, err);
		goto cleanup;
	}
	d->ring_ready = true;
	ret = uring_register(w, d, cfg, err);
	if (ret)
		goto cleanup;
	return 0;

cleanup:
	uring_cleanup(w);
	return ret;
}

struct io_uring_sqe *uring_ring_sqe(struct uring_data *d)
{
	if (d->nr_pending + d->inflight >= d->cap)
		return NULL;
	return io_uring_get_sqe(&d->ring);
}

void uring_ring_queued(struct uring_data *d, struct io_unit *u)
{
	d->pending[d->nr_pending++] = u;
}

int uring_commit(struct worker *w)
{
	struct uring_data *d = w->engine_data;
	unsigned int n, i;
	uint64_t t;
	int ret;

	if (!d->nr_pending)
		return 0;
	/* With DEFER_TASKRUN the same enter also runs completion work. */
	do
		ret = d->defer_taskrun ? io_uring_submit_and_get_events(&d->ring) :
					 io_uring_submit(&d->ring);
	while (ret == -EINTR);
	/* -EAGAIN/-EBUSY: the kernel is short of requests or has CQEs to
	 * flush first.  The SQEs stay in the ring; the next submit sends
	 * them. */
	if (ret == -EAGAIN || ret == -EBUSY)
		return 0;
	if (ret < 0)
		return ret;
	t = now_ns();
	/*
	 * Without SQPOLL the kernel consumed @ret SQEs from the head of the
	 * ring, which are the oldest pending units.  With SQPOLL the count
	 * is everything in the ring not yet consumed by the poll thread
	 * (possibly including SQEs counted by an earlier commit), but every
	 * SQE we published is now the thread's to take: all pending units
	 * are submitted.
	 */
	n = d->sqpoll ? d->nr_pending : (unsigned int)ret;
	if (n > d->nr_pending)
		n = d->nr_pending;
	for (i = 0; i < n; i++)
		d->pending[i]->issue_ns = t;
	memmove(d->pending, d->pending + n,
		(d->nr_pending - n) * sizeof(*d->pending));
	d->nr_pending -= n;
	d->inflight += n;
	return (int)n;
}

int uring_getevents(struct worker *w, unsigned int min, unsigned int max,
		    struct io_unit **done)
{
	struct uring_data *d = w->engine_data;
	struct io_uring_cqe *cqe;
	unsigned int got = 0, n, i;
	int ret;

	engine_reap_bounds(&min, &max, d->cap);
	for (;;) {
		n = io_uring_peek_batch_cqe(&d->ring, d->cqes, max - got);
		for (i = 0; i < n; i++) {
			struct io_unit *u = io_uring_cqe_get_data(d->cqes[i]);

			u->result = d->result ? d->result(w, u, d->cqes[i]) :
						d->cqes[i]->res;
			if (u->result == -EAGAIN && d->rw_flags & RWF_NOWAIT &&
			    u->sync == IO_SYNC_NONE)
				engine_nowait_retry(w, u, 0); /* as psync */
			done[got++] = u;
		}
		io_uring_cq_advance(&d->ring, n);
		d->inflight -= n;
		if (got >= min)
			break;
		ret = io_uring_wait_cqe_nr(&d->ring, &cqe, min - got);
		if (ret == -EINTR)
			continue;
		if (ret < 0) {
			/* Keep what was reaped; the error shows next time. */
			if (got)
				break;
			return ret;
		}
	}
	return (int)got;
}
