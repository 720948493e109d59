/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's pre_read: the job's region of each of its files read into the
 * page cache before its I/O starts, so the job measures cached reads.
 */
#ifndef IODIG_PRE_READ_H
#define IODIG_PRE_READ_H

#include "base/errbuf.h"
#include "workload/job.h"

struct worker;

/* As fio's fixup_options: pre_read turns invalidate off.  Refuses what
 * fio cannot pre-read either (it fails or crashes): direct=1, a diskless
 * or file-operation engine; @where names the job. */
int pre_read_resolve(struct job *job, const char *where, struct errbuf *err);

/* Reads the worker's region of each of its files (a regular file or a
 * block device; others are skipped, as fio does) with the job's largest
 * read block size, as fio's pre_read_file.  -errno with @err saying
 * which file and where it stopped. */
int worker_pre_read(const struct worker *w, struct errbuf *err);

#endif /* IODIG_PRE_READ_H */
