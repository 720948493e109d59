/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's process options: the CPUs a worker may run on (cpus_allowed,
 * cpumask, cpus_allowed_policy), its nice value and I/O priority (nice,
 * prio, prioclass), its user and group (uid, gid), and the options fio
 * parses as "set" flags (thread=N).
 * The setters serve rows of job/options.c's table; each worker applies
 * the values to itself (workload/worker.c).
 */
#ifndef IODIG_PROCESS_OPTS_H
#define IODIG_PROCESS_OPTS_H

#include "base/errbuf.h"
#include "base/option.h"
#include "workload/job.h"

/* cpus_allowed=0,5,8-15: CPU numbers and ranges, comma separated. */
opt_setter set_cpus_allowed;
/* cpumask=34: bit N allows CPU N (CPUs 0-31, as fio). */
opt_setter set_cpumask;
/* nice=-20..19, a signed whole number. */
opt_setter set_nice;
/* uid= and gid=: a number, -1 (fio's unset, as is 4294967295) for
 * none; stored in an unsigned int, JOB_ID_NONE for none. */
opt_setter set_cred_id;
/* prio=0..7 and prioclass=0..3: either one asks for an I/O priority. */
opt_setter set_ioprio_part;
/* fio's "set" options (thread, time_based, stonewall ...): a bare key or
 * any whole number, 0 off and anything else on. */
opt_setter set_flag_number;

/* What only this machine can say: that the CPUs a job names exist.  fio
 * checks this when it runs a job, not with --parse-only. */
int job_check_host(const struct job *job, const char *where,
		   struct errbuf *err);

#endif /* IODIG_PROCESS_OPTS_H */
