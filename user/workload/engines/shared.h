/* SPDX-License-Identifier: GPL-2.0 */
/* What several engines do the same way, written once. */
#ifndef IODIG_ENGINES_SHARED_H
#define IODIG_ENGINES_SHARED_H

#include <stdbool.h>
#include <stdint.h>

#include "base/errbuf.h"
#include "workload/engine.h"
#include "workload/job.h"

struct worker;

/* hipri=1 asks the kernel to poll for completions, which it does only for
 * O_DIRECT I/O: the check_job of every engine that takes hipri. */
int engine_check_hipri(bool hipri, const struct job *job, const char *where,
		       struct errbuf *err);

/* One blocking I/O of @u on @fd: pread/pwrite, or preadv2/pwritev2 with
 * @rwf (RWF_* flags) when not 0.  Bytes transferred or -errno. */
int64_t engine_sync_rw(int fd, const struct io_unit *u, int rwf);

/* RWF_NOWAIT answered -EAGAIN: counts it and does the I/O again on this
 * thread, blocking, with @rwf (the other flags), so the unit completes
 * exactly once and the job moves on. */
void engine_nowait_retry(struct worker *w, struct io_unit *u, int rwf);

/* -EOPNOTSUPP naming @engine when the job would write buffered to a block
 * device with RWF_NOWAIT, which the kernel refuses for every write. */
int engine_refuse_nowait_writes(struct worker *w, const char *engine,
				struct errbuf *err);

/* A page-aligned buffer for one read of the job's smallest block (at most
 * the region) at the region's start: the probe read of hipri and nowait.
 * Sets *@len; NULL when out of memory. */
void *engine_probe_buf(const struct worker *w, uint32_t *len);

#endif /* IODIG_ENGINES_SHARED_H */
