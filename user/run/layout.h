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

/* Creates or sizes every file of @job that needs it (create_on_open,
 * allow_file_create, overwrite, fill_device, file_append as fio). */
int layout_job_files(const struct run_ctx *ctx, const struct job *job,
		     const struct job_target *t, struct errbuf *err);

#endif /* IODIG_RUN_LAYOUT_H */
