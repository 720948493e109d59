// SPDX-License-Identifier: GPL-2.0
/*
 * psync: one pread/pwrite per I/O on the worker's thread, fio's default
 * engine.  hipri and nowait are per-I/O flags, so such jobs go through
 * preadv2/pwritev2 instead (what fio calls pvsync2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

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

/* Bytes transferred or -errno. */
static int64_t psync_rw(int fd, const struct io_unit *u, int rwf)
{
	struct iovec iov = { .iov_base = u->buf, .iov_len = u->len };
	off_t off = (off_t)u->offset;
	ssize_t ret;

	do {
		if (!rwf)
			ret = u->ddir == DDIR_WRITE ? pwrite(fd, u->buf, u->len, off)
						    : pread(fd, u->buf, u->len, off);
		else
			ret = u->ddir == DDIR_WRITE ? pwritev2(fd, &iov, 1, off, rwf)
						    : preadv2(fd, &iov, 1, off, rwf);
	} while (ret < 0 && errno == EINTR);
	return ret < 0 ? -errno : ret;
}

static enum io_result psync_queue(struct worker *w, struct io_unit *u)
{
	int rwf = psync_rwf(w->job);

	u->result = psync_rw(w->fd, u, rwf);
	/*
	 * RWF_NOWAIT answers -EAGAIN whenever the I/O would block (page not
	 * cached, no free request tag, ...).  Count it, then issue the same
	 * I/O once more without the flag so the job still moves on: the count
	 * shows how often NOWAIT could not be honoured.
	 */
	if (u->result == -EAGAIN && (rwf & RWF_NOWAIT)) {
		if (w->stats)
			w->stats->nowait_eagain++;
		u->result = psync_rw(w->fd, u, rwf & ~RWF_NOWAIT);
	}
	return IO_COMPLETED;
}

/* The smallest block the job transfers, which direct I/O keeps aligned. */
static uint32_t job_min_bs(const struct job *job)
{
	uint32_t bs = 0;
	int dd;

	for (dd = 0; dd < DDIR_COUNT; dd++) {
		uint32_t b = job->bs_min[dd] ? job->bs_min[dd] : job->bs[dd];

		if (b && (!bs || b < bs))
			bs = b;
	}
	return bs ? bs : 4096;
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
	uint32_t len = job_min_bs(w->job);
	struct iovec iov;
	struct stat st;
	void *buf = NULL;
	ssize_t ret;
	int fl;

	fl = fcntl(w->fd, F_GETFL);
	if (fl >= 0 && !(fl & O_DIRECT) && rw_has_write(w->job->rw) &&
	    fstat(w->fd, &st) == 0 && S_ISBLK(st.st_mode))
		return err_set(err, EOPNOTSUPP,
			       "psync on %s: nowait=1 (RWF_NOWAIT) with buffered writes to a block device: the kernel refuses them (Operation not supported); use direct=1",
			       w->path);
	if (len > w->region_len)
		len = (uint32_t)w->region_len;
	if (posix_memalign(&buf, 4096, len))
		return err_set(err, ENOMEM, "psync on %s: out of memory", w->path);
	iov.iov_base = buf;
	iov.iov_len = len;
	do
		ret = preadv2(w->fd, &iov, 1, (off_t)w->region_start, RWF_NOWAIT);
	while (ret < 0 && errno == EINTR);
	free(buf);
	if (ret < 0 && errno == EOPNOTSUPP)
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
