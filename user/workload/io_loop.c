// SPDX-License-Identifier: GPL-2.0
/*
 * One worker's I/O loop (fio's do_io): fill a unit (io_loop_fill.c),
 * hand it to the engine, commit, reap and complete it
 * (io_loop_complete.c), with the syncs the job asks for between
 * (io_loop_sync.c); pacing, flow, latency_target, ramp and runtime
 * decide when.  The worker's life around it is workload/worker.c.
 * Worker code never prints; errors land in the worker's shared stats.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "workload/file_lock.h"
#include "workload/io_loop_internal.h"
#include "workload/io_units.h"
#include "workload/trim.h"

void worker_sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000ull,
			       .tv_nsec = ns % 1000000000ull };

	nanosleep(&ts, NULL);
}

bool worker_stopped(const struct worker *w)
{
	return *w->stop != 0 || w->stats->stop != 0;
}

/* A think's wait ends when the worker is told to stop. */
static bool think_interrupted(const void *w)
{
	return worker_stopped(w);
}

int worker_fail(struct worker *w, int ret, const char *fmt, ...)
{
	struct worker_stats *s = w->stats;
	va_list ap;

	if (s->error)
		return ret;
	s->error = ret;
	va_start(ap, fmt);
	vsnprintf(s->errmsg, sizeof(s->errmsg), fmt, ap);
	va_end(ap);
	return ret;
}

/*
 * The time the loop decides by (runtime, ramp, interval samples): the
 * last reading, until the loop may have waited since.  A vDSO clock read
 * costs as much as the rest of a null I/O's pass, and fio reads the TSC
 * instead; latencies always read the clock.
 */
static uint64_t loop_clock(struct io_loop *lp)
{
	if (!lp->clock_ns)
		lp->clock_ns = now_ns();
	return lp->clock_ns;
}

/* After a wait (a sleep, a sync, a submission), the next decision reads
 * the clock. */
static void loop_waited(struct io_loop *lp)
{
	lp->clock_ns = 0;
}

void io_loop_start_accounting(struct io_loop *lp, uint64_t now)
{
	struct worker_stats *s = lp->w->stats;

	lp->accounting = true;
	if (lp->w->job->ramp_time_ns) /* fio's reset_all_stats */
		rwmix_reset_counts(&lp->w->rwmix);
	s->start_ns = now;
	stats_start_windows(s, now);
	iolog_start(&lp->logs, now);
	getrusage(RUSAGE_THREAD, &lp->ru_start);
	counters_start(&lp->counters);
}

int loop_commit(struct io_loop *lp)
{
	struct worker *w = lp->w;
	struct worker_stats *s = w->stats;
	int n;

	if (!lp->queued)
		return 0;
	n = lp->engine->commit(w);
	loop_waited(lp);
	if (n < 0)
		return lp->error = worker_fail(w, n, "submitting I/O to %s failed: %s",
					       w->path, strerror(-n));
	lp->queued -= (unsigned int)n;
	lp->inflight += (unsigned int)n;
	/* fio's libaio and io_uring stamp read_iolog's last issue here */
	if (n && w->replay)
		replay_cursor_issued(&lp->replay, now_ns());
	s->submit_calls++;
	s->submit_dist[batch_bucket((unsigned int)n)]++;
	s->depth_dist[depth_bucket(lp->inflight)] += (unsigned int)n;
	return n;
}

/* fio's do_io for a writing verify job stops after size bytes queued
 * (random writes without a random map: io_size), twice that with
 * verify_backlog, whose reads count too; then the verify phase runs.  A
 * sync engine's I/O is not counted there (fio's bytes_issued): its loop
 * goes on to the end of its offsets (a random map full costs one more
 * draw; a mixed sequential job reads and writes to the end) or of the
 * loops' budget of io_size (io_loop_more).  A time_based job stops
 * there too, "to run verification" (fio's do_io), when what it queued
 * (not what completed at once) reaches the limit, and its passes go on
 * until the runtime (run_loops); on a sync engine it never stops there. */
static bool verify_write_limit_reached(const struct io_loop *lp)
{
	const struct worker *w = lp->w;
	const struct job *job = w->job;
	uint64_t limit = w->region_len;

	if (!rw_has_write(job->rw))
		return false;
	if (rw_is_random(job->rw) && job->norandommap && w->io_limit > limit)
		limit = w->io_limit;
	if (job->verify_backlog && job->do_verify)
		limit += w->region_len;
	return lp->queued_bytes >= limit;
}

/* fio's exceeds_number_ios: the I/Os of all loops (io_blocks, which no
 * loop resets, the verify phase's reads too) against number_ios times
 * loops, so a loop runs its whole pass while the budget lasts and the
 * single loop of a reading verify job goes on to that product. */
static bool number_ios_reached(const struct io_loop *lp)
{
	const struct job *job = lp->w->job;
	uint64_t limit = job->number_ios * job->loops;

	if (!job->number_ios || lp->verify_phase)
		return false;
	if (limit / job->loops != job->number_ios)
		limit = UINT64_MAX;
	return lp->issued_ios >= limit;
}

bool io_loop_more(const struct io_loop *lp, uint64_t now)
{
	const struct worker *w = lp->w;

	if (worker_stopped(w) || lp->error || lp->full || lp->lat_done)
		return false;
	if (lp->exhausted && !lp->verify_phase)
		return false;
	if (number_ios_reached(lp))
		return false;
	if (lp->deadline_ns && now >= lp->deadline_ns)
		return false;
	if (lp->verify && (lp->vr.stop || lp->verify_phase))
		return !lp->vr.stop && vlog_pending(&lp->vr.log);
	if (lp->verify && verify_write_limit_reached(lp))
		return false;
	if (w->job->time_based)
		return true;
	/* a loop ends at size bytes queued, but where another pass is due
	 * (io_size past the region, the last loop) fio starts the next */
	if (lp->shared_budget)
		return lp->issued_bytes - lp->backlog_bytes < lp->loop_budget &&
		       (lp->queued_bytes < w->region_len || fill_another_pass(lp));
	return lp->issued_bytes - lp->backlog_bytes < lp->loop_budget;
}

/* The next I/O: the one the engine refused last time, as fio requeues
 * it (same offset, its wait counted in its latency), or a new one. */
static struct io_unit *next_unit(struct io_loop *lp)
{
	struct worker *w = lp->w;
	const struct engine_ops *e = lp->engine;
	struct io_unit *u = lp->retry;

	if (u) {
		lp->retry = NULL;
		return u;
	}
	u = lp->free_list;
	lp->free_list = u->next_free;
	if (!fill_next_io(lp, u)) {
		u->next_free = lp->free_list;
		lp->free_list = u;
		return NULL;
	}
	if (e->prep && e->prep(w, u) < 0) {
		lp->error = worker_fail(w, -EIO, "engine %s could not prepare I/O", e->name);
		return NULL;
	}
	u->start_ns = lp->issue_clock_ns = now_ns();
	return u;
}

/* What is in flight and will complete: not the units the engine lost,
 * for which fio would wait forever. */
static unsigned int live_inflight(const struct io_loop *lp)
{
	return lp->inflight - lp->w->units_lost;
}

/* fio waits for every I/O in flight before it sleeps (io_u_quiesce),
 * one or more at a time as they come. */
int loop_quiesce(struct io_loop *lp)
{
	if (lp->queued && loop_commit(lp) < 0)
		return -1;
	while (live_inflight(lp))
		if (complete_reap(lp, 1) < 0)
			return -1;
	return 0;
}

/* fio's do_io at its loop's end: what is queued goes in, and one reap
 * waits for all in flight (io_u_queued_complete with cur_depth). */
int loop_drain(struct io_loop *lp)
{
	if (lp->queued && loop_commit(lp) < 0)
		return -1;
	if (live_inflight(lp) && complete_reap(lp, live_inflight(lp)) < 0)
		return -1;
	return 0;
}

/* thinktime: asked after each I/O issued and after a reap, where fio's
 * do_io asks; the think itself waits for the top of the next pass. */
static bool think_due(struct io_loop *lp)
{
	if (!lp->think_pending && pacing_think_due(&lp->pace))
		lp->think_pending = true;
	return lp->think_pending;
}

/* rate, rate_iops: holds @u back until its direction is within the
 * rate (false: @u is kept for later).  Inline, fio lets the I/O in
 * flight complete first; offloaded, it stays in flight, so that the
 * submissions keep the rate whatever the completions do. */
static bool pace_before_issue(struct io_loop *lp, struct io_unit *u)
{
	uint64_t now = now_ns(), delay = pacing_delay(&lp->pace, u->ddir, now);

	if (!delay)
		return true;
	lp->retry = u;
	lp->paced = true;
	if (lp->w->job->io_submit_mode == SUBMIT_INLINE && loop_quiesce(lp) < 0)
		return false;
	if (lp->deadline_ns && now + delay > lp->deadline_ns)
		delay = lp->deadline_ns > now ? lp->deadline_ns - now : 0;
	worker_sleep_ns(delay < 10000000 ? delay : 10000000); /* stays responsive to stop */
	u->start_ns = now_ns();
	return false;
}

/* flow=: false while the job is ahead of its share of the flow; with
 * flow_sleep, fio lets the I/O in flight complete and sleeps. */
static bool flow_allows(struct io_loop *lp)
{
	unsigned int sleep_us = lp->w->job->flow_sleep_us;

	if (lp->retry || flow_may_issue(&lp->flow))
		return true;
	if (sleep_us && loop_quiesce(lp) == 0)
		worker_sleep_ns((uint64_t)sleep_us * 1000);
	loop_waited(lp);
	return false;
}

/* serialize_overlap, inline: a unit whose range meets one in flight is
 * held as fio's busy queue holds it, until completions free the range.
 * Offloaded, the submit threads check it (workload/offload.c). */
static bool overlap_held(const struct io_loop *lp, const struct io_unit *u)
{
	const struct worker *w = lp->w;

	return w->job->serialize_overlap &&
	       w->job->io_submit_mode == SUBMIT_INLINE &&
	       unit_overlaps_in_flight(w->units, w->nr_units, u);
}

/* Queues one I/O; returns false when the engine had no room.  A sync
 * I/O's completion time lands in @done. */
static bool issue_unit(struct io_loop *lp, uint64_t *done)
{
	struct worker *w = lp->w;
	const struct engine_ops *e = lp->engine;
	bool offloaded = w->job->io_submit_mode == SUBMIT_OFFLOAD;
	struct io_unit *u;
	enum io_result r;
	int synced;

	fill_loop_at_size(lp);
	if (lp->error)
		return false;
	synced = sync_if_due(lp);
	if (synced)
		return synced > 0;
	u = next_unit(lp);
	if (!u && lp->sync_first) /* a new loop's sync goes first */
		return issue_unit(lp, done);
	if (!u)
		return false;
	if (lp->pacing && !pace_before_issue(lp, u))
		return false;
	if (overlap_held(lp, u)) {
		lp->retry = u;
		return false;
	}
	u->issue_ns = u->start_ns;
	io_trace_io(&lp->trace, w, u);
	/* offloaded, the submit thread locks around the engine's own queue
	 * (workload/offload.c), not this hand-off to it */
	if (!offloaded)
		file_lock_take(w, u);
	r = trim_or_queue(w, e, u, lp->queued);
	if (!offloaded)
		file_lock_drop(w, u);
	if (r == IO_BUSY) {
		lp->retry = u;
		return false;
	}
	if (ddir_counts_in_size(w->job->rw, u->ddir)) {
		lp->issued_bytes += u->len;
		/* fio's do_io counts toward its pass only what is queued,
		 * not what completed at once */
		if (r != IO_COMPLETED)
			lp->queued_bytes += u->len;
	}
	lp->issued_ios++;
	/* fio's io_issues, which the mix's runs count, leave out the reads
	 * of the verify log (IO_U_F_VER_LIST) */
	if (!(lp->verify && verify_run_logged(&lp->vr, u)))
		rwmix_issued(&w->rwmix, u->ddir);
	file_sync_issued(&lp->sync, u);
	if (lp->pacing) {
		pacing_issued(&lp->pace, u->ddir, u->len);
		pacing_think_count(&lp->pace, true);
	}
	if (lp->verify && verify_run_logged(&lp->vr, u))
		lp->backlog_bytes += u->len;
	if (lp->accounting && u->start_ns >= lp->ramp_end_ns)
		w->stats->issued[u->ddir]++;
	if (r == IO_COMPLETED) {
		/* a synchronous engine's issue, for read_iolog's pace */
		if (w->replay)
			replay_cursor_issued(&lp->replay, u->issue_ns);
		/* fio counts a sync I/O as one submit and one complete. */
		w->stats->submit_calls++;
		w->stats->submit_dist[batch_bucket(1)]++;
		w->stats->depth_dist[depth_bucket(1)]++;
		w->stats->complete_calls++;
		w->stats->complete_dist[batch_bucket(1)]++;
		complete_unit(lp, u, *done = now_ns(), true);
	} else {
		lp->queued++;
		u->in_flight = true;
	}
	return true;
}

/* issue_unit, after which the loop's time is a sync I/O's completion,
 * else read anew: it may have waited (a sync, the rate, a zone reset,
 * read_iolog's delays). */
static bool issue_one(struct io_loop *lp)
{
	uint64_t done = 0;
	bool ok = issue_unit(lp, &done);

	lp->clock_ns = done;
	return ok;
}

/* latency_target caps what is in flight at the depth being tried. */
static bool below_lat_depth(const struct io_loop *lp)
{
	return !lat_target_on(lp->w->job) || lp->inflight + lp->queued < lp->lat.qd;
}

/* latency_target, after each pass (fio's lat_target_check): drain after
 * a ramp down; the final window starts the statistics anew. */
static int lat_step(struct io_loop *lp)
{
	struct worker_stats *s = lp->w->stats;
	uint64_t now;

	if (!lat_target_on(lp->w->job) || !lp->accounting)
		return 0;
	now = now_ns();
	switch (lat_target_check(&lp->lat, now)) {
	case LAT_RESTART_STATS:
		lp->lat.quiesce_due = true;
		stats_reset_io(s);
		prio_stats_reset(lp->w->prio);
		rwmix_reset_counts(&lp->w->rwmix);
		s->start_ns = lp->ramp_end_ns = now;
		stats_start_windows(s, now);
		break;
	case LAT_DONE:
		lp->lat_done = true;
		break;
	case LAT_GO_ON:
		break;
	}
	if (!lp->lat.quiesce_due)
		return 0;
	lp->lat.quiesce_due = false;
	return loop_quiesce(lp);
}

int io_loop_run(struct io_loop *lp)
{
	struct worker *w = lp->w;
	const struct job *job = w->job;
	unsigned int depth = w->nr_units;
	unsigned int batch = job->iodepth_batch_submit ? job->iodepth_batch_submit : 1;
	unsigned int reap_min = job->iodepth_batch_complete_min ?
				job->iodepth_batch_complete_min : 1;
	uint64_t now;

	loop_waited(lp);
	while (!lp->error) {
		bool busy = false, full;

		if (lp->think_pending) {
			lp->think_pending = false;
			if (loop_quiesce(lp) < 0)
				break;
			pacing_think(&lp->pace, think_interrupted, w);
			loop_waited(lp);
		}
		now = loop_clock(lp);
		if (!lp->accounting && now >= lp->ramp_end_ns)
			io_loop_start_accounting(lp, now);
		if (lp->accounting) {
			stats_tick(w->stats, now);
			iolog_tick(&lp->logs, now);
		}
		if (lat_step(lp) < 0)
			break;
		/* At most one queue's worth per pass, so sync engines come
		 * back here to close stats intervals and see the ramp end.
		 * The runtime is checked again before each I/O, as fio's do_io
		 * checks it, since a submission may have done the I/O (buffered
		 * AIO, tmpfs): against the last I/O's start, a clock read
		 * already made, so it lags by one submission at most. */
		lp->issue_clock_ns = now;
		for (unsigned int n = 0; n < depth && (lp->free_list || lp->retry) &&
		     below_lat_depth(lp) && io_loop_more(lp, lp->issue_clock_ns) &&
		     flow_allows(lp); n++) {
			if (!issue_one(lp)) {
				/* a wait for the rate is no full queue, nor the
				 * end of the I/O to issue (fio's get_io_u finds
				 * none and do_io leaves its loop) */
				busy = !lp->paced &&
				       (lp->retry || io_loop_more(lp, lp->issue_clock_ns));
				lp->paced = false;
				break;
			}
			if (lp->queued >= batch && loop_commit(lp) < 0)
				break;
			if (lp->pacing && think_due(lp))
				break;
		}
		if (lp->error)
			break;
		if (lp->queued && loop_commit(lp) < 0)
			break;
		if (!live_inflight(lp)) {
			/* commit() may submit nothing (-EAGAIN): retry it. */
			if (!lp->queued && (!io_loop_more(lp, loop_clock(lp)) ||
					    !(lp->free_list || lp->retry)))
				break;
			continue;
		}
		/* fio reaps only when the queue is full or nothing more will
		 * be issued. */
		full = busy || !(lp->free_list || lp->retry) || !below_lat_depth(lp);
		if (!full) {
			if (io_loop_more(lp, loop_clock(lp)))
				continue;
			/* nothing more will be issued: fio's do_io leaves its
			 * loop and waits for all in flight in one call */
			if (complete_reap(lp, live_inflight(lp)) < 0)
				break;
			continue;
		}
		/* a full queue is reaped down to iodepth_low, each wait for
		 * iodepth_batch_complete_min (fio's wait_for_completions) */
		do {
			if (complete_reap(lp, reap_min < lp->inflight ? reap_min :
				 lp->inflight) < 0)
				break;
		} while (lp->inflight > job->iodepth_low && live_inflight(lp) && !lp->error);
		if (lp->error)
			break;
		if (lp->pacing)
			think_due(lp);
	}
	/* Drain what is still in flight so buffers are free before cleanup;
	 * stats keep counting, as the I/O was issued within the run. */
	while (live_inflight(lp) && complete_reap(lp, live_inflight(lp)) >= 0)
		;
	return lp->error ? lp->error : sync_at_end(lp);
}
