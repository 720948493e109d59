/* SPDX-License-Identifier: GPL-2.0 */
/* fio's process options, applied by each worker to itself. */
#ifndef IODIG_WORKER_PROCESS_H
#define IODIG_WORKER_PROCESS_H

#include "workload/worker.h"

/* The job's CPUs (cpus_allowed, cpumask, split policy), nice value and
 * I/O priority for the calling thread; on failure returns -errno with
 * the reason in @why. */
int worker_apply_process_opts(const struct worker *w, char *why, size_t len);

#endif /* IODIG_WORKER_PROCESS_H */
