// SPDX-License-Identifier: GPL-2.0
/*
 * The body of one worker: open the target, feed the engine until the job's
 * size or runtime is done (fio's do_io), then verify what was written.
 * Worker code never prints; errors land in the worker's shared stats.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "workload/buffers.h"
#include "workload/counters.h"
#include "workload/file_service.h"
#include "workload/files.h"
#include "workload/flow.h"
#include "workload/pacing.h"
#include "workload/replay_run.h"
#include "workload/trim.h"
#include "workload/verify_run.h"
#include "workload/io_trace.h"
#include "workload/iolog_writer.h"
#include "workload/worker.h"
#include "workload/io_units.h"
#include "workload/worker_process.h"

struct io_loop {
	struct worker *w;
	struct io_unit *free_list;
	struct io_unit *retry;    /* filled, refused by queue() (IO_BUSY) */
	unsigned int queued;      /* held by the engine, not yet committed */
	unsigned int inflight;    /* committed, not yet reaped */
	uint64_t issued_bytes;
	uint64_t issued_ios;      /* this loop's, for number_ios */
	bool exhausted;           /* no offset left (fio's files done) */
	uint64_t backlog_bytes;   /* of those, verify_backlog reads */
	uint64_t ramp_end_ns;
	uint64_t deadline_ns;     /* 0 = none */
	bool accounting;          /* past ramp_time */
	struct buffers bufs;      /* what writes carry */
	bool verify;              /* verify= is on: vr is set up */
	bool verify_phase;        /* reading back the log (fio's do_verify) */
	bool full;                /* fill_device: a write found no room */
	struct verify_run vr;
	struct file_picker fs;   /* several files (w->fds) */
	struct rusage ru_start;
	struct worker_counters counters; /* w->count_events */
	struct iolog_writer logs;  /* fio's log files (write_*_log) */
	struct io_trace trace;     /* fio's write_iolog */
	uint64_t seed_base;       /* randseed, or random without randrepeat */
	bool pacing;              /* rate or thinktime options given */
	bool think_pending;       /* thinktime due after a completion */
	struct pacing pace;
	struct flow_state flow;   /* flow=: the job's share of its flow_id */
	struct replay_cursor replay; /* read_iolog: where the log is */
	int error;
};

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull + (uint64_t)tv->tv_usec * 1000;
}

static void sleep_ns(uint64_t ns)
{
	struct timespec ts = { .tv_sec = ns / 1000000000ull,
			       .tv_nsec = ns % 1000000000ull };

	nanosleep(&ts, NULL);
}

static bool stopped(const struct worker *w)
{
	return *w->stop != 0 || w->stats->stop != 0;
}

static int worker_fail(struct worker *w, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int worker_fail(struct worker *w, int ret, const char *fmt, ...)
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

/* fio fills a writing job's buffers once, in order, before any I/O:
 * random bytes by default, as zeros would flatter compressing or
 * deduplicating devices. */
static void fill_initial_buffers(struct io_loop *lp)
{
	struct worker *w = lp->w;

	if (!rw_has_write(w->job->rw))
		return;
	for (unsigned int i = 0; i < w->nr_units; i++)
		buffers_fill(&lp->bufs, w->units[i].buf, job_max_bs(w->job));
}

static enum ddir pick_ddir(struct worker *w)
{
	const struct job *job = w->job;

	if (rw_has_trim(job->rw))
		return trim_next_ddir(w);
	if (!rw_has_write(job->rw))
		return DDIR_READ;
	if (!rw_has_read(job->rw))
		return DDIR_WRITE;
	return rng_below(&w->rng, 100) < job->rwmixread ? DDIR_READ : DDIR_WRITE;
}

/* What a write carries (verify's data overrides buffer contents), and
 * which reads are checked; false when a loaded verify state says stop. */
static bool prepare_data(struct io_loop *lp, struct io_unit *u)
{
	const struct job *job = lp->w->job;
	uint64_t now = now_ns();

	if (u->ddir == DDIR_TRIM)
		return true;
	if (u->ddir == DDIR_READ)
		return !lp->verify || verify_run_plain_read(&lp->vr, u);
	if (!lp->verify || job->verify == VERIFY_NULL)
		buffers_before_write(&lp->bufs, u->buf, u->len, u->offset, now);
	if (lp->verify)
		verify_run_write(&lp->vr, u, now);
	return true;
}

static int quiesce(struct io_loop *lp);
static int quiesce_loop(void *lp) { return quiesce(lp); }

/* read_iolog: the log's next I/O (workload/replay_run.h). */
static bool replay_unit(struct io_loop *lp, struct io_unit *u)
{
	int ret = replay_cursor_next(&lp->replay, lp->w, lp->deadline_ns, u,
				     quiesce_loop, lp);

	if (ret < 0 && !lp->error)
		lp->error = worker_fail(lp->w, ret, "sync of %s failed: %s",
					lp->w->path, strerror(-ret));
	lp->exhausted = ret <= 0;
	return ret > 0;
}

/* Fills @u with the next I/O of the job (fio's get_io_u); false when there
 * is none after all. */
static bool fill_unit(struct io_loop *lp, struct io_unit *u)
{
	struct worker *w = lp->w;
	uint64_t rel;
	bool random;

	if (lp->verify_phase || lp->vr.stop || lp->exhausted)
		return false;
	if (w->replay)
		return replay_unit(lp, u);
	u->ddir = pick_ddir(w);
	if (trim_fill_write(w, u))
		return true;
	if (lp->fs.files) {
		/* several files: file_service picks the file and the offset */
		u->len = buflen_next(&w->buflen, u->ddir, w->region_len);
		if (!u->len) {
			lp->exhausted = true;
			return false;
		}
		rel = file_service_next(&lp->fs, w->job, &w->rng, u->len, &u->file);
		u->fd = w->fds[u->file];
		u->offset = w->region_start + rel;
		u->result = 0;
		return true;
	}
	/* fio's order: the offset, then a length that fits after it */
	if (!offsets_next(&w->offsets, u->ddir, &rel, &random) ||
	    !(u->len = buflen_next(&w->buflen, u->ddir, w->region_len - rel))) {
		lp->exhausted = true;
		return false;
	}
	if (u->len > w->region_len)
		u->len = (uint32_t)w->region_len;
	if (rel + u->len > w->region_len)
		rel = w->region_len - u->len;
	u->len = offsets_take(&w->offsets, u->ddir, rel, u->len, random);
	u->offset = w->region_start + rel;
	u->result = 0;
	return true;
}

static void start_accounting(struct io_loop *lp, uint64_t now)
{
	struct worker_stats *s = lp->w->stats;

	lp->accounting = true;
	s->start_ns = now;
	s->iv_start_ns = now;
	iolog_start(&lp->logs, now);
	getrusage(RUSAGE_THREAD, &lp->ru_start);
	counters_start(&lp->counters);
}

/* fio's FIO_NOSTATS engines: the unit is counted; the latency is the
 * operation's, filed under reads unless the job only writes. */
static void account_file_op(struct worker *w, const struct io_unit *u)
{
	enum ddir d = rw_has_read(w->job->rw) ? DDIR_READ : DDIR_WRITE;

	stats_account_untimed_io(w->stats, u->ddir, (uint64_t)u->result, u->len);
	if (u->op_timed)
		stats_add_clat(w->stats, d, u->op_ns);
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
		w->stats->verify_errors++;
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

static void account_io(struct io_loop *lp, const struct io_unit *u, uint64_t now,
		       bool has_slat)
{
	uint64_t slat = u->issue_ns - u->start_ns, clat = now - u->issue_ns;

	stats_account_io(lp->w->stats, u->ddir, (uint64_t)u->result, u->len, slat,
			 clat, now - u->start_ns, has_slat);
	iolog_io(&lp->logs, lp->w->stats, now, u->ddir, u->len, u->offset, slat, clat,
		 now - u->start_ns, has_slat);
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

/* rate_min's check, and thinktime counted on completions. */
static void paced_completion(struct io_loop *lp, const struct io_unit *u,
			     uint64_t now)
{
	char why[160];

	if (!pacing_completed(&lp->pace, u->ddir, u->len, now, why, sizeof(why)))
		lp->error = worker_fail(lp->w, -ETIME, "%s", why);
	if (pacing_think_due(&lp->pace, false))
		lp->think_pending = true;
}

static void complete_unit(struct io_loop *lp, struct io_unit *u, uint64_t now)
{
	struct worker *w = lp->w;
	bool sync = engine_is_sync(w->job) ||
		    (u->ddir == DDIR_TRIM && trim_by_worker(w->job));

	if (u->result < 0 && io_error_tolerated(lp, u)) {
		w->stats->dir[u->ddir].errors++;
	} else if (u->result < 0) {
		w->stats->dir[u->ddir].errors++;
		lp->error = worker_fail(w, (int)u->result,
					"%s of %u bytes at offset %llu on %s failed: %s",
					ddir_name(u->ddir), u->len,
					(unsigned long long)u->offset, w->path,
					strerror((int)-u->result));
	} else if (w->job->engine->flags & ENGINE_FILE_OPS) {
		if (lp->accounting && u->start_ns >= lp->ramp_end_ns)
			account_file_op(w, u);
	} else {
		if (lp->accounting && u->start_ns >= lp->ramp_end_ns)
			account_io(lp, u, now, !sync);
		if (lp->verify)
			verify_completed(lp, u);
		if (lp->pacing)
			paced_completion(lp, u, now);
	}
	u->next_free = lp->free_list;
	lp->free_list = u;
}

static int commit_queued(struct io_loop *lp)
{
	struct worker *w = lp->w;
	struct worker_stats *s = w->stats;
	int n;

	if (!lp->queued)
		return 0;
	n = w->job->engine->commit(w);
	if (n < 0)
		return lp->error = worker_fail(w, n, "submitting I/O to %s failed: %s",
					       w->path, strerror(-n));
	lp->queued -= (unsigned int)n;
	lp->inflight += (unsigned int)n;
	s->submit_calls++;
	s->submit_dist[batch_bucket((unsigned int)n)]++;
	s->depth_dist[depth_bucket(lp->inflight)] += (unsigned int)n;
	return n;
}

static int reap(struct io_loop *lp, unsigned int min)
{
	struct worker *w = lp->w;
	const struct engine_ops *e = w->job->engine;
	struct worker_stats *s = w->stats;
	unsigned int max = w->job->iodepth_batch_complete_max;
	uint64_t now;
	int n;

	if (!max || max > lp->inflight)
		max = lp->inflight;
	if (min > max)
		min = max;
	n = e->getevents(w, min, max, w->reaped);
	if (n < 0)
		return lp->error = worker_fail(w, n, "reaping I/O on %s failed: %s",
					       w->path, strerror(-n));
	now = now_ns();
	for (int i = 0; i < n; i++)
		complete_unit(lp, w->reaped[i], now);
	lp->inflight -= (unsigned int)n;
	s->complete_calls++;
	s->complete_dist[batch_bucket((unsigned int)n)]++;
	return n;
}

/* The next I/O: a read of the verify log when one is due (fio's
 * check_get_verify, or its do_verify phase), else the job's own. */
static bool next_io(struct io_loop *lp, struct io_unit *u)
{
	u->fd = lp->w->fd;
	u->file = 0;
	if (lp->verify && verify_run_next(&lp->vr, u, lp->verify_phase)) {
		if (lp->w->fds) /* the file the write went to */
			u->fd = lp->w->fds[u->file];
		return true;
	}
	return fill_unit(lp, u) && prepare_data(lp, u);
}

/* fio's do_io for a writing verify job stops after size bytes (random
 * writes without a random map: io_size), twice that with verify_backlog,
 * whose reads count too; then the verify phase runs.  A time_based job
 * writes until its runtime is over, leaving the verify phase no time
 * (fio warns about it). */
static bool verify_write_limit_reached(const struct io_loop *lp)
{
	const struct worker *w = lp->w;
	const struct job *job = w->job;
	uint64_t limit = w->region_len;

	if (!rw_has_write(job->rw) || job->time_based)
		return false;
	if (rw_is_random(job->rw) && job->norandommap && w->io_limit > limit)
		limit = w->io_limit;
	if (job->verify_backlog)
		limit += w->region_len;
	return lp->issued_bytes >= limit;
}

static bool more_to_issue(const struct io_loop *lp, uint64_t now)
{
	const struct worker *w = lp->w;

	if (stopped(w) || lp->error || lp->full)
		return false;
	if (lp->exhausted && !lp->verify_phase)
		return false;
	if (w->job->number_ios && lp->issued_ios >= w->job->number_ios &&
	    !lp->verify_phase)
		return false;
	if (lp->deadline_ns && now >= lp->deadline_ns)
		return false;
	if (lp->verify && (lp->vr.stop || lp->verify_phase))
		return !lp->vr.stop && vlog_pending(&lp->vr.log);
	if (lp->verify && verify_write_limit_reached(lp))
		return false;
	if (w->job->time_based)
		return true;
	return lp->issued_bytes - lp->backlog_bytes < w->io_limit;
}

/* The next I/O: the one the engine refused last time, as fio requeues
 * it (same offset, its wait counted in its latency), or a new one. */
static struct io_unit *next_unit(struct io_loop *lp)
{
	struct worker *w = lp->w;
	const struct engine_ops *e = w->job->engine;
	struct io_unit *u = lp->retry;

	if (u) {
		lp->retry = NULL;
		return u;
	}
	u = lp->free_list;
	lp->free_list = u->next_free;
	if (!next_io(lp, u)) {
		u->next_free = lp->free_list;
		lp->free_list = u;
		return NULL;
	}
	if (e->prep && e->prep(w, u) < 0) {
		lp->error = worker_fail(w, -EIO, "engine %s could not prepare I/O", e->name);
		return NULL;
	}
	u->start_ns = now_ns();
	return u;
}

/* fio waits for every I/O in flight before it sleeps (io_u_quiesce). */
static int quiesce(struct io_loop *lp)
{
	if (lp->queued && commit_queued(lp) < 0)
		return -1;
	while (lp->inflight)
		if (reap(lp, lp->inflight) < 0)
			return -1;
	return 0;
}

/* rate, rate_iops: holds @u back until its direction is within the
 * rate; false when the job ended meanwhile (@u is kept for later). */
static bool pace_before_issue(struct io_loop *lp, struct io_unit *u)
{
	uint64_t now = now_ns(), delay = pacing_delay(&lp->pace, u->ddir, now);

	if (!delay)
		return true;
	lp->retry = u;
	if (quiesce(lp) < 0)
		return false;
	if (lp->deadline_ns && now + delay > lp->deadline_ns)
		delay = lp->deadline_ns > now ? lp->deadline_ns - now : 0;
	sleep_ns(delay < 10000000 ? delay : 10000000); /* stays responsive to stop */
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
	if (sleep_us && quiesce(lp) == 0)
		sleep_ns((uint64_t)sleep_us * 1000);
	return false;
}

/* Queues one I/O; returns false when the engine had no room. */
static bool issue_one(struct io_loop *lp, uint64_t now)
{
	struct worker *w = lp->w;
	struct io_unit *u = next_unit(lp);
	enum io_result r;

	if (!u)
		return false;
	if (lp->pacing && !pace_before_issue(lp, u))
		return false;
	u->issue_ns = u->start_ns;
	io_trace_io(&lp->trace, w, u);
	r = trim_or_queue(w, u, lp->queued);
	if (r == IO_BUSY) {
		lp->retry = u;
		return false;
	}
	if (ddir_counts_in_size(w->job->rw, u->ddir))
		lp->issued_bytes += u->len;
	lp->issued_ios++;
	if (lp->pacing) {
		pacing_issued(&lp->pace, u->ddir, u->len);
		lp->think_pending |= pacing_think_due(&lp->pace, true);
	}
	if (lp->verify && verify_run_logged(&lp->vr, u))
		lp->backlog_bytes += u->len;
	if (lp->accounting && u->start_ns >= lp->ramp_end_ns)
		w->stats->issued[u->ddir]++;
	if (r == IO_COMPLETED) {
		/* fio counts a sync I/O as one submit and one complete. */
		w->stats->submit_calls++;
		w->stats->submit_dist[batch_bucket(1)]++;
		w->stats->depth_dist[depth_bucket(1)]++;
		w->stats->complete_calls++;
		w->stats->complete_dist[batch_bucket(1)]++;
		complete_unit(lp, u, now_ns());
	} else {
		lp->queued++;
	}
	(void)now;
	return true;
}

static int io_loop_run(struct io_loop *lp)
{
	struct worker *w = lp->w;
	const struct job *job = w->job;
	unsigned int depth = w->nr_units;
	unsigned int batch = job->iodepth_batch_submit ? job->iodepth_batch_submit : 1;
	unsigned int reap_min = job->iodepth_batch_complete_min ?
				job->iodepth_batch_complete_min : 1;
	uint64_t now = now_ns();

	while (!lp->error) {
		bool busy = false, full;

		if (lp->think_pending) {
			lp->think_pending = false;
			if (quiesce(lp) < 0)
				break;
			pacing_think(&lp->pace);
		}
		now = now_ns();
		if (!lp->accounting && now >= lp->ramp_end_ns)
			start_accounting(lp, now);
		if (lp->accounting) {
			stats_tick(w->stats, now);
			iolog_tick(&lp->logs, now);
		}
		/* At most one queue's worth per pass, so sync engines come
		 * back here to close stats intervals and see the ramp end. */
		for (unsigned int n = 0; n < depth && (lp->free_list || lp->retry) &&
		     more_to_issue(lp, now) && flow_allows(lp); n++) {
			if (!issue_one(lp, now)) {
				busy = true;
				break;
			}
			if (lp->queued >= batch && commit_queued(lp) < 0)
				break;
		}
		if (lp->error)
			break;
		if (lp->queued && commit_queued(lp) < 0)
			break;
		if (!lp->inflight) {
			/* commit() may submit nothing (-EAGAIN): retry it. */
			if (!lp->queued && !more_to_issue(lp, now_ns()))
				break;
			continue;
		}
		/* fio reaps only when the queue is full or nothing more will
		 * be issued; then it waits for iodepth_batch_complete_min. */
		full = busy || !(lp->free_list || lp->retry);
		if (!full && more_to_issue(lp, now_ns()))
			continue;
		/* a full queue is reaped down to iodepth_low (fio's
		 * wait_for_completions) */
		do {
			if (reap(lp, reap_min < lp->inflight ? reap_min :
				 lp->inflight) < 0)
				break;
		} while (full && lp->inflight > job->iodepth_low && !lp->error);
		if (lp->error)
			break;
	}
	/* Drain what is still in flight so buffers are free before cleanup;
	 * stats keep counting, as the I/O was issued within the run. */
	while (lp->inflight && reap(lp, lp->inflight) >= 0)
		;
	return lp->error;
}

/* Buffer contents and, with verify=, the verify bookkeeping; fio's
 * random sources are seeded from randseed, or at random without
 * randrepeat. */
static int setup_data(struct io_loop *lp)
{
	struct worker *w = lp->w;
	const struct job *job = w->job;
	uint64_t base = lp->seed_base;
	struct errbuf err = { { 0 } };
	int ret;

	buffers_init(&lp->bufs, job, w->thread_number, base);
	fill_initial_buffers(lp);
	if (job->verify == VERIFY_NONE)
		return 0;
	lp->verify = true;
	ret = verify_run_init(&lp->vr, job, w->nr_units, w->thread_number, base,
			      &err);
	if (ret)
		return worker_fail(w, ret, "%s", err.msg);
	return 0;
}

/* verify_only: the writes the job would do, logged but not done (fio's
 * do_dry_run), so that the verify phase reads them back. */
static int dry_run(struct io_loop *lp)
{
	struct io_unit *u = &lp->w->units[0];
	int ret = 0;

	lp->verify = false; /* no backlog reads among the replayed writes */
	while (!ret && more_to_issue(lp, now_ns()) && fill_unit(lp, u)) {
		lp->issued_bytes += u->len;
		if (u->ddir == DDIR_WRITE)
			ret = verify_run_dry_write(&lp->vr, u);
	}
	lp->verify = true;
	if (ret)
		return lp->error = worker_fail(lp->w, ret, "cannot log the writes "
					       "to verify: %s", strerror(-ret));
	return 0;
}

/* The job's I/O, then with do_verify the read back of what it wrote
 * (fio's do_io then do_verify), within the same runtime. */
static int run_phases(struct io_loop *lp)
{
	const struct job *job = lp->w->job;
	bool writes = rw_has_write(job->rw);
	int ret;

	if (lp->verify && job->verify_only && writes)
		ret = dry_run(lp);
	else
		ret = io_loop_run(lp);
	if (ret || !lp->verify || !writes || !job->do_verify || stopped(lp->w))
		return ret;
	lp->verify_phase = true;
	return io_loop_run(lp);
}

/* loops=N: the job's I/O N times over, each pass from a fresh state
 * (fio's clear_io_state); the statistics add up. */
static int run_loops(struct io_loop *lp)
{
	int ret = 0;

	if (lp->pacing)
		pacing_start(&lp->pace, now_ns());
	for (unsigned int i = 0; i < lp->w->job->loops && !ret; i++) {
		if (stopped(lp->w) ||
		    (lp->deadline_ns && now_ns() >= lp->deadline_ns))
			break;
		if (i) {
			lp->issued_bytes = 0;
			lp->backlog_bytes = 0;
			lp->issued_ios = 0;
			lp->exhausted = false;
			lp->verify_phase = false;
			offsets_reset(&lp->w->offsets);
		}
		ret = run_phases(lp);
	}
	return ret;
}

/* fio saves the verify state of every writing verify job as it ends. */
static void save_verify_state(struct io_loop *lp)
{
	const struct job *job = lp->w->job;
	struct errbuf err = { { 0 } };
	int ret;

	if (!lp->verify || !job->verify_state_save || !rw_has_write(job->rw))
		return;
	ret = verify_run_save_state(&lp->vr, &err);
	if (ret)
		worker_fail(lp->w, ret, "%s", err.msg);
}

static void finish_accounting(struct io_loop *lp)
{
	struct worker_stats *s = lp->w->stats;
	struct rusage ru;

	if (!lp->accounting)
		return;
	s->end_ns = now_ns();
	s->runtime_ns = s->end_ns - s->start_ns;
	stats_tick(s, s->end_ns);
	counters_stop(&lp->counters, &s->counters);
	getrusage(RUSAGE_THREAD, &ru);
	s->usr_ns = tv_ns(&ru.ru_utime) - tv_ns(&lp->ru_start.ru_utime);
	s->sys_ns = tv_ns(&ru.ru_stime) - tv_ns(&lp->ru_start.ru_stime);
	s->ctx_vol = (uint64_t)(ru.ru_nvcsw - lp->ru_start.ru_nvcsw);
	s->ctx_invol = (uint64_t)(ru.ru_nivcsw - lp->ru_start.ru_nivcsw);
	s->majf = (uint64_t)(ru.ru_majflt - lp->ru_start.ru_majflt);
	s->minf = (uint64_t)(ru.ru_minflt - lp->ru_start.ru_minflt);
}

static int worker_run(struct worker *w)
{
	const struct job *job = w->job;
	struct io_loop lp = { .w = w };
	struct errbuf err = { { 0 } };
	char why[sizeof(w->stats->errmsg)];
	bool engine_ready = false;
	uint64_t start;
	int ret;

	w->stats->tid = gettid();
	w->stats->pid = getpid();
	flow_state_init(&lp.flow, w->flow, job->flow);
	stats_configure(w->stats, &job->stat);
	ret = worker_apply_process_opts(w, why, sizeof(why));
	if (ret) {
		worker_fail(w, ret, "%s", why);
		goto cleanup;
	}
	if (w->count_events)
		counters_open(&lp.counters);
	rng_seed(&w->rng, job->randrepeat ?
		 job->randseed + w->clone_index * 0x9e3779b9ull :
		 now_ns() ^ ((uint64_t)gettid() << 32));
	lp.seed_base = job->randrepeat ? job->randseed : rng_next(&w->rng);
	buflen_init(&w->buflen, job, lp.seed_base, w->thread_number);
	lp.pacing = pacing_active(job);
	pacing_init(&lp.pace, job, lp.seed_base, w->thread_number);
	ret = offsets_init(&w->offsets, job, w->region_len, w->target_len,
			   job->time_based || w->io_limit > w->region_len,
			   lp.seed_base, w->thread_number);
	if (ret) {
		worker_fail(w, ret, "cannot set up offsets for %llu bytes",
			    (unsigned long long)w->region_len);
		goto cleanup;
	}
	ret = worker_open_target(w, &err);
	if (ret) {
		worker_fail(w, ret, "%s", err.msg);
		goto cleanup;
	}
	ret = w->fds ? file_service_init(&lp.fs, job, w->nr_files, w->file_size) : 0;
	if (ret) {
		worker_fail(w, ret, "cannot set up the job's files: %s", strerror(-ret));
		goto cleanup;
	}
	ret = worker_alloc_units(w, &err);
	if (ret) {
		worker_fail(w, ret, "%s", err.msg);
		goto cleanup;
	}
	ret = setup_data(&lp);
	if (ret)
		goto cleanup;
	ret = iolog_open(&lp.logs, job, w->index + 1, &err);
	if (!ret)
		ret = io_trace_open(&lp.trace, w, &err);
	if (ret) {
		worker_fail(w, ret, "%s", err.msg);
		goto cleanup;
	}
	ret = job->engine->init ? job->engine->init(w, &err) : 0;
	if (ret) {
		worker_fail(w, ret, "%s", err.msg);
		goto cleanup;
	}
	engine_ready = true;
	for (unsigned int i = w->nr_units; i-- > 0;) {
		w->units[i].next_free = lp.free_list;
		lp.free_list = &w->units[i];
	}
	for (start = now_ns(); !stopped(w) && now_ns() - start < job->startdelay_ns;)
		sleep_ns(10000000);
	start = now_ns();
	replay_cursor_start(&lp.replay, w->replay, start);
	lp.ramp_end_ns = start + job->ramp_time_ns;
	if (job->runtime_ns)
		lp.deadline_ns = lp.ramp_end_ns + job->runtime_ns;
	if (!job->ramp_time_ns)
		start_accounting(&lp, start);
	if (!job->create_only)
		ret = run_loops(&lp);
	finish_accounting(&lp);
	if ((iolog_finish(&lp.logs, w->stats->end_ns, &err) ||
	     io_trace_finish(&lp.trace, w, &err)) && !ret)
		ret = worker_fail(w, -EIO, "%s", err.msg);
	save_verify_state(&lp);
cleanup:
	flow_state_leave(&lp.flow);
	if (engine_ready && job->engine->cleanup)
		job->engine->cleanup(w);
	iolog_free(&lp.logs);
	io_trace_free(&lp.trace);
	file_service_free(&lp.fs);
	worker_close_files(w);
	if (lp.verify)
		verify_run_free(&lp.vr);
	free(w->units);
	w->units = NULL;
	free(w->reaped);
	w->reaped = NULL;
	free(w->buf_area);
	w->buf_area = NULL;
	offsets_free(&w->offsets);
	counters_close(&lp.counters);
	if (job->unlink || job->unlink_each_loop)
		worker_unlink_files(w);
	return ret;
}

void *worker_main(void *arg)
{
	struct worker *w = arg;

	worker_run(w);
	w->stats->done = true;
	return NULL;
}
