/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's steady-state options: steadystate (ss), ss_dur, ss_ramp,
 * ss_interval; rows of job/options.c's job tables and their checks.
 */
#ifndef IODIG_STEADY_OPTS_H
#define IODIG_STEADY_OPTS_H

#include <stddef.h>

#include "base/errbuf.h"
#include "base/option.h"
#include "workload/job.h"

/* iops:N, iops_slope:N, bw:N, bw_slope:N; N a number (bw: a size per
 * second) or N% of the mean. */
opt_setter set_steadystate;

/* The rows of these options, a table of the job's (job/options.c). */
extern const struct opt_desc steady_options[];

/* A window of at least one check interval (two for a slope), an interval
 * of at least 100 ms; errors start with @where. */
int steady_opts_check(const struct job *job, const char *where, struct errbuf *err);
/* fio's td_steadystate_init: every job of a reporting group has the same
 * steady-state options (group_id must be set). */
int steady_opts_check_groups(const struct job *jobs, size_t n, struct errbuf *err);

#endif /* IODIG_STEADY_OPTS_H */
