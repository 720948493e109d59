/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's io_submit_mode=offload (its rate-submit.c and workqueue.c): the
 * worker fills each I/O and hands it to one of iodepth submit threads,
 * each with an instance of the job's engine at depth 1, which issues it
 * and waits for it; the worker takes the completions back.  The worker
 * drives it as an engine (queue hands over, getevents takes back), so
 * its loop, statistics and verify stay single-threaded.  The submit
 * threads belong to the worker's process, so the probes' workload
 * filter traces them as the job's.
 */
#ifndef IODIG_OFFLOAD_H
#define IODIG_OFFLOAD_H

#include "workload/engine.h"

/* Not in the engine list (ioengine= never names it): the worker uses it
 * in place of its job's engine when io_submit_mode=offload. */
extern const struct engine_ops offload_engine;

#endif /* IODIG_OFFLOAD_H */
