// SPDX-License-Identifier: GPL-2.0
/*
 * The syncs inside one worker's I/O loop: fsync= and fdatasync= before
 * the I/O they follow (by the worker, the engine's sync_file, or a unit
 * queued beside the I/O in flight), read_iolog's replayed syncs, and
 * end_fsync, fsync_on_close at the end of each pass; with their lines in
 * write_iolog.
 * The loop itself is workload/io_loop.c.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "workload/files.h"
#include "workload/io_loop_internal.h"

/* read_iolog's sync of file @file once the I/O in flight completed,
 * counted in the job's sync figures as fio counts a replayed one. */
int sync_replayed(void *arg, unsigned int file, bool datasync)
{
	struct io_loop *lp = arg;
	uint64_t start;
	int ret;

	if (loop_quiesce(lp) < 0)
		return -EIO; /* the drain's own error is the worker's already */
	start = now_ns();
	ret = file_sync_replayed(lp->w, lp->engine, file, datasync);
	if (!ret && lp->accounting && start >= lp->ramp_end_ns)
		stats_account_sync(lp->w->stats, !datasync, now_ns() - start);
	return ret;
}

/* A sync engine has no I/O in flight but what it holds for commit
 * (vsync), and offloaded I/O is held by the submit threads: those are
 * drained before a sync. */
static bool sync_drains(const struct job *job)
{
	return engine_is_sync(job) || job->io_submit_mode == SUBMIT_OFFLOAD;
}

/* write_iolog's line of the sync @k by the worker, with the offset of the
 * unit fio's sync would take */
static void trace_sync_now(struct io_loop *lp, enum io_sync k)
{
	io_trace_sync(&lp->trace, lp->w, lp->sync.file, k,
		      lp->free_list ? lp->free_list->offset : 0);
}

/* The sync @k by the worker, or the engine's sync_file, which waits for
 * it: fio's libaio does DDIR_SYNC so once what it queued is submitted,
 * with the I/O in flight left alone.  False on an error. */
static bool sync_now(struct io_loop *lp, enum io_sync k)
{
	uint64_t start;
	int ret;

	if ((sync_drains(lp->w->job) ? loop_quiesce(lp) : loop_commit(lp)) < 0)
		return false;
	trace_sync_now(lp, k);
	start = now_ns();
	ret = file_sync_run(&lp->sync, lp->w, lp->engine, k);
	if (lp->fs.of && open_files_put(&lp->open, lp->sync.file))
		sync_close_file(lp, lp->sync.file);
	if (ret) {
		lp->error = worker_fail(lp->w, ret, "%s of %s failed: %s",
					io_sync_name(k), lp->w->path, strerror(-ret));
		return false;
	}
	if (lp->accounting && start >= lp->ramp_end_ns)
		stats_account_sync(lp->w->stats, k == IO_SYNC_FSYNC, now_ns() - start);
	return true;
}

/* The sync @k as a unit of its own beside the I/O in flight
 * (ENGINE_QUEUED_SYNC), as fio queues a DDIR_SYNC io_u: false when no
 * unit is free or the engine has no room (the loop reaps first) or on
 * an error. */
static bool queue_sync(struct io_loop *lp, enum io_sync k)
{
	struct worker *w = lp->w;
	struct io_unit *u = lp->free_list;
	enum io_result r;

	if (!u)
		return false;
	lp->free_list = u->next_free;
	io_trace_sync(&lp->trace, w, lp->sync.file, k, u->offset);
	file_sync_fill(&lp->sync, u, k);
	u->start_ns = u->issue_ns = now_ns();
	r = lp->engine->queue(w, u);
	if (r == IO_BUSY) {
		u->sync = IO_SYNC_NONE;
		u->next_free = lp->free_list;
		lp->free_list = u;
		return false;
	}
	if (r == IO_COMPLETED) { /* the engine could not start it */
		complete_unit(lp, u, now_ns(), true);
		return false;
	}
	file_sync_sent(&lp->sync);
	lp->queued++;
	u->in_flight = true;
	return true;
}

/* With several files fio's sync takes the next file from file_service,
 * as an I/O does (set_io_u_file before fill_io_u sees the sync), opened
 * there when it is closed.  1: aimed; 0: no file is left, with files
 * opening as they go fio's sync then does not happen (all open, it
 * goes to the last write's); -1: openfiles' EBUSY (the loop reaps and
 * picks again, as fio's do_io) or an error. */
static int aim_sync(struct io_loop *lp)
{
	unsigned int k = file_service_pick(&lp->fs, lp->w->job);

	fill_settle_files(lp);
	if (k == lp->fs.nr)
		return lp->fs.busy ? -1 : lp->fs.of ? 0 : 1;
	if (!fill_open_file(lp, k))
		return -1;
	file_sync_aim(&lp->sync, lp->w->fds[k], k);
	return 1;
}

/* fsync=, fdatasync=: the sync @k due before the next I/O (fio's
 * get_rw_ddir), once sync_if_due found one. */
int sync_run_due(struct io_loop *lp, enum io_sync k)
{
	if (lp->fs.files && !lp->sync.aimed) {
		int aimed = aim_sync(lp);

		if (aimed <= 0)
			return aimed;
	}
	if (lp->engine->flags & ENGINE_QUEUED_SYNC)
		return queue_sync(lp, k) ? 1 : -1;
	if (lp->queued && !sync_drains(lp->w->job)) {
		/* fio's libaio turns a sync away (FIO_Q_BUSY) while it holds
		 * I/O not yet submitted (iodepth_batch_submit > 1): that is
		 * submitted and a completion reaped, as for a busy engine,
		 * before the sync is tried again; fio's log has both tries */
		trace_sync_now(lp, k);
		return -1;
	}
	return sync_now(lp, k) ? 0 : -1;
}

void sync_close_file(struct io_loop *lp, unsigned int k)
{
	const struct job *job = lp->w->job;

	/* fio's put_file fsyncs unless the last I/O was a sync
	 * (should_fsync), outside its figures and its log; it keeps the
	 * error only as the close's, which no caller of a done file's
	 * close looks at */
	if (job->fsync_on_close && rw_has_write(job->rw) && !lp->sync.last_was_sync &&
	    lp->w->fds[k] >= 0)
		(void)fsync(lp->w->fds[k]);
	worker_close_file(lp->w, k);
}

/* write_iolog's lines of end_fsync and fsync_on_close: fio's
 * fio_file_fsync opens a file closed by then for its sync and closes it
 * again; the sync has the offset of the unit it takes. */
static void trace_syncs_at_end(struct io_loop *lp)
{
	const struct job *job = lp->w->job;

	if (!rw_has_write(job->rw) || !(job->end_fsync || job->fsync_on_close))
		return;
	for (unsigned int k = 0; k < lp->trace.nr; k++) {
		bool was_open = io_trace_file_is_open(&lp->trace, k);

		io_trace_sync(&lp->trace, lp->w, k, IO_SYNC_FSYNC,
			      lp->free_list ? lp->free_list->offset : 0);
		if (!was_open)
			io_trace_file_close(&lp->trace, lp->w, k);
	}
}

/* end_fsync, fsync_on_close, after a write phase that ended well and
 * not on a sync (fio's should_fsync: no sync follows a sync). */
int sync_at_end(struct io_loop *lp)
{
	int ret = 0;

	if (!lp->verify_phase && !lp->sync.last_was_sync) {
		trace_syncs_at_end(lp);
		ret = file_sync_at_end(lp->w, lp->engine);
	}

	if (ret)
		lp->error = worker_fail(lp->w, ret, "fsync of %s at the end failed: %s",
					lp->w->path, strerror(-ret));
	return lp->error;
}

/* The one file of a job found done, its pass over (fio's set_io_u_file
 * puts and closes it: put_file fsyncs with fsync_on_close unless the
 * last I/O was a sync, outside the log and the figures).  iodig keeps
 * the descriptor, which the next loop opens again. */
void sync_file_done(struct io_loop *lp)
{
	const struct job *job = lp->w->job;

	if (job->fsync_on_close && rw_has_write(job->rw) && !lp->sync.last_was_sync &&
	    lp->w->fd >= 0)
		(void)fsync(lp->w->fd);
	lp->file_done = true;
	io_trace_file_close(&lp->trace, lp->w, 0);
}

/* A new loop closes the one file if it is still open (fio's
 * clear_io_state: reset_io_counters first, then close_files, whose
 * put_file fsyncs with fsync_on_close even after a sync). */
void sync_loop_close(struct io_loop *lp)
{
	const struct job *job = lp->w->job;

	if (!lp->file_done && job->fsync_on_close && rw_has_write(job->rw) && lp->w->fd >= 0)
		(void)fsync(lp->w->fd);
	lp->file_done = false;
}

/* A pass over the files ended and a new loop follows (io_size past
 * them): fio's do_io ends there, waits for all its I/O in one reap, and
 * syncs each file with end_fsync or fsync_on_close as at the job's end.
 * A sync then takes the unit completed last (its log line has that
 * offset), as fio's LIFO free list gives it. */
int sync_pass_end(struct io_loop *lp)
{
	const struct job *job = lp->w->job;

	if (lp->verify_phase)
		return 0;
	if (loop_drain(lp) < 0)
		return lp->error;
	if (!rw_has_write(job->rw) || !(job->end_fsync || job->fsync_on_close) ||
	    lp->sync.last_was_sync)
		return 0;
	return sync_at_end(lp);
}
