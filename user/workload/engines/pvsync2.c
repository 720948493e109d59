// SPDX-License-Identifier: GPL-2.0
/*
 * pvsync2: one preadv2/pwritev2 per I/O on the worker's thread, with fio's
 * per-I/O flags: hipri -> RWF_HIPRI (on hipri_percentage percent of the
 * I/Os), nowait -> RWF_NOWAIT.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "base/rng.h"
#include "workload/engines/shared.h"
#include "workload/worker.h"

/* The engine's job options, in job->engine_opts. */
struct pvsync2_opts {
	bool hipri;
	unsigned int hipri_percentage;
	unsigned int uncached;
	bool nowait;
};
ENGINE_OPTS_FIT(struct pvsync2_opts);

#define POPT(f) OPT_FIELD(struct pvsync2_opts, f)

/* fio 3.33's [pvsync2] options. */
static const struct opt_desc pvsync2_options[] = {
	ENGINE_OPT_HIPRI(struct pvsync2_opts, hipri,
			 "Polled completions (RWF_HIPRI); needs direct=1"),
	UINT_OPT("hipri_percentage", POPT(hipri_percentage), "100", 0, 100,
		 "Percent of the I/Os that hipri marks RWF_HIPRI"),
	UINT_OPT("uncached", POPT(uncached), "0", 0, UINT_MAX,
		 "fio 3.33's RWF_UNCACHED for buffered I/O, which the kernel never took: only 0 unless direct=1"),
	ENGINE_OPT_NOWAIT(struct pvsync2_opts),
	{ .name = NULL },
};

static int pvsync2_check_job(const struct job *job, const char *where,
			     struct errbuf *err)
{
	const struct pvsync2_opts *o = engine_opts_of(job);

	int ret = engine_check_uncached(o->uncached, job, where, err);

	return ret ? ret : engine_check_hipri(o->hipri, job, where, err);
}

struct pvsync2_data {
	struct rng rng;  /* which I/Os hipri_percentage marks */
	int rwf;         /* RWF_NOWAIT with nowait */
};

/*
 * RWF_NOWAIT is refused per I/O with -EOPNOTSUPP by files without
 * FMODE_NOWAIT (tmpfs, for one) and, for writes, by buffered block
 * devices (block/fops.c).  Catch both before the run: the write case by
 * its shape, the file case with one NOWAIT read of the first block
 * (-EAGAIN is a valid answer; a read leaves the data alone).
 */
static int pvsync2_check_nowait(struct worker *w, struct errbuf *err)
{
	struct iovec iov;
	uint32_t len;
	ssize_t n;
	int ret;

	ret = engine_refuse_nowait_writes(w, "pvsync2", err);
	if (ret)
		return ret;
	iov.iov_base = engine_probe_buf(w, &len);
	if (!iov.iov_base)
		return err_set(err, ENOMEM, "pvsync2 on %s: out of memory", w->path);
	iov.iov_len = len;
	do
		n = preadv2(w->fd, &iov, 1, (off_t)w->region_start, RWF_NOWAIT);
	while (n < 0 && errno == EINTR);
	free(iov.iov_base);
	if (n < 0 && errno == EOPNOTSUPP)
		return err_set(err, EOPNOTSUPP,
			       "pvsync2 on %s: nowait=1: preadv2 with RWF_NOWAIT failed with %m: the file or device does not support non-blocking I/O; drop nowait",
			       w->path);
	return 0;
}

static int pvsync2_init(struct worker *w, struct errbuf *err)
{
	const struct pvsync2_opts *o = engine_opts_of(w->job);
	struct pvsync2_data *d = w->engine_data;

	/* fio seeds this choice with 0 too: the same I/Os every run. */
	rng_seed(&d->rng, 0);
	d->rwf = o->nowait ? RWF_NOWAIT : 0;
	return o->nowait ? pvsync2_check_nowait(w, err) : 0;
}

static enum io_result pvsync2_queue(struct worker *w, struct io_unit *u)
{
	const struct pvsync2_opts *o = engine_opts_of(w->job);
	struct pvsync2_data *d = w->engine_data;
	int rwf = d->rwf | engine_rw_atomic(w->job, u);

	if (o->hipri && rng_below(&d->rng, 100) < o->hipri_percentage)
		rwf |= RWF_HIPRI;
	u->result = engine_rw2(u->fd, u, rwf);
	if (u->result == -EAGAIN && (rwf & RWF_NOWAIT))
		engine_nowait_retry(w, u, rwf & ~RWF_NOWAIT);
	return IO_COMPLETED;
}

ENGINE_DEFINE(pvsync2, ENGINE_SYNC | ENGINE_UNIT_FD | ENGINE_ATOMIC,
	      ENGINE_STATE(struct pvsync2_data), .init = pvsync2_init,
	      .queue = pvsync2_queue,
	      .options = pvsync2_options, .check_job = pvsync2_check_job);
