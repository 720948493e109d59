// SPDX-License-Identifier: GPL-2.0
/*
 * One worker's I/O loop (fio's do_io): fill a unit (offset, size,
 * direction, data), hand it to the engine, commit, reap, account the
 * completion, verify what comes back; pacing, flow, ramp and runtime
 * decide when.  The worker's life around it is workload/worker.c.
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

#include "workload/file_lock.h"
#include "workload/files.h"
#include "workload/trim.h"
#include "workload/io_loop.h"
#include "workload/worker.h"
#include "workload/io_units.h"

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

/* fio fills a writing job's buffers once, in order, before any I/O:
 * random bytes by default, as zeros would flatter compressing or
 * deduplicating devices. */
void io_loop_fill_initial_buffers(struct io_loop *lp)
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
	return rwmix_next(&w->rwmix);
}

/* rate= on a mixed job (fio's rate_ddir): while the drawn direction is
 * ahead of its rate, the other one goes if it is due sooner (at once
 * without a rate of its own), unless the mix gives it no share; the
 * run goes on that way. */
static enum ddir rate_ddir(struct io_loop *lp, enum ddir d)
{
	struct rwmix *m = &lp->w->rwmix;

	if (!lp->pacing || !pacing_rated(&lp->pace) || !rw_is_mixed(lp->w->job->rw) ||
	    !rwmix_share(m, d == DDIR_READ ? DDIR_WRITE : DDIR_READ))
		return d;
	d = pacing_pick_ddir(&lp->pace, d, now_ns());
	rwmix_redirect(m, d);
	return d;
}

/* What a write carries (verify's data overrides buffer contents), and
 * which reads are checked; false when a loaded verify state says stop. */
static bool prepare_data(struct io_loop *lp, struct io_unit *u)
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

static int quiesce(struct io_loop *lp);

/* read_iolog's sync of file @file once the I/O in flight completed,
 * counted in the job's sync figures as fio counts a replayed one. */
static int replay_sync(void *arg, unsigned int file, bool datasync)
{
	struct io_loop *lp = arg;
	uint64_t start;
	int ret;

	if (quiesce(lp) < 0)
		return -EIO; /* the drain's own error is the worker's already */
	start = now_ns();
	ret = file_sync_replayed(lp->w, lp->engine, file, datasync);
	if (!ret && lp->accounting && start >= lp->ramp_end_ns)
		stats_account_sync(lp->w->stats, !datasync, now_ns() - start);
	return ret;
}

/* read_iolog: the log's next I/O (workload/replay_run.h). */
static bool replay_unit(struct io_loop *lp, struct io_unit *u)
{
	int ret = replay_cursor_next(&lp->replay, lp->w, lp->deadline_ns, u,
				     replay_sync, lp);

	if (ret < 0 && !lp->error)
		lp->error = worker_fail(lp->w, ret, "sync of %s failed: %s",
					lp->w->path, strerror(-ret));
	lp->exhausted = ret <= 0;
	return ret > 0;
}

/* openfiles: the closes the file service found due as it picked (fio's
 * td_io_close_file): logged now, done once no I/O holds the file.  With
 * all the files open, fio's log closes those done all the same, which
 * iodig keeps open for what it does on each (files_opened_together). */
static void settle_files(struct io_loop *lp)
{
	unsigned int k;
	bool close_now;

	for (k = 0; !lp->fs.of && k < lp->fs.nr; k++)
		if (lp->fs.files[k].done)
			io_trace_file_close(&lp->trace, lp->w, k);
	while (lp->fs.of && open_files_next_due(&lp->open, &k, &close_now)) {
		io_trace_file_close(&lp->trace, lp->w, k);
		if (close_now)
			worker_close_file(lp->w, k);
	}
}

/* openfiles: what is still open closes before the next loop, as fio's
 * clear_io_state (close_files); it opens again when picked. */
static void close_all_files(struct io_loop *lp)
{
	for (unsigned int k = 0; lp->fs.of && k < lp->open.nr; k++)
		open_files_done(&lp->open, k);
	settle_files(lp);
}

void io_loop_reopen_files(struct io_loop *lp)
{
	struct errbuf err = { { 0 } };
	int ret;

	io_trace_close_all(&lp->trace, lp->w);
	if (lp->fs.of)
		return;
	/* I/O still under way (a pass ended at size queued) keeps its
	 * descriptor valid: the file is opened again over it */
	ret = worker_reopen_files(lp->w, !lp->inflight && !lp->queued, &err);
	if (ret && !lp->error)
		lp->error = worker_fail(lp->w, ret, "%s", err.msg);
}

/* fio's clear_io_state reseeds with randrepeat, which a randseed turns
 * off (seen with fio 3.33: a loop after the first then goes on with
 * its draws, tests/host/file_passes_fio.sh) */
static bool reseeds_each_loop(const struct job *job)
{
	return job->randrepeat && !job->randseed_set;
}

void io_loop_new_pass(struct io_loop *lp)
{
	struct worker *w = lp->w;

	offsets_reset(&w->offsets);
	if (lp->fs.files)
		file_service_new_pass(&lp->fs);
	/* fio reseeds with randrepeat: each pass draws what the first did;
	 * a loop cut by number_ios goes on with its draws (as seen with fio
	 * 3.33, tests/host/stream_shape_fio.sh) */
	if (!reseeds_each_loop(w->job) ||
	    (w->job->number_ios && lp->issued_ios >= w->job->number_ios))
		return;
	buflen_init(&w->buflen, w->job, lp->seed_base, w->thread_number);
	offsets_reseed(&w->offsets, lp->seed_base, w->thread_number);
	if (lp->fs.files)
		file_service_reseed(&lp->fs);
}

void io_loop_new_loop(struct io_loop *lp)
{
	lp->queued_bytes = 0;
	rwmix_new_loop(&lp->w->rwmix, reseeds_each_loop(lp->w->job));
	file_sync_new_loop(&lp->sync);
	close_all_files(lp);
	io_loop_reopen_files(lp);
	io_loop_new_pass(lp);
}

/* Whether another pass over the file may start, as fio's keep_running
 * decides after a pass: with time_based, or while an io_size beyond size
 * leaves at least the largest block to do. */
static bool another_pass(const struct io_loop *lp)
{
	const struct worker *w = lp->w;
	uint64_t done = lp->issued_bytes - lp->backlog_bytes;

	if (w->job->time_based)
		return true;
	if (!worker_passes_repeat(w) || worker_no_more_loops(w))
		return false;
	/* with loops= each loop is one pass; past them fio's keep_running
	 * goes on while all the loops' bytes fall short of io_size */
	if (lp->shared_budget) {
		/* a writing verify job's do_io ends with its offsets and
		 * the verify phase follows, whose reads fio's keep_running
		 * counts toward io_size */
		if (!lp->last_loop || (lp->verify && rw_has_write(w->job->rw)))
			return false;
		done += lp->spent_bytes;
	}
	return done < w->io_limit && w->io_limit - done >= job_max_bs(w->job);
}

/* The pass is over and another starts.  time_based wraps the positions
 * and starts the random map anew within fio's do_io; io_size beyond the
 * region ends do_io and starts a new loop, where a mixed job draws the
 * direction again (fio drops the I/O it could not place, direction and
 * all). */
static void next_pass(struct io_loop *lp, enum ddir *d)
{
	const struct job *job = lp->w->job;

	if (job->time_based) {
		io_loop_new_pass(lp);
		return;
	}
	io_loop_new_loop(lp);
	if (rw_is_mixed(job->rw))
		*d = rwmix_next(&lp->w->rwmix);
}

/* The next range of direction @d, relative to the region: fio's
 * get_next_offset, then a length that fits after it (get_next_buflen);
 * false when the job has none left.  As in fio's fill_io_u, a range that
 * would pass the file's end ends the pass: a sequential job whose size
 * is not a multiple of bs stops short of the region's end, one on a
 * larger file goes past it by less than a block, and where passes
 * repeat the next one starts from the beginning (in direction @d, which
 * a new loop may change). */
static bool next_range(struct io_loop *lp, enum ddir *d, uint64_t *rel,
		       uint32_t *len, bool *random)
{
	struct worker *w = lp->w;

	for (int pass = 0; pass < 2; pass++) {
		if (offsets_next(&w->offsets, *d, rel, random) &&
		    (*len = buflen_next(&w->buflen, *d, w->region_len - *rel, *random)) &&
		    offsets_base(&w->offsets) + *rel + *len <= w->target_len)
			return true;
		if (pass || w->offsets.error || !another_pass(lp))
			return false;
		next_pass(lp, d);
	}
	return false;
}

/* Ranges per trim of the job's engine (fio's num_range). */
static unsigned int trim_ranges(const struct job *job)
{
	return job->engine->trim_ranges ? job->engine->trim_ranges(job) : 1;
}

/* A trim of up to @max ranges (fio's fill_multi_range_io_u): each drawn
 * as a single I/O would be and kept whole even where the random map cut
 * it, into the unit's buffer; len is their sum and offset the last one's.
 * As fio, that offset plus the sum past the file's end ends the job. */
static bool fill_ranges(struct io_loop *lp, struct io_unit *u, unsigned int max)
{
	struct worker *w = lp->w;
	struct trim_range *r = u->buf;
	uint64_t rel, last = 0, total = 0;
	unsigned int n = 0;
	enum ddir d = DDIR_TRIM;
	uint32_t len;
	bool random;

	while (n < max && next_range(lp, &d, &rel, &len, &random) &&
	       offsets_take(&w->offsets, DDIR_TRIM, rel, len, random)) {
		last = offsets_base(&w->offsets) + rel;
		r[n++] = (struct trim_range){ w->region_start + last, len };
		total += len;
	}
	lp->exhausted = !n || last + total > w->target_len;
	if (lp->exhausted)
		return false;
	u->nr_ranges = n;
	u->offset = w->region_start + last;
	u->len = (uint32_t)total; /* check_job keeps it within 32 bits */
	u->result = 0;
	return true;
}

/* A mixed job with io_size past the region: fio's do_io ends its loop
 * once it queued size bytes (an async engine; a sync one's I/O is not
 * counted, its loop ends at the region's end; norandommap lets random
 * writes go on to io_size), and keep_running starts a new one:
 * positions from the start, the read/write run anew. */
static void loop_at_size(struct io_loop *lp)
{
	const struct job *job = lp->w->job;
	const struct worker *w = lp->w;

	if (lp->queued_bytes < w->region_len || !rw_is_mixed(job->rw) ||
	    job->time_based || lp->verify ||
	    (rw_is_random(job->rw) && job->norandommap) || !another_pass(lp))
		return;
	io_loop_new_loop(lp);
}

/* The job reaches file @k (fio's get_next_file opens it): a
 * file-operation engine does its operation there, the first time in the
 * pass (fio closes a file once done, and a new pass opens it), timed
 * as a completion latency, filed under reads unless the job only writes;
 * false when that failed. */
static bool reach_file(struct io_loop *lp, unsigned int k)
{
	struct worker *w = lp->w;
	enum ddir d = rw_has_read(w->job->rw) ? DDIR_READ : DDIR_WRITE;
	uint64_t op_ns = 0;
	int ret;

	if (!lp->engine->open_file)
		return true;
	ret = lp->engine->open_file(w, k, lp->fs.pass, &op_ns);
	/* as an I/O, counted when it started after ramp_time */
	if (ret > 0 && lp->accounting && now_ns() - op_ns >= lp->ramp_end_ns)
		stats_add_clat(w->stats, d, op_ns);
	if (ret < 0)
		lp->error = worker_fail(w, ret, "%s: file %u: %s", w->job->engine->name,
					k, strerror(-ret));
	return ret >= 0;
}

/* The job ran out of files: fio marks a file done only once it reached
 * it and no I/O fitted, so it reached every one (one smaller than a
 * block gets its file operation and no I/O). */
static void reach_every_file(struct io_loop *lp)
{
	for (unsigned int k = 0; k < lp->fs.nr; k++)
		if (!reach_file(lp, k))
			break;
	lp->exhausted = true;
}

/* openfiles: the file of @u opens before its I/O goes, as in fio's
 * get_next_file. */
static bool open_unit_file(struct io_loop *lp, struct io_unit *u)
{
	struct errbuf err = { { 0 } };
	int ret;

	if (!lp->fs.of || !open_files_get(&lp->open, u->file))
		return true;
	ret = worker_open_file(lp->w, u->file, &err);
	if (ret)
		lp->error = worker_fail(lp->w, ret, "%s", err.msg);
	else
		io_trace_file_open(&lp->trace, lp->w, u->file);
	return !ret;
}

/* No offset or length fits file @k after all: fio's set_io_u_file
 * finds it done (put_file, then its close below openfiles). */
static void release_unit_file(struct io_loop *lp, unsigned int k)
{
	if (lp->fs.of)
		open_files_put(&lp->open, k);
	file_service_found_done(&lp->fs, k);
	settle_files(lp);
}

/* fio draws the direction of each fill, also of one on a file it finds
 * done, whose I/O then goes elsewhere (set_io_u_file): one more draw
 * for each file found done since the last fill.  A trim's direction is
 * left alone: trimwrite's follows the file's positions in fio. */
static void redraw_ddir(struct io_loop *lp, struct io_unit *u)
{
	const struct job *job = lp->w->job;
	unsigned int fills = lp->fs.found;

	lp->fs.found = 0;
	if (!rw_is_mixed(job->rw) || rw_has_trim(job->rw))
		return;
	while (fills--)
		u->ddir = rate_ddir(lp, pick_ddir(lp->w));
}

/* Every file is done and another pass follows: fio's do_io ends, its
 * I/O unfilled, and keep_running starts a new loop (clear_io_state: the
 * files closed, every generator from its seed with randrepeat), whose
 * first fill draws its direction from the new seed.  Without a reseed
 * the draws go on: the direction drawn stays (seen with fio 3.33). */
static void files_new_loop(struct io_loop *lp, struct io_unit *u)
{
	io_loop_new_loop(lp);
	if (rw_is_mixed(lp->w->job->rw) && reseeds_each_loop(lp->w->job))
		u->ddir = rate_ddir(lp, pick_ddir(lp->w));
}

/* fio's EBUSY from get_next_file: reaped first with I/O in flight (then
 * false), else picked again at once (no file is closing). */
static bool files_busy(struct io_loop *lp)
{
	return lp->fs.busy && !lp->inflight && !lp->queued;
}

/* Several files: file_service picks the file and the offset, then a
 * length that fits in that file after it; where none does the file is
 * done and the I/O filled again, from its direction, in another (fio's
 * set_io_u_file, whose fill_io_u draws the direction each time). */
static bool fill_from_files(struct io_loop *lp, struct io_unit *u)
{
	struct worker *w = lp->w;
	bool random = rw_is_random(w->job->rw);
	uint64_t rel, room;
	/* each file fails at most once before a new pass: more failures
	 * than that mean no size fits any file (time_based would spin) */
	unsigned int tries = 2 * lp->fs.nr + 2;

	lp->fs.passes = another_pass(lp); /* should every file be done now */
	for (;;) {
		unsigned int k;

		if (!tries--) {
			reach_every_file(lp);
			return false;
		}
		k = file_service_pick(&lp->fs, w->job);
		settle_files(lp);
		/* out of files: the fill of the last file found done was
		 * fio's last, no other follows it (a new loop draws anew) */
		if (k == lp->fs.nr && !lp->fs.pass_due && !lp->fs.busy && lp->fs.found)
			lp->fs.found--;
		redraw_ddir(lp, u);
		if (k == lp->fs.nr) {
			if (lp->fs.pass_due) {
				files_new_loop(lp, u);
				continue;
			}
			if (files_busy(lp)) {
				tries++;
				continue;
			}
			if (!lp->fs.busy) {
				reach_every_file(lp);
				return false;
			}
			/* fio drew no direction for it: kept for the next */
			lp->held_ddir = u->ddir;
			return false;
		}
		u->file = k;
		if (!open_unit_file(lp, u))
			return false;
		if (!reach_file(lp, k)) {
			lp->exhausted = true;
			return false;
		}
		if (file_service_offset(&lp->fs, k, u->ddir, &rel, &room)) {
			u->len = file_service_take(&lp->fs, k, rel,
						   buflen_next(&w->buflen, u->ddir, room, random));
			if (u->len)
				break;
		}
		release_unit_file(lp, k);
	}
	u->fd = w->fds ? w->fds[u->file] : -1;
	u->offset = w->region_start + rel;
	u->result = 0;
	return true;
}

/* Fills @u with the next I/O of the job (fio's get_io_u); false when there
 * is none after all. */
bool io_loop_fill_unit(struct io_loop *lp, struct io_unit *u)
{
	struct worker *w = lp->w;
	uint64_t rel;
	bool random;

	if (lp->verify_phase || lp->vr.stop || lp->exhausted)
		return false;
	u->nr_ranges = 0;
	if (w->replay)
		return replay_unit(lp, u);
	loop_at_size(lp);
	u->ddir = lp->fs.busy ? lp->held_ddir : rate_ddir(lp, pick_ddir(w));
	if (trim_fill_write(w, u))
		return true;
	if (u->ddir == DDIR_TRIM && trim_ranges(w->job) > 1)
		return fill_ranges(lp, u, trim_ranges(w->job));
	if (lp->fs.files)
		return fill_from_files(lp, u);
	if (!next_range(lp, &u->ddir, &rel, &u->len, &random)) {
		if (w->offsets.error && !lp->error)
			lp->error = worker_fail(w, w->offsets.error, "%s (%llu bytes of %s): %s",
						w->offsets.error_what, (unsigned long long)
						w->region_len, w->path,
						strerror(-w->offsets.error));
		/* fio closes the file its fill found done */
		io_trace_file_close(&lp->trace, w, 0);
		lp->exhausted = true;
		return false;
	}
	u->offset = w->region_start + offsets_base(&w->offsets) + rel;
	if (!zbd_adjust(&w->zbd, u->ddir, &u->offset, &u->len, &lp->error))
		u->len = 0;
	else
		u->len = offsets_take(&w->offsets, u->ddir, rel, u->len, random);
	zbd_taken(&w->zbd, &w->offsets, u->ddir, u->offset - w->region_start, u->len);
	u->result = 0;
	lp->exhausted = !u->len;
	return u->len;
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

/* @at_submit: the engine completed @u in its queue call. */
static void complete_unit(struct io_loop *lp, struct io_unit *u, uint64_t now,
			  bool at_submit)
{
	struct worker *w = lp->w;
	bool sync = engine_is_sync(w->job) ||
		    (u->ddir == DDIR_TRIM && trim_by_worker(w->job));

	file_sync_completed(&lp->sync, u);
	if (lp->fs.of && u->sync == IO_SYNC_NONE && open_files_put(&lp->open, u->file))
		worker_close_file(w, u->file); /* fio's put_file of a closing file */
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

static int commit_queued(struct io_loop *lp)
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

static int reap(struct io_loop *lp, unsigned int min)
{
	struct worker *w = lp->w;
	const struct engine_ops *e = lp->engine;
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
	now = lp->clock_ns = now_ns();
	for (int i = 0; i < n; i++)
		complete_unit(lp, w->reaped[i], w->reaped[i]->done_ns ?
			      w->reaped[i]->done_ns : now, false);
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
	u->nr_ranges = 0;
	if (lp->verify && verify_run_next(&lp->vr, u, lp->verify_phase)) {
		if (lp->w->fds) /* the file the write went to */
			u->fd = lp->w->fds[u->file];
		return true;
	}
	return io_loop_fill_unit(lp, u) && prepare_data(lp, u);
}

/* fio's do_io for a writing verify job stops after size bytes queued
 * (random writes without a random map: io_size), twice that with
 * verify_backlog, whose reads count too; then the verify phase runs.  A
 * sync engine's I/O is not counted there: its loop goes on to the end of
 * its offsets (a random map full costs one more draw) or of the loops'
 * budget, which matters only where loops share it (io_loop_more).
 * Alone, the loop stops at size as its offsets end.  A time_based job
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
	if (job->verify_backlog && job->do_verify)
		limit += w->region_len;
	return (lp->shared_budget ? lp->queued_bytes : lp->issued_bytes) >= limit;
}

bool io_loop_more(const struct io_loop *lp, uint64_t now)
{
	const struct worker *w = lp->w;

	if (worker_stopped(w) || lp->error || lp->full || lp->lat_done)
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
	/* a loop ends at size bytes queued, but where another pass is due
	 * (io_size past the region, the last loop) fio starts the next */
	if (lp->shared_budget)
		return lp->issued_bytes - lp->backlog_bytes < lp->loop_budget &&
		       (lp->queued_bytes < w->region_len || another_pass(lp));
	return lp->issued_bytes - lp->backlog_bytes < w->io_limit;
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

/* What is in flight and will complete: not the units the engine lost,
 * for which fio would wait forever. */
static unsigned int live_inflight(const struct io_loop *lp)
{
	return lp->inflight - lp->w->units_lost;
}

/* fio waits for every I/O in flight before it sleeps (io_u_quiesce). */
static int quiesce(struct io_loop *lp)
{
	if (lp->queued && commit_queued(lp) < 0)
		return -1;
	while (live_inflight(lp))
		if (reap(lp, lp->inflight) < 0)
			return -1;
	return 0;
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
	if (lp->w->job->io_submit_mode == SUBMIT_INLINE && quiesce(lp) < 0)
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
	if (sleep_us && quiesce(lp) == 0)
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

	if ((sync_drains(lp->w->job) ? quiesce(lp) : commit_queued(lp)) < 0)
		return false;
	trace_sync_now(lp, k);
	start = now_ns();
	ret = file_sync_run(&lp->sync, lp->w, lp->engine, k);
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
	lp->queued++;
	u->in_flight = true;
	return true;
}

/* With several files fio's sync takes the next file from file_service,
 * as an I/O does (set_io_u_file before fill_io_u sees the sync). */
static void aim_sync(struct io_loop *lp)
{
	unsigned int k = file_service_pick(&lp->fs, lp->w->job);

	if (k < lp->fs.nr)
		file_sync_aim(&lp->sync, lp->w->fds[k], k);
}

/* fsync=, fdatasync=: the sync due before the next I/O, if any (fio's
 * get_rw_ddir).  Returns 1 when a sync unit took the slot, 0 when the
 * next I/O may go, -1 when nothing more goes this pass (no room, or an
 * error in lp->error). */
static int sync_if_due(struct io_loop *lp)
{
	enum io_sync k = file_sync_due(&lp->sync, lp->w->job);

	if (k == IO_SYNC_NONE || lp->retry || lp->verify_phase || lp->w->replay)
		return 0;
	if (lp->fs.files && !lp->sync.aimed)
		aim_sync(lp);
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

/* Queues one I/O; returns false when the engine had no room.  A sync
 * I/O's completion time lands in @done. */
static bool issue_unit(struct io_loop *lp, uint64_t *done)
{
	struct worker *w = lp->w;
	const struct engine_ops *e = lp->engine;
	bool offloaded = w->job->io_submit_mode == SUBMIT_OFFLOAD;
	int synced = sync_if_due(lp);
	struct io_unit *u;
	enum io_result r;

	if (synced)
		return synced > 0;
	u = next_unit(lp);
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
		lp->think_pending |= pacing_think_due(&lp->pace, true);
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
	return quiesce(lp);
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

/* end_fsync, fsync_on_close, after a write phase that ended well. */
static int sync_at_end(struct io_loop *lp)
{
	int ret = 0;

	if (!lp->verify_phase) {
		trace_syncs_at_end(lp);
		ret = file_sync_at_end(lp->w, lp->engine);
	}

	if (ret)
		lp->error = worker_fail(lp->w, ret, "fsync of %s at the end failed: %s",
					lp->w->path, strerror(-ret));
	return lp->error;
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
			if (quiesce(lp) < 0)
				break;
			pacing_think(&lp->pace);
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
		 * back here to close stats intervals and see the ramp end. */
		for (unsigned int n = 0; n < depth && (lp->free_list || lp->retry) &&
		     below_lat_depth(lp) && io_loop_more(lp, now) && flow_allows(lp); n++) {
			if (!issue_one(lp)) {
				/* a wait for the rate is no full queue */
				busy = !lp->paced;
				lp->paced = false;
				break;
			}
			if (lp->queued >= batch && commit_queued(lp) < 0)
				break;
		}
		if (lp->error)
			break;
		if (lp->queued && commit_queued(lp) < 0)
			break;
		if (!live_inflight(lp)) {
			/* commit() may submit nothing (-EAGAIN): retry it. */
			if (!lp->queued && (!io_loop_more(lp, loop_clock(lp)) ||
					    !(lp->free_list || lp->retry)))
				break;
			continue;
		}
		/* fio reaps only when the queue is full or nothing more will
		 * be issued; then it waits for iodepth_batch_complete_min. */
		full = busy || !(lp->free_list || lp->retry) || !below_lat_depth(lp);
		if (!full && io_loop_more(lp, loop_clock(lp)))
			continue;
		/* a full queue is reaped down to iodepth_low (fio's
		 * wait_for_completions) */
		do {
			if (reap(lp, reap_min < lp->inflight ? reap_min :
				 lp->inflight) < 0)
				break;
		} while (full && lp->inflight > job->iodepth_low && live_inflight(lp) &&
			 !lp->error);
		if (lp->error)
			break;
	}
	/* Drain what is still in flight so buffers are free before cleanup;
	 * stats keep counting, as the I/O was issued within the run. */
	while (live_inflight(lp) && reap(lp, lp->inflight) >= 0)
		;
	return lp->error ? lp->error : sync_at_end(lp);
}

/* Buffer contents and, with verify=, the verify bookkeeping; fio's
 * random sources are seeded as lp->seed_base says (worker.c). */
