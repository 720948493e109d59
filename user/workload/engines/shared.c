// SPDX-License-Identifier: GPL-2.0
/*
 * What several engines do the same way, written once: the direct=1
 * check of hipri, RWF_NOWAIT's refusal of buffered
 * block device writes and its blocking retry, and the buffer of the probe
 * read.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "workload/engines/shared.h"
#include "workload/worker.h"

enum io_result engine_syscall_queue(struct io_unit *u, engine_syscall_fn *call)
{
	ssize_t ret;

	do
		ret = call(u->fd, u);
	while (ret < 0 && errno == EINTR);
	u->result = engine_result(ret);
	return IO_COMPLETED;
}

int engine_check_hipri(bool hipri, const struct job *job, const char *where,
		       struct errbuf *err)
{
	if (hipri && !job->direct)
		return err_set(err, EINVAL, "%s: hipri needs direct=1: the "
			       "kernel polls only O_DIRECT I/O", where);
	return 0;
}

/* Mainline gave 0x40 to RWF_ATOMIC (Linux 6.11) instead, so each such
 * I/O fails (EOPNOTSUPP) or means something else. */
int engine_check_uncached(unsigned int uncached, const struct job *job,
			  const char *where, struct errbuf *err)
{
	if (!uncached || job->direct)
		return 0;
	return err_set(err, EINVAL, "%s: uncached=%u: fio 3.33 asks for "
		       "RWF_UNCACHED (0x40), a flag the kernel never took (0x40 "
		       "is RWF_ATOMIC since Linux 6.11), so there is no uncached "
		       "buffered I/O to do; drop uncached", where, uncached);
}

int64_t engine_rw2(int fd, const struct io_unit *u, int rwf)
{
	struct iovec iov = { .iov_base = u->buf, .iov_len = u->len };
	off_t off = (off_t)u->offset;
	ssize_t ret;

	do
		ret = u->ddir == DDIR_WRITE ? pwritev2(fd, &iov, 1, off, rwf)
					    : preadv2(fd, &iov, 1, off, rwf);
	while (ret < 0 && errno == EINTR);
	return engine_result(ret);
}

/*
 * RWF_NOWAIT answers -EAGAIN whenever the I/O would block (page not
 * cached, no free request tag, ...).  The count shows how often NOWAIT
 * could not be honoured; the blocking retry keeps the job going.
 */
void engine_nowait_retry(struct worker *w, struct io_unit *u, int rwf)
{
	if (w->stats)
		w->stats->nowait_eagain++;
	u->result = engine_rw2(u->fd, u, rwf);
}

/* The refusal is in block/fops.c: a buffered write to a block device with
 * IOCB_NOWAIT fails with -EOPNOTSUPP, so say so before the run. */
int engine_refuse_nowait_writes(struct worker *w, const char *engine,
				struct errbuf *err)
{
	struct stat st;
	int fl = fcntl(w->fd, F_GETFL);

	if (!rw_has_write(w->job->rw) || fl < 0 || (fl & O_DIRECT) ||
	    fstat(w->fd, &st) < 0 || !S_ISBLK(st.st_mode))
		return 0;
	return err_set(err, EOPNOTSUPP,
		       "%s on %s: nowait=1 (RWF_NOWAIT) with buffered writes to a block device: the kernel refuses them (Operation not supported); use direct=1",
		       engine, w->path);
}

/* The smallest block the job transfers, which direct I/O keeps aligned. */
static uint32_t job_min_bs(const struct job *job)
{
	uint32_t bs = 0;

	for (int dd = 0; dd < DDIR_COUNT; dd++) {
		uint32_t b = job->bs_min[dd] ? job->bs_min[dd] : job->bs[dd];

		if (b && (!bs || b < bs))
			bs = b;
	}
	return bs ? bs : 4096;
}

void *engine_probe_buf(const struct worker *w, uint32_t *len)
{
	void *buf = NULL;

	*len = job_min_bs(w->job);
	if (*len > w->region_len)
		*len = (uint32_t)w->region_len;
	if (posix_memalign(&buf, 4096, *len))
		return NULL;
	return buf;
}

int engine_need_regular_file(struct worker *w, const char *why,
			     struct errbuf *err)
{
	struct stat st;

	if (fstat(w->fd, &st) < 0)
		return err_set(err, errno, "%s on %s: fstat: %m",
			       w->job->engine->name, w->path);
	if (!S_ISREG(st.st_mode))
		return err_set(err, EINVAL, "%s on %s: not a regular file: %s",
			       w->job->engine->name, w->path, why);
	return 0;
}

int engine_refuse_verify(const struct job *job, const char *where,
			 struct errbuf *err)
{
	if (job->verify == VERIFY_NONE)
		return 0;
	return err_set(err, EINVAL, "%s: verify with ioengine=%s: its writes "
		       "carry no data to read back (fio skips verify for it)",
		       where, job->engine->name);
}

/* Where @u's bytes are in @m; NULL when @u is not wholly inside it. */
static char *engine_map_at(const struct io_unit *u, const struct engine_map *m)
{
	uint64_t at = u->offset - m->off;

	if (u->offset < m->off || at > m->len || u->len > m->len - at)
		return NULL;
	return m->addr + at;
}

void engine_map_memcpy(void *dst, const void *src, size_t len,
		       unsigned int flags)
{
	(void)flags;
	memcpy(dst, src, len);
}

enum io_result engine_map_io(struct io_unit *u, const struct engine_map *m,
			     engine_map_store_fn *store, unsigned int flags)
{
	char *p = engine_map_at(u, m);

	if (!p) {
		u->result = -EINVAL;
		return IO_COMPLETED;
	}
	if (u->ddir == DDIR_WRITE)
		store(p, u->buf, u->len, flags);
	else
		memcpy(u->buf, p, u->len);
	u->result = u->len;
	return IO_COMPLETED;
}

void engine_map_unmap(struct engine_map *m)
{
	if (m->addr)
		munmap(m->addr, m->len);
	m->addr = NULL;
}
