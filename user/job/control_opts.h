/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's job-control options that need their own parsing: continue_on_error,
 * ignore_error, numa_cpu_nodes, numa_mem_policy, zonemode.  The setters
 * serve rows of job/options.c's table.
 */
#ifndef IODIG_CONTROL_OPTS_H
#define IODIG_CONTROL_OPTS_H

#include "base/errbuf.h"
#include "base/option.h"
#include "workload/job.h"

/* none, read, write, io, verify, all (and fio's 0/1, false/true). */
opt_setter set_continue_on_error;
/* READ_LIST,WRITE_LIST,VERIFY_LIST: ':'-separated errno names or numbers. */
opt_setter set_ignore_error;
/* numa_cpu_nodes=0-1: the CPUs of those NUMA nodes, as cpus_allowed. */
opt_setter set_numa_cpu_nodes;
/* numa_mem_policy: accepted where it cannot change where memory goes (one
 * node, or default/local), refused elsewhere. */
opt_setter set_numa_mem_policy;
/* A number from 0 to 1 into a double (zone_reset_threshold ...). */
opt_setter set_fraction;

/* The rows of these options, a table of the job's (job/options.c). */
extern const struct opt_desc control_options[];

#endif /* IODIG_CONTROL_OPTS_H */
