// SPDX-License-Identifier: GPL-2.0
/*
 * One worker's I/O loop, the completion side: units reaped from the
 * engine (or completed in its queue call) are accounted (latencies,
 * log samples, per-priority figures), checked against max_latency and
 * latency_target, verified or logged for verify, judged by the job's
 * error tolerance, and freed.  The loop itself is workload/io_loop.c.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "workload/files.h"
#include "workload/io_loop_internal.h"
#include "workload/trim.h"

/* fio's FIO_NOSTATS engines: the unit is counted, untimed (the latency
 * is the file operation's, reach_file). */
static void account_file_op(struct worker *w, const struct io_unit *u)
{
	stats_account_untimed_io(w->stats, u->ddir, (uint64_t)u->result, u->len);
}

/* Logs a completed write for verification, or checks a block read back;
 * a bad block ends the job, as in fio without continue_on_error. */
static void verify_completed(struct io_loop *lp, struct io_unit *u)
{
	struct worker *w = lp->w;
	uint64_t checked = lp->vr.reads_done;
	char msg[sizeof(w->stats->errmsg)], buf[PATH_MAX];
	const char *path = worker_file_name(w, u->file, buf, sizeof(buf));
	int ret;

	if ((uint64_t)u->result != u->len) {
		if (lp->vr.units[u->index].check)
			lp->error = worker_fail(w, -EIO, "verify read at offset %llu "
						"on %s returned %lld of %u bytes",
						(unsigned long long)u->offset, path,
						(long long)u->result, u->len);
		return;
	}
	ret = verify_run_done(&lp->vr, u, path, msg, sizeof(msg));
	if (ret == -EILSEQ && job_error_is_non_fatal(w->job, 2, EILSEQ)) {
		/* fio counts the bad block it went on from as it counts an I/O
		 * error: total_err, first_error (io_completed) */
		w->stats->verify_errors++;
		stats_count_io_error(w->stats, u->ddir, ret);
		if (!w->stats->error && !w->stats->errmsg[0]) /* the first one's why */
			snprintf(w->stats->errmsg, sizeof(w->stats->errmsg), "%s", msg);
	} else if (ret == -EILSEQ) {
		w->stats->verify_errors++;
		lp->error = worker_fail(w, ret, "%s", msg);
	} else if (ret) {
		lp->error = worker_fail(w, ret, "cannot log a write for verify: %s",
					strerror(-ret));
	} else if (lp->vr.reads_done != checked) {
		w->stats->verified_blocks++;
	}
}

/* A time as the job's clocksource reads it: gettimeofday's in whole
 * microseconds, so fio's latencies are multiples of 1000 ns. */
static uint64_t stamp(const struct job *job, uint64_t ns)
{
	return job->stat.clocksource == CLOCKSOURCE_GETTIMEOFDAY ? ns / 1000 * 1000 : ns;
}

static void account_io(struct io_loop *lp, const struct io_unit *u, uint64_t now_raw,
		       bool has_slat)
{
	const struct job *job = lp->w->job;
	uint64_t start = stamp(job, u->start_ns), issue = stamp(job, u->issue_ns);
	uint64_t now = stamp(job, now_raw);
	uint64_t slat = issue - start, clat = now - issue;

	stats_account_io(lp->w->stats, u->ddir, (uint64_t)u->result, u->len, slat,
			 clat, now - start, has_slat);
	prio_stats_io(lp->w->prio, u->ddir, u->prio_index, clat, now - start);
	if (u->ddir == DDIR_TRIM)
		block_life_trimmed(&lp->w->stats->block_life,
				   u->offset - lp->w->region_start, lp->w->job->bs[DDIR_TRIM]);
	iolog_io(&lp->logs, lp->w->stats, now_raw, u, slat, clat, now - start, has_slat);
	/* fio's rate samples leave out the reads of its verify log */
	if (lp->verify && verify_run_logged(&lp->vr, u)) {
		stats_unsample_io(lp->w->stats, u->ddir, (uint64_t)u->result);
		iolog_unsample(&lp->logs, u->ddir, u->len);
	}
}

/* fill_device: the first write without room ends the job's I/O, no
 * error; continue_on_error: errors ignore_error lists are only counted. */
static bool io_error_tolerated(struct io_loop *lp, const struct io_unit *u)
{
	const struct job *job = lp->w->job;

	if (job->fill_device && u->ddir == DDIR_WRITE && u->result == -ENOSPC) {
		lp->full = true;
		return true;
	}
	/* fio's td_error_type: a trim's error is of the write class */
	return job_error_is_non_fatal(job, u->ddir == DDIR_READ ? 0 : 1,
				      (int)-u->result);
}

/* rate_min's check, and thinktime's count of completions. */
static void paced_completion(struct io_loop *lp, const struct io_unit *u,
			     uint64_t now)
{
	char why[160];

	if (!pacing_completed(&lp->pace, u->ddir, u->len, now, why, sizeof(why)))
		lp->error = worker_fail(lp->w, -ETIME, "%s", why);
	pacing_think_count(&lp->pace, false);
}

/* max_latency: an I/O whose total latency, when the job measures it, is
 * above its direction's limit fails the job; latency_target: at depth 1
 * with latency_percentile=100, one I/O over the target does; both as
 * fio's lat_fatal. */
static void lat_sample(struct io_loop *lp, const struct io_unit *u, uint64_t now)
{
	const struct job *job = lp->w->job;
	uint64_t max = (unsigned int)u->ddir < DDIR_COUNT ? job->max_latency_ns[u->ddir] : 0;

	if (max && !lp->w->stats->no_lat && now - u->start_ns > max) {
		lp->error = worker_fail(lp->w, -ETIMEDOUT, "latency of %llu nsec exceeds "
					"specified max (%llu nsec): %s %s %llu %u",
					(unsigned long long)(now - u->start_ns),
					(unsigned long long)max, lp->w->path, ddir_name(u->ddir),
					(unsigned long long)u->offset, u->len);
		return;
	}
	if (lat_target_on(job) && lat_target_sample(&lp->lat, now - u->start_ns, now))
		lp->error = worker_fail(lp->w, -ETIMEDOUT, "latency of %llu ns exceeds "
					"latency_target (%llu ns) at depth 1",
					(unsigned long long)(now - u->start_ns),
					(unsigned long long)job->latency_target_ns);
}

/* A queued sync's completion: its latency from its submission, as fio
 * times a DDIR_SYNC io_u; a failed sync ends the job, but for a
 * sync_file_range of nothing written, which fio's io_uring hands the
 * kernel as offset -1 (refused) and fio never looks at. */
static void complete_sync(struct io_loop *lp, const struct io_unit *u, uint64_t now)
{
	bool fsync = u->sync == IO_SYNC_FSYNC;
	bool nothing = u->sync == IO_SYNC_FILE_RANGE && u->offset == UINT64_MAX;

	if (u->result < 0 && !nothing)
		lp->error = worker_fail(lp->w, (int)u->result, "%s of %s failed: %s",
					io_sync_name(u->sync), lp->w->path,
					strerror((int)-u->result));
	else if (lp->accounting && u->start_ns >= lp->ramp_end_ns)
		stats_account_sync(lp->w->stats, fsync, now - u->issue_ns);
}

/* fio counts an error that ends the job (total_err, first_error) only
 * where its do_io gets it back from the queue call, a synchronous
 * completion, and when continue_on_error covers its class
 * (break_on_this_error); one reaped later it does not count. */
static bool fatal_error_counted(const struct job *job, const struct io_unit *u,
				bool at_submit)
{
	unsigned int cls = u->ddir == DDIR_READ ? 0 : 1;

	return at_submit && (job->continue_on_error & (1u << cls));
}

void complete_unit(struct io_loop *lp, struct io_unit *u, uint64_t now,
			  bool at_submit)
{
	struct worker *w = lp->w;
	bool sync = engine_is_sync(w->job) ||
		    (u->ddir == DDIR_TRIM && trim_by_worker(w->job));

	file_sync_completed(&lp->sync, u);
	if (lp->fs.of && open_files_put(&lp->open, u->file))
		sync_close_file(lp, u->file); /* fio's put_file of a closing file */
	if (u->sync != IO_SYNC_NONE) {
		complete_sync(lp, u, now);
		goto free_unit;
	}
	/* fio marks a block failed only for an I/O it logged for verify */
	if (u->result < 0 && lp->verify)
		block_life_failed(&w->stats->block_life, u->offset - w->region_start,
				  w->job->bs[DDIR_TRIM], u->ddir);
	if (u->result < 0 && io_error_tolerated(lp, u)) {
		stats_count_io_error(w->stats, u->ddir, (int)u->result);
	} else if (u->result < 0) {
		if (fatal_error_counted(w->job, u, at_submit))
			stats_count_io_error(w->stats, u->ddir, (int)u->result);
		lp->error = worker_fail(w, (int)u->result,
					"%s of %u bytes at offset %llu on %s failed: %s",
					ddir_name(u->ddir), u->len,
					(unsigned long long)u->offset, w->path,
					strerror((int)-u->result));
	} else if (w->job->engine->flags & ENGINE_FILE_OPS) {
		if (lp->accounting && u->start_ns >= lp->ramp_end_ns)
			account_file_op(w, u);
	} else {
		if (lp->accounting && u->start_ns >= lp->ramp_end_ns) {
			account_io(lp, u, now, !sync);
			lat_sample(lp, u, now);
		}
		if (lp->verify)
			verify_completed(lp, u);
		if (lp->pacing)
			paced_completion(lp, u, now);
	}
free_unit:
	u->sync = IO_SYNC_NONE;
	u->in_flight = false;
	u->next_free = lp->free_list;
	lp->free_list = u;
}

int complete_reap(struct io_loop *lp, unsigned int min)
{
	struct worker *w = lp->w;
	const struct engine_ops *e = lp->engine;
	struct worker_stats *s = w->stats;
	unsigned int max = w->job->iodepth_batch_complete_max;
	uint64_t now;
	int n;

	/* fio's td_io_getevents: a minimum above the maximum raises it */
	if (!max || max > lp->inflight)
		max = lp->inflight;
	if (min > max)
		max = min;
	n = e->getevents(w, min, max, w->reaped);
	if (n < 0)
		return lp->error = worker_fail(w, n, "reaping I/O on %s failed: %s",
					       w->path, strerror(-n));
	now = lp->clock_ns = now_ns();
	for (int i = 0; i < n; i++)
		complete_unit(lp, w->reaped[i], w->reaped[i]->done_ns ?
			      w->reaped[i]->done_ns : now, false);
	lp->inflight -= (unsigned int)n;
	s->complete_calls++;
	s->complete_dist[batch_bucket((unsigned int)n)]++;
	return n;
}
