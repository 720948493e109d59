/* SPDX-License-Identifier: GPL-2.0 */
/* Laying out a job's files before the jobs start (fio's extend_file). */
#ifndef IODIG_RUN_LAYOUT_H
#define IODIG_RUN_LAYOUT_H

#include <stddef.h>

#include "base/errbuf.h"
#include "run/run.h"

/* The path of file @f of @job's target @t: clone f / nr_files, file
 * f % nr_files with fio's names, or the f-th of filename=. */
int layout_file_path(const struct run_ctx *ctx, const struct job *job,
		     const struct job_target *t, unsigned int f, char *buf,
		     size_t len);

/* fio's filesize=N% and size= over 100% (2^64-1-N bytes) put a file's
 * end past the largest file offset: fio's setup fails that job alone at
 * ftruncate with EINVAL, after truncating the file to nothing (a reading
 * job), or writes until the filesystem is full (a writing one).  iodig
 * fails the job in both cases and touches no file: -EINVAL and the
 * reason in @why; 0 for a job whose files fit. */
int layout_past_max(const struct job *job, const struct job_target *t,
		    char *why, size_t len);

/* The size @job's layout leaves the file @path at, at least (0: it lays
 * out no such file), for the jobs after it: fio sets up every job's files
 * in order before any job runs (create_serialize), so a later job sees
 * the files earlier ones made. */
uint64_t layout_planned_size(const struct run_ctx *ctx, const struct job *job,
			     const struct job_target *t, const char *path);

/* Creates or sizes every file of @job that needs it (create_on_open,
 * allow_file_create, overwrite, fill_device, file_append as fio).  A
 * SIGINT/SIGTERM stops it (0, the signal in @ctx->stop_signal) and undoes
 * the file it was writing out. */
int layout_job_files(struct run_ctx *ctx, const struct job *job,
		     const struct job_target *t, struct errbuf *err);

#endif /* IODIG_RUN_LAYOUT_H */
