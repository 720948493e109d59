/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's dedupe_mode, dedupe_working_set_percentage and dedupe_global:
 * how dedupe_percentage's repeated buffers are made; rows of
 * job/options.c's job tables and their check.  The buffers themselves
 * are workload/buffers.c's.
 */
#ifndef IODIG_DEDUPE_OPTS_H
#define IODIG_DEDUPE_OPTS_H

#include "base/errbuf.h"
#include "base/option.h"
#include "workload/job.h"

/* The rows of these options, a table of the job's (job/options.c). */
extern const struct opt_desc dedupe_options[];

/* dedupe_mode=working_set sizes its set from size, which must then be
 * given (fio's "pregenerated dedupe working set requires size"). */
int dedupe_opts_check(const struct job *job, const char *where,
		      struct errbuf *err);

#endif /* IODIG_DEDUPE_OPTS_H */
