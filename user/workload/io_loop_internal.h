/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The steps one worker's I/O loop shares between its files: the loop
 * itself (io_loop.c), choosing the next I/O (io_loop_fill.c), its
 * completions (io_loop_complete.c), its syncs (io_loop_sync.c).
 * Private to those files; the rest of the workload layer uses
 * workload/io_loop.h.
 */
#ifndef IODIG_WORKLOAD_IO_LOOP_INTERNAL_H
#define IODIG_WORKLOAD_IO_LOOP_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "workload/io_loop.h"

/* io_loop.c: what the engine holds goes to it (fio's io_u_commit);
 * how many went, or the worker's error (lp->error). */
int loop_commit(struct io_loop *lp);
/* io_loop.c: fio's io_u_quiesce, every I/O in flight waited for; 0, or
 * -1 with the error in lp->error. */
int loop_quiesce(struct io_loop *lp);

/* io_loop_fill.c: @u filled with the next I/O, a read of the verify log
 * when one is due, else the job's own with its data; false when none is
 * left.  Whether another pass over the region may start (fio's
 * keep_running after a pass). */
bool fill_next_io(struct io_loop *lp, struct io_unit *u);
bool fill_another_pass(const struct io_loop *lp);

/* io_loop_complete.c: @u is done at @now, accounted and freed
 * (@at_submit: the engine completed it in its queue call); at least
 * @min completions reaped (at most iodepth_batch_complete_max): how
 * many, or the worker's error. */
void complete_unit(struct io_loop *lp, struct io_unit *u, uint64_t now,
		   bool at_submit);
int complete_reap(struct io_loop *lp, unsigned int min);

/* io_loop_sync.c: the sync due before the next I/O (1: it took the
 * slot, 0: the I/O may go, -1: nothing more this pass); end_fsync and
 * fsync_on_close; read_iolog's replayed sync (@arg the loop). */
int sync_if_due(struct io_loop *lp);
int sync_at_end(struct io_loop *lp);
int sync_replayed(void *arg, unsigned int file, bool datasync);

#endif /* IODIG_WORKLOAD_IO_LOOP_INTERNAL_H */
