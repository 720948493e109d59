/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's ioscheduler for the jobs of a run: each job's disk switched as
 * its workers start, every disk's old scheduler put back when the run
 * ends (also after an error or a signal).
 */
#ifndef IODIG_IO_SCHED_JOBS_H
#define IODIG_IO_SCHED_JOBS_H

#include "run/run.h"

/*
 * Switches the disk of each of workers @first..@first+@count-1 whose job
 * has ioscheduler=, once per worker as fio's job threads do.  A failed
 * switch fails that worker (its stats' error, done, never started), as
 * fio's job ends there; a disk that cannot switch (fio's "not tunable")
 * runs as it is, with a note on stderr.
 */
void io_sched_jobs_switch(struct run_ctx *ctx, unsigned int first, unsigned int count);

/* Puts back what io_sched_jobs_switch() switched (as each run ends, and
 * again at cleanup, for a run that stopped half way); the names used stay
 * for the trace file.  A failure is told on stderr: the run is over and
 * nothing is left to return it to. */
void io_sched_jobs_restore(struct run_ctx *ctx);

#endif /* IODIG_IO_SCHED_JOBS_H */
