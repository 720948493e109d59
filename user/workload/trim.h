/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trims (fio's DDIR_TRIM): the discard of an I/O's range, done by the
 * worker for every engine that does not issue trims of its own, as fio's
 * engines call do_io_u_trim from their queue(): synchronously, even for
 * the engines that queue reads and writes (libaio, io_uring, posixaio).
 */
#ifndef IODIG_TRIM_H
#define IODIG_TRIM_H

#include <stdbool.h>

#include "base/errbuf.h"
#include "workload/engine.h"
#include "workload/job.h"

struct worker;

/* fio's io_bytes_exceeded: a job that writes counts only its writes (and
 * reads) against size, so trimwrite trims size bytes and writes as many. */
static inline bool ddir_counts_in_size(enum rw_mode rw, enum ddir d)
{
	return d != DDIR_TRIM || (!rw_has_write(rw) && !rw_has_read(rw));
}

/* The worker, not the engine, does @job's trims (a trim is then timed as
 * a sync I/O: no submission latency, as in fio). */
bool trim_by_worker(const struct job *job);

/* The engine's queue() for @u; a trim the worker does itself is done
 * here and completed, unless @queued I/Os wait for commit(): then it is
 * IO_BUSY first, as fio's libaio and io_uring answer a trim. */
enum io_result trim_or_queue(struct worker *w, struct io_unit *u,
			     unsigned int queued);

/* trimwrite, randtrimwrite: the direction of the next I/O, and for a
 * write the block the last trim discarded, whatever the write block size
 * (fio 3.33's get_next_block, get_next_buflen): true when @u is filled. */
enum ddir trim_next_ddir(struct worker *w);
bool trim_fill_write(struct worker *w, struct io_unit *u);

/* Refuses a trimming job whose engine has no way to trim (one operation
 * per file, or commands of its own), naming the job. */
int trim_check_job(const struct job *job, const char *where,
		   struct errbuf *err);

#endif /* IODIG_TRIM_H */
