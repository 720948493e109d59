// SPDX-License-Identifier: GPL-2.0
/*
 * psync: one pread/pwrite per I/O on the worker's thread, fio's default
 * engine.  hipri and nowait are per-I/O flags, so such jobs go through
 * preadv2/pwritev2 instead (what fio calls pvsync2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/uio.h>

#include "workload/engines/shared.h"
#include "workload/worker.h"

/* The engine's job options, in job->engine_opts. */
struct psync_opts {
	bool hipri;
	bool nowait;
};
ENGINE_OPTS_FIT(struct psync_opts);

#define POPT(f) OPT_FIELD(struct psync_opts, f)

/* fio's [pvsync2] options, which psync takes by switching to
 * preadv2/pwritev2. */
static const struct opt_desc psync_options[] = {
	{ .name = "hipri", .type = OPT_BOOL, POPT(hipri),
	  .help = "Polled completions (RWF_HIPRI); needs direct=1" },
	{ .name = "nowait", .type = OPT_BOOL, POPT(nowait),
	  .help = "RWF_NOWAIT: fail instead of blocking" },
	{ .name = NULL },
};

static const struct psync_opts *psync_opts(const struct job *job)
{
	return engine_opts_of(job);
}

static int psync_check_job(const struct job *job, const char *where,
			   struct errbuf *err)
{
	return engine_check_hipri(psync_opts(job)->hipri, job, where, err);
}

static int psync_rwf(const struct job *job)
{
	int flags = 0;

	if (psync_opts(job)->hipri)
		flags |= RWF_HIPRI;
	if (psync_opts(job)->nowait)
		flags |= RWF_NOWAIT;
	return flags;
}

static enum io_result psync_queue(struct worker *w, struct io_unit *u)
{
	int rwf = psync_rwf(w->job);

	u->result = engine_sync_rw(w->fd, u, rwf);
	if (u->result == -EAGAIN && (rwf & RWF_NOWAIT))
		engine_nowait_retry(w, u, rwf & ~RWF_NOWAIT);
	return IO_COMPLETED;
}

/*
 * RWF_NOWAIT is refused per I/O with -EOPNOTSUPP by files without
 * FMODE_NOWAIT (tmpfs, for one) and, for writes, by buffered block
 * devices (block/fops.c).  Catch both before the run: the write case by
 * its shape, the file case with one NOWAIT read of the first block
 * (-EAGAIN is a valid answer; a read leaves the data alone).
 */
static int psync_check_nowait(struct worker *w, struct errbuf *err)
{
	struct iovec iov;
	uint32_t len;
	ssize_t n;
	int ret;

	ret = engine_refuse_nowait_writes(w, "psync", err);
	if (ret)
		return ret;
	iov.iov_base = engine_probe_buf(w, &len);
	if (!iov.iov_base)
		return err_set(err, ENOMEM, "psync on %s: out of memory", w->path);
	iov.iov_len = len;
	do
		n = preadv2(w->fd, &iov, 1, (off_t)w->region_start, RWF_NOWAIT);
	while (n < 0 && errno == EINTR);
	free(iov.iov_base);
	if (n < 0 && errno == EOPNOTSUPP)
		return err_set(err, EOPNOTSUPP,
			       "psync on %s: nowait=1: preadv2 with RWF_NOWAIT failed with %m: the file or device does not support non-blocking I/O; drop nowait",
			       w->path);
	return 0;
}

/* psync keeps no state (the flags come from the job on every I/O), but
 * the runner calls init and cleanup for every engine. */
static int psync_init(struct worker *w, struct errbuf *err)
{
	w->engine_data = NULL;
	return psync_opts(w->job)->nowait ? psync_check_nowait(w, err) : 0;
}

static void psync_cleanup(struct worker *w)
{
	(void)w;
}

const struct engine_ops psync_engine = {
	.name = "psync",
	.flags = ENGINE_SYNC,
	.init = psync_init,
	.queue = psync_queue,
	.cleanup = psync_cleanup,
	.options = psync_options,
	.check_job = psync_check_job,
};
