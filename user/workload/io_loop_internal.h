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
/* io_loop.c: fio's do_io at its loop's end, all in flight waited for in
 * one reap; 0, or -1 with the error in lp->error. */
int loop_drain(struct io_loop *lp);

/* io_loop_fill.c: whether another pass over the region may start
 * (fio's keep_running after a pass). */
bool fill_another_pass(const struct io_loop *lp);
/* io_loop_fill.c: fill_loop_at_size's checks once size bytes are
 * queued. */
void fill_loop_past_size(struct io_loop *lp);
/* io_loop_fill.c: openfiles: file @k opens before an I/O or a sync goes
 * to it, which holds it until its completion, as in fio's
 * get_next_file; false on an error (in lp->error).  Files that closed
 * as done are settled first (fill_settle_files). */
bool fill_open_file(struct io_loop *lp, unsigned int k);
void fill_settle_files(struct io_loop *lp);

/* What a write carries (verify's data overrides buffer contents), and
 * which reads are checked; false when a loaded verify state says stop. */
static inline bool fill_data(struct io_loop *lp, struct io_unit *u)
{
	const struct job *job = lp->w->job;
	uint64_t now;

	if (u->ddir == DDIR_TRIM)
		return true;
	if (u->ddir == DDIR_READ)
		return !lp->verify || verify_run_plain_read(&lp->vr, u);
	now = now_ns(); /* for writes only: a clock read is costly */
	if (!lp->verify || job->verify == VERIFY_NULL)
		buffers_before_write(&lp->bufs, u->buf, u->len, u->offset, now);
	if (lp->verify)
		verify_run_write(&lp->vr, u, now);
	return true;
}

/* The next I/O: a read of the verify log when one is due (fio's
 * check_get_verify, or its do_verify phase), else the job's own
 * (io_loop_fill.c) with its data.  Inline, as fill_data: both run for
 * every I/O, where one call more costs about as much as their work. */
static inline bool fill_next_io(struct io_loop *lp, struct io_unit *u)
{
	u->fd = lp->w->fd;
	u->file = 0;
	u->nr_ranges = 0;
	if (lp->verify && verify_run_next(&lp->vr, u, lp->verify_phase)) {
		if (lp->w->fds) /* the file the write went to */
			u->fd = lp->w->fds[u->file];
		return true;
	}
	return io_loop_fill_unit(lp, u) && fill_data(lp, u);
}

/* io_loop_complete.c: @u is done at @now, accounted and freed
 * (@at_submit: the engine completed it in its queue call); at least
 * @min completions reaped (@min at most what is in flight; at most
 * iodepth_batch_complete_max of them, or @min when that is more): how
 * many, or the worker's error. */
void complete_unit(struct io_loop *lp, struct io_unit *u, uint64_t now,
		   bool at_submit);
int complete_reap(struct io_loop *lp, unsigned int min);

/* io_loop_sync.c: the sync due before the next I/O; end_fsync and
 * fsync_on_close, at the job's end and each pass's; read_iolog's
 * replayed sync (@arg the loop). */
int sync_run_due(struct io_loop *lp, enum io_sync k);
int sync_at_end(struct io_loop *lp);
int sync_replayed(void *arg, unsigned int file, bool datasync);
/* File @k closes once done (fio's put_file), fsynced first with
 * fsync_on_close. */
void sync_close_file(struct io_loop *lp, unsigned int k);
/* The single file found done at a pass's end, closed as fio's
 * set_io_u_file closes it (fsync_on_close's fsync first). */
void sync_file_done(struct io_loop *lp);
/* The one file closes for a new loop (fio's clear_io_state), fsynced
 * first with fsync_on_close unless it closed as done. */
void sync_loop_close(struct io_loop *lp);
/* A pass ended and a new loop follows: the I/O in flight completes,
 * then end_fsync and fsync_on_close sync each file as fio's do_io does
 * at its end; 0 or the worker's error. */
int sync_pass_end(struct io_loop *lp);

/* fsync=, fdatasync=: the sync due before the next I/O, if any.  1 when
 * a sync unit took the slot, 0 when the next I/O may go, -1 when nothing
 * more goes this pass (no room, or an error in lp->error).  Inline: it
 * is asked before every I/O, and mostly none is due. */
static inline int sync_if_due(struct io_loop *lp)
{
	enum io_sync k = file_sync_due(&lp->sync, lp->w->job);

	if (k == IO_SYNC_NONE || lp->retry || lp->verify_phase || lp->w->replay)
		return 0;
	return sync_run_due(lp, k);
}

/* The loop ends once it queued size bytes and another follows (fio's
 * do_io checks that before its next get_io_u, so before a sync due).
 * Inline: it is asked before every I/O, and mostly size is not reached. */
static inline void fill_loop_at_size(struct io_loop *lp)
{
	if (lp->queued_bytes >= lp->w->region_len)
		fill_loop_past_size(lp);
}

#endif /* IODIG_WORKLOAD_IO_LOOP_INTERNAL_H */
