// SPDX-License-Identifier: GPL-2.0
/*
 * io_uring through liburing (the ring is engines/uring_ring.c): queue()
 * fills a read, write or (fsync=, fdatasync=) fsync SQE.  Job options map
 * to ring features: sqthread_poll -> SQPOLL, hipri -> IOPOLL, fixedbufs ->
 * registered buffers + READ/WRITE_FIXED, registerfiles -> registered file
 * + IOSQE_FIXED_FILE, nowait -> RWF_NOWAIT in each SQE, nonvectored ->
 * READ/WRITE or READV/WRITEV, force_async -> IOSQE_ASYNC on every Nth SQE.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <liburing.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>

#include "workload/engines/cmdprio.h"
#include "workload/engines/shared.h"
#include "workload/engines/uring_ring.h"
#include "workload/worker.h"

/* The engine's job options, in job->engine_opts. */
struct uring_opts {
	struct uring_ring_opts ring;
	bool nowait;
	int nonvectored;           /* -1: as the kernel's probe says */
	unsigned int uncached;
	unsigned int force_async;
	struct cmdprio_opts cmdprio;
};
ENGINE_OPTS_FIT(struct uring_opts);

#define UOPT(f) OPT_FIELD(struct uring_opts, f)

/* fio's nonvectored is an int whose default -1 means "probe the kernel";
 * any other value is a count, nonzero meaning READ/WRITE. */
static int set_nonvectored(void *base, const struct opt_desc *o,
			   const char *value, const char *where,
			   struct errbuf *err)
{
	if (value && !strcmp(value, "-1")) {
		((struct uring_opts *)base)->nonvectored = -1;
		return 0;
	}
	return opt_set_typed(base, o, value, where, err);
}

/* fio's [io_uring] options that iodig implements. */
static const struct opt_desc uring_options[] = {
	URING_RING_OPTIONS(struct uring_opts,
			   "Polled completions (IORING_SETUP_IOPOLL); needs direct=1"),
	ENGINE_OPT_NOWAIT(struct uring_opts),
	UINT_OPT("nonvectored", UOPT(nonvectored), "-1", 0, INT_MAX,
		 "-1: READ/WRITE where the kernel has them, else READV/WRITEV; 0: READV/WRITEV; 1: READ/WRITE",
		 .set = set_nonvectored),
	UINT_OPT("uncached", UOPT(uncached), "0", 0, UINT_MAX,
		 "fio 3.33's RWF_UNCACHED for buffered I/O, which the kernel never took: only 0 unless direct=1"),
	UINT_OPT("force_async", UOPT(force_async), NULL, 0, UINT_MAX,
		 "IOSQE_ASYNC on every Nth SQE (0: none)"),
	CMDPRIO_OPTIONS(struct uring_opts, cmdprio),
	{ .name = NULL },
};

/* The ring, then the per-I/O priorities (cmdprio*) and how SQEs are
 * filled. */
struct uring_engine_data {
	struct uring_data ring;
	struct cmdprio cmdprio;
	bool vectored;                /* READV/WRITEV, not READ/WRITE */
	unsigned int force_async;     /* IOSQE_ASYNC every Nth SQE, 0: none */
	unsigned int prepped;         /* SQEs since the last IOSQE_ASYNC */
	struct iovec *iov;            /* one per unit (vectored) */
};

/* nonvectored=-1 as fio's: READ/WRITE when the kernel's probe has both
 * (Linux 5.6 on), else the vectored ops every io_uring kernel has. */
static bool uring_vectored(struct io_uring *ring, int nonvectored)
{
	struct io_uring_probe *probe;
	bool plain;

	if (nonvectored != -1)
		return nonvectored == 0;
	probe = io_uring_get_probe_ring(ring);
	plain = probe && io_uring_opcode_supported(probe, IORING_OP_READ) &&
		io_uring_opcode_supported(probe, IORING_OP_WRITE);
	io_uring_free_probe(probe);
	return !plain;
}

/* force_async as fio's: every Nth SQE filled (I/O or sync) goes straight
 * to io-wq, IOSQE_ASYNC. */
static void uring_force_async(struct uring_engine_data *d,
			      struct io_uring_sqe *sqe)
{
	if (d->force_async && ++d->prepped == d->force_async) {
		d->prepped = 0;
		sqe->flags |= IOSQE_ASYNC;
	}
}

static int uring_check_job(const struct job *job, const char *where,
			   struct errbuf *err)
{
	const struct uring_opts *o = engine_opts_of(job);
	int ret = engine_check_hipri(o->ring.hipri, job, where, err);

	if (!ret)
		ret = engine_check_uncached(o->uncached, job, where, err);
	return ret ? ret : cmdprio_check(&o->cmdprio, where, err);
}

/* What the probe found unsupported, for the error message. */
static const char *uring_probe_what(const struct uring_opts *o)
{
	if (o->ring.hipri && o->nowait)
		return "hipri=1 (IORING_SETUP_IOPOLL) or nowait=1 (RWF_NOWAIT)";
	return o->ring.hipri ? "hipri=1 (IORING_SETUP_IOPOLL)" : "nowait=1 (RWF_NOWAIT)";
}

/* Submits the one SQE filled, on an otherwise idle ring, and waits for
 * its completion: 0 with its result in @res, or -errno. */
static int uring_run_one(struct uring_data *d, int *res)
{
	struct io_uring_cqe *cqe;
	int ret;

	do
		ret = io_uring_submit_and_wait(&d->ring, 1);
	while (ret == -EINTR);
	/* The CQE is there once submit_and_wait returns. */
	while (ret >= 0 && (ret = io_uring_wait_cqe(&d->ring, &cqe)) == -EINTR)
		;
	if (ret < 0)
		return ret;
	*res = cqe->res;
	io_uring_cqe_seen(&d->ring, cqe);
	return 0;
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
	const struct uring_opts *o = engine_opts_of(w->job);
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
	ret = uring_run_one(d, &res);
	if (ret < 0) {
		errno = -ret;
		ret = err_set(err, -ret, "io_uring on %s: %s: a probe read: %m",
			      w->path, uring_probe_what(o));
		goto cleanup;
	}
	errno = res < 0 ? -res : 0;
	if (res == -EOPNOTSUPP && o->ring.hipri && !o->nowait)
		ret = err_set(err, EOPNOTSUPP,
			      "io_uring on %s: hipri=1 (IORING_SETUP_IOPOLL): a polled read failed with %m: the file or device cannot be polled (block devices need poll queues, e.g. nvme.poll_queues=N; loop and virtio-blk have none); drop hipri",
			      w->path);
	else if (res == -EOPNOTSUPP && !o->ring.hipri)
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
	const struct uring_opts *o = engine_opts_of(w->job);
	const struct uring_ring_cfg cfg = { .opts = &o->ring };
	const struct io_uring_params p = { .flags = 0 };
	struct uring_engine_data *ed;
	int ret, fl;

	if (o->ring.hipri) {
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
	ret = uring_ring_open(w, &p, &cfg, err);
	if (ret)
		return ret;
	((struct uring_data *)w->engine_data)->rw_flags = o->nowait ? RWF_NOWAIT : 0;
	ed = w->engine_data;
	ed->vectored = uring_vectored(&ed->ring.ring, o->nonvectored);
	ed->force_async = o->force_async;
	ret = engine_cmdprio_init(w, &ed->cmdprio, &o->cmdprio, err);
	if (ret) {
		uring_cleanup(w);
		return ret;
	}
	if (o->ring.hipri || o->nowait) {
		ret = uring_probe(w, w->engine_data, err);
		if (ret)
			uring_cleanup(w);
	}
	return ret;
}

static enum io_result uring_queue(struct worker *w, struct io_unit *u)
{
	struct uring_engine_data *ed = w->engine_data;
	struct uring_data *d = &ed->ring;
	struct iovec *iov = &ed->iov[u->index];
	struct io_uring_sqe *sqe;
	int fd = d->sqe_flags & IOSQE_FIXED_FILE ? (int)u->file : u->fd;

	sqe = uring_ring_sqe(d);
	if (!sqe)
		return IO_BUSY;
	if (u->sync != IO_SYNC_NONE) {
		/* fio's fsync=/fdatasync=: an FSYNC SQE in the ring beside
		 * the writes; its flags share the SQE's rw_flags field.
		 * sync_file_range=: its own SQE, of the range written. */
		if (u->sync == IO_SYNC_FILE_RANGE)
			io_uring_prep_sync_file_range(sqe, fd, u->len, u->offset,
						      (int)w->job->sync_file_range_flags);
		else
			io_uring_prep_fsync(sqe, fd, u->sync == IO_SYNC_DATASYNC ?
					    IORING_FSYNC_DATASYNC : 0);
		sqe->flags |= d->sqe_flags;
		uring_force_async(ed, sqe);
		io_uring_sqe_set_data(sqe, u);
		uring_ring_queued(d, u);
		return IO_QUEUED;
	}
	if (d->fixedbufs) {
		if (u->ddir == DDIR_WRITE)
			io_uring_prep_write_fixed(sqe, fd, u->buf, u->len,
						  u->offset, (int)u->index);
		else
			io_uring_prep_read_fixed(sqe, fd, u->buf, u->len,
						 u->offset, (int)u->index);
	} else if (ed->vectored) {
		iov->iov_base = u->buf;
		iov->iov_len = u->len;
		if (u->ddir == DDIR_WRITE)
			io_uring_prep_writev(sqe, fd, iov, 1, u->offset);
		else
			io_uring_prep_readv(sqe, fd, iov, 1, u->offset);
	} else {
		if (u->ddir == DDIR_WRITE)
			io_uring_prep_write(sqe, fd, u->buf, u->len, u->offset);
		else
			io_uring_prep_read(sqe, fd, u->buf, u->len, u->offset);
	}
	/* prep clears the SQE, so flags go in afterwards. */
	sqe->flags |= d->sqe_flags;
	uring_force_async(ed, sqe);
	sqe->rw_flags = d->rw_flags | engine_rw_atomic(w->job, u);
	if (engine_cmdprio_pick(&ed->cmdprio, u))
		sqe->ioprio = u->ioprio;
	io_uring_sqe_set_data(sqe, u);
	uring_ring_queued(d, u);
	return IO_QUEUED;
}

/* end_fsync and fsync_on_close as fio's io_uring: IORING_OP_FSYNC, with
 * the ring drained (fsync=/fdatasync= are sync units, in uring_queue). */
static int uring_sync_file(struct worker *w, int fd, unsigned int file, bool datasync)
{
	struct uring_data *d = w->engine_data;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&d->ring);
	int ret, res;

	if (!sqe)
		return -EBUSY;
	io_uring_prep_fsync(sqe, d->sqe_flags & IOSQE_FIXED_FILE ? (int)file : fd,
			    datasync ? IORING_FSYNC_DATASYNC : 0);
	sqe->flags |= d->sqe_flags;
	io_uring_sqe_set_data(sqe, NULL);
	ret = uring_run_one(d, &res);
	return ret < 0 ? ret : res < 0 ? res : 0;
}

/* The ring's state first: uring_ring.c sees it as a struct uring_data. */
ENGINE_DEFINE(io_uring, ENGINE_UNIT_FD | ENGINE_ATOMIC | ENGINE_QUEUED_SYNC,
	      ENGINE_STATE_ARRAYS(struct uring_engine_data, ring.pending, ring.cqes, iov),
	      ENGINE_QUEUEING_OPS(uring),
	      .options = uring_options, .check_job = uring_check_job,
	      .sync_file = uring_sync_file);
