// SPDX-License-Identifier: GPL-2.0
/*
 * io_uring through liburing: queue() fills an SQE (the unit pointer in
 * user_data), commit() is io_uring_submit(), getevents() reaps CQEs in
 * batches.  Job options map to ring features: sqthread_poll -> SQPOLL,
 * hipri -> IOPOLL, fixedbufs -> registered buffers + READ/WRITE_FIXED,
 * registerfiles -> registered file + IOSQE_FIXED_FILE, nowait ->
 * RWF_NOWAIT in each SQE.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "workload/engines/shared.h"
#include "workload/worker.h"

/* The kernel's IORING_MAX_ENTRIES. */
#define URING_MAX_ENTRIES 32768u
/* How long the SQPOLL thread spins without work before it sleeps. */
#define URING_SQ_IDLE_MS 1000u

/* The engine's job options, in job->engine_opts. */
struct uring_opts {
	bool hipri;
	bool fixedbufs;
	bool registerfiles;
	bool sqthread_poll;
	bool nowait;
};
ENGINE_OPTS_FIT(struct uring_opts);

#define UOPT(f) OPT_FIELD(struct uring_opts, f)

/* fio's [io_uring] options that iodig implements. */
static const struct opt_desc uring_options[] = {
	{ .name = "hipri", .type = OPT_BOOL, UOPT(hipri),
	  .help = "Polled completions (IORING_SETUP_IOPOLL); needs direct=1" },
	{ .name = "fixedbufs", .type = OPT_BOOL, UOPT(fixedbufs),
	  .help = "io_uring registered buffers" },
	{ .name = "registerfiles", .type = OPT_BOOL, UOPT(registerfiles),
	  .help = "io_uring registered files" },
	{ .name = "sqthread_poll", .type = OPT_BOOL, UOPT(sqthread_poll),
	  .help = "io_uring kernel submission thread" },
	{ .name = "nowait", .type = OPT_BOOL, UOPT(nowait),
	  .help = "RWF_NOWAIT: fail instead of blocking" },
	{ .name = NULL },
};

static const struct uring_opts *uring_opts(const struct job *job)
{
	return engine_opts_of(job);
}

static int uring_check_job(const struct job *job, const char *where,
			   struct errbuf *err)
{
	return engine_check_hipri(uring_opts(job)->hipri, job, where, err);
}

struct uring_data {
	struct io_uring ring;
	bool ring_ready;
	bool sqpoll;
	bool defer_taskrun;        /* completions appear only on GETEVENTS */
	int fd;                    /* w->fd, or 0 = index of the registered file */
	unsigned char sqe_flags;   /* IOSQE_FIXED_FILE with registerfiles */
	int rw_flags;              /* RWF_NOWAIT with nowait */
	bool fixedbufs;
	struct io_unit **pending;  /* SQEs filled but not submitted, ring order */
	unsigned int nr_pending;
	unsigned int inflight;     /* submitted, not yet reaped */
	struct io_uring_cqe **cqes;
	unsigned int cap;          /* nr_units */
};

static void uring_cleanup(struct worker *w)
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
	free(d->pending);
	free(d->cqes);
	free(d);
	w->engine_data = NULL;
}

static int uring_init_error(struct worker *w, int ret, struct errbuf *err)
{
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
				       "io_uring on %s: io_uring_queue_init_params: %m: io_uring is disabled (kernel.io_uring_disabled=%c)",
				       w->path, buf[0]);
	}
	if (ret == -ENOSYS)
		return err_set(err, ENOSYS,
			       "io_uring on %s: io_uring_queue_init_params: %m: the kernel is built without CONFIG_IO_URING",
			       w->path);
	if (ret == -ENOMEM)
		return err_set(err, ENOMEM,
			       "io_uring on %s: io_uring_queue_init_params(%u entries): %m: the rings count against the locked-memory limit (ulimit -l)",
			       w->path, w->nr_units);
	return err_set(err, -ret,
		       "io_uring on %s: io_uring_queue_init_params(%u entries%s%s): %m",
		       w->path, w->nr_units,
		       uring_opts(w->job)->sqthread_poll ? ", SQPOLL" : "",
		       uring_opts(w->job)->hipri ? ", IOPOLL" : "");
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
			  struct errbuf *err)
{
	struct iovec *iov;
	unsigned int i;
	int ret;

	if (uring_opts(w->job)->fixedbufs) {
		iov = calloc(w->nr_units, sizeof(*iov));
		if (!iov)
			return err_set(err, ENOMEM, "io_uring on %s: out of memory", w->path);
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
				       "io_uring on %s: fixedbufs=1: io_uring_register_buffers(%u x %zu bytes): %m%s",
				       w->path, w->nr_units, w->buf_unit_size,
				       ret == -ENOMEM ? ": registered buffers are pinned and count against the locked-memory limit (ulimit -l)" : "");
		}
		d->fixedbufs = true;
	}
	if (uring_opts(w->job)->registerfiles) {
		ret = io_uring_register_files(&d->ring, &w->fd, 1);
		if (ret < 0) {
			errno = -ret;
			return err_set(err, -ret,
				       "io_uring on %s: registerfiles=1: io_uring_register_files: %m",
				       w->path);
		}
		d->fd = 0;
		d->sqe_flags |= IOSQE_FIXED_FILE;
	}
	return 0;
}

/* What the probe found unsupported, for the error message. */
static const char *uring_probe_what(const struct uring_opts *o)
{
	if (o->hipri && o->nowait)
		return "hipri=1 (IORING_SETUP_IOPOLL) or nowait=1 (RWF_NOWAIT)";
	return o->hipri ? "hipri=1 (IORING_SETUP_IOPOLL)" : "nowait=1 (RWF_NOWAIT)";
}

/*
 * Both IOPOLL and RWF_NOWAIT are accepted at setup and refused per I/O:
 * a file or device that cannot be polled (no f_op->iopoll, or a block
 * queue without poll queues, like loop or virtio-blk) or that lacks
 * FMODE_NOWAIT (tmpfs) completes every I/O with -EOPNOTSUPP.  One read of
 * the job's first block, with the job's ring and flags, turns that into a
 * clear error before the run.  -EAGAIN is a valid NOWAIT answer.
 */
static int uring_probe(struct worker *w, struct uring_data *d,
		       struct errbuf *err)
{
	struct io_uring_sqe *sqe;
	struct io_uring_cqe *cqe;
	const struct uring_opts *o = uring_opts(w->job);
	uint32_t len;
	void *buf;
	int ret, res;

	buf = engine_probe_buf(w, &len);
	if (!buf)
		return err_set(err, ENOMEM, "io_uring on %s: out of memory", w->path);
	sqe = io_uring_get_sqe(&d->ring);
	if (!sqe) {
		ret = err_set(err, EBUSY, "io_uring on %s: no free SQE for the probe read", w->path);
		goto cleanup;
	}
	io_uring_prep_read(sqe, w->fd, buf, len, w->region_start);
	sqe->rw_flags = d->rw_flags;
	do
		ret = io_uring_submit_and_wait(&d->ring, 1);
	while (ret == -EINTR);
	if (ret < 0) {
		errno = -ret;
		ret = err_set(err, -ret, "io_uring on %s: %s: submitting a probe read: %m",
			      w->path, uring_probe_what(o));
		goto cleanup;
	}
	do
		ret = io_uring_wait_cqe(&d->ring, &cqe);
	while (ret == -EINTR);
	if (ret < 0) {
		errno = -ret;
		ret = err_set(err, -ret, "io_uring on %s: %s: waiting for a probe read: %m",
			      w->path, uring_probe_what(o));
		goto cleanup;
	}
	res = cqe->res;
	io_uring_cqe_seen(&d->ring, cqe);
	ret = 0;
	errno = res < 0 ? -res : 0;
	if (res == -EOPNOTSUPP && o->hipri && !o->nowait)
		ret = err_set(err, EOPNOTSUPP,
			      "io_uring on %s: hipri=1 (IORING_SETUP_IOPOLL): a polled read failed with %m: the file or device cannot be polled (block devices need poll queues, e.g. nvme.poll_queues=N; loop and virtio-blk have none); drop hipri",
			      w->path);
	else if (res == -EOPNOTSUPP && !o->hipri)
		ret = err_set(err, EOPNOTSUPP,
			      "io_uring on %s: nowait=1 (RWF_NOWAIT): a read failed with %m: the file or device does not support non-blocking I/O; drop nowait",
			      w->path);
	else if (res == -EOPNOTSUPP)
		ret = err_set(err, EOPNOTSUPP,
			      "io_uring on %s: %s: a polled non-blocking read failed with %m: the file or device cannot be polled or does not support non-blocking I/O; drop hipri or nowait",
			      w->path, uring_probe_what(o));
	else if (res < 0 && res != -EAGAIN)
		ret = err_set(err, -res,
			      "io_uring on %s: %s: a probe read of %u bytes at offset %llu failed: %m",
			      w->path, uring_probe_what(o), len,
			      (unsigned long long)w->region_start);
cleanup:
	free(buf);
	return ret;
}

static int uring_init(struct worker *w, struct errbuf *err)
{
	const struct uring_opts *o = uring_opts(w->job);
	struct io_uring_params p;
	struct uring_data *d;
	int ret, fl;

	if (!w->nr_units)
		return err_set(err, EINVAL, "io_uring on %s: iodepth is 0", w->path);
	if (w->nr_units > URING_MAX_ENTRIES)
		return err_set(err, EINVAL,
			       "io_uring on %s: iodepth=%u exceeds io_uring's limit of %u entries",
			       w->path, w->nr_units, URING_MAX_ENTRIES);
	if (o->hipri) {
		/* IOPOLL completes only I/O that bypasses the page cache. */
		fl = fcntl(w->fd, F_GETFL);
		if (fl < 0 || !(fl & O_DIRECT))
			return err_set(err, EINVAL,
				       "io_uring on %s: hipri=1 (IORING_SETUP_IOPOLL) needs direct=1: polled rings only complete O_DIRECT I/O",
				       w->path);
	}
	if (o->nowait) {
		ret = engine_refuse_nowait_writes(w, "io_uring", err);
		if (ret)
			return ret;
	}

	d = calloc(1, sizeof(*d));
	if (!d)
		return err_set(err, ENOMEM, "io_uring on %s: out of memory", w->path);
	w->engine_data = d;
	d->cap = w->nr_units;
	d->fd = w->fd;
	d->rw_flags = o->nowait ? RWF_NOWAIT : 0;
	d->pending = calloc(d->cap, sizeof(*d->pending));
	d->cqes = calloc(d->cap, sizeof(*d->cqes));
	if (!d->pending || !d->cqes) {
		ret = err_set(err, ENOMEM, "io_uring on %s: out of memory", w->path);
		goto cleanup;
	}

	/* The kernel rounds entries up to a power of two and makes the CQ
	 * twice as big, so iodepth units in flight never overflow it. */
	memset(&p, 0, sizeof(p));
	if (o->sqthread_poll) {
		p.flags |= IORING_SETUP_SQPOLL;
		p.sq_thread_idle = URING_SQ_IDLE_MS;
		d->sqpoll = true;
	}
	if (o->hipri)
		p.flags |= IORING_SETUP_IOPOLL;
	ret = uring_setup(d, &p);
	if (ret < 0) {
		ret = uring_init_error(w, ret, err);
		goto cleanup;
	}
	d->ring_ready = true;

	ret = uring_register(w, d, err);
	if (ret)
		goto cleanup;
	if (o->hipri || o->nowait) {
		ret = uring_probe(w, d, err);
		if (ret)
			goto cleanup;
	}
	return 0;

cleanup:
	uring_cleanup(w);
	return ret;
}

static enum io_result uring_queue(struct worker *w, struct io_unit *u)
{
	struct uring_data *d = w->engine_data;
	struct io_uring_sqe *sqe;

	if (d->nr_pending + d->inflight >= d->cap)
		return IO_BUSY;
	sqe = io_uring_get_sqe(&d->ring);
	if (!sqe)
		return IO_BUSY;
	if (d->fixedbufs) {
		if (u->ddir == DDIR_WRITE)
			io_uring_prep_write_fixed(sqe, d->fd, u->buf, u->len,
						  u->offset, (int)u->index);
		else
			io_uring_prep_read_fixed(sqe, d->fd, u->buf, u->len,
						 u->offset, (int)u->index);
	} else {
		if (u->ddir == DDIR_WRITE)
			io_uring_prep_write(sqe, d->fd, u->buf, u->len, u->offset);
		else
			io_uring_prep_read(sqe, d->fd, u->buf, u->len, u->offset);
	}
	/* prep clears the SQE, so flags go in afterwards. */
	sqe->flags |= d->sqe_flags;
	sqe->rw_flags = d->rw_flags;
	io_uring_sqe_set_data(sqe, u);
	d->pending[d->nr_pending++] = u;
	return IO_QUEUED;
}

static int uring_commit(struct worker *w)
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

static int uring_getevents(struct worker *w, unsigned int min, unsigned int max,
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

			u->result = d->cqes[i]->res;
			if (u->result == -EAGAIN && d->rw_flags & RWF_NOWAIT)
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

const struct engine_ops io_uring_engine = {
	.name = "io_uring",
	ENGINE_QUEUEING_OPS(uring),
	.options = uring_options,
	.check_job = uring_check_job,
};
