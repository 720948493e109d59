/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's file options that take more than a plain value: file_service_type
 * and openfiles.  The setters serve rows of job/options.c's table; the
 * runner (run/prepare.c) and the worker act on the values.
 */
#ifndef IODIG_FILE_OPTS_H
#define IODIG_FILE_OPTS_H

#include "base/errbuf.h"
#include "base/option.h"
#include "workload/job.h"

/* file_service_type=random|roundrobin|sequential[:N], or zipf:THETA,
 * pareto:H, normal:SIGMA (gauss), as fio. */
opt_setter set_file_service;

/* offset=, size= and offset_increment=: a size, or as fio 3.x "N%" of
 * the file or device, resolved once the target's size is known
 * (run/prepare.c). */
opt_setter set_size_or_percent;

/* fio 3.33 reads "N%" where an option takes no percentage (filesize=,
 * size= above 100%) as the size 2^64-1-N bytes, its percent encoding
 * taken at face value: true, with that size, if @value is one. */
bool fio_raw_percent(const char *value, uint64_t *size);

/* lockfile=none|exclusive|readwrite; a ":N" after it (older fio's count
 * of I/Os per lock) is accepted and has no effect, as in fio 3.33. */
opt_setter set_lockfile;

/* Cross-checks of the file options, once the job is complete. */
int job_check_file_opts(struct job *job, const char *where,
			struct errbuf *err);

#endif /* IODIG_FILE_OPTS_H */
