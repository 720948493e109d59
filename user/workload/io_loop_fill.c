// SPDX-License-Identifier: GPL-2.0
/*
 * One worker's I/O loop, choosing the next I/O (fio's get_io_u): its
 * direction (the mix, the rate), its range (offsets, lengths, passes and
 * loops over the region, multi-range trims), its file (reached, opened
 * and closed as the file service picks them, fio's get_next_file), or
 * read_iolog's next line; what the unit carries is fill_data
 * (io_loop_internal.h).  The loop itself is workload/io_loop.c.
 */
#include <errno.h>
#include <string.h>

#include "workload/files.h"
#include "workload/io_loop_internal.h"
#include "workload/io_units.h"
#include "workload/trim.h"

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

/* read_iolog: the log's next I/O (workload/replay_run.h). */
static bool replay_unit(struct io_loop *lp, struct io_unit *u)
{
	int ret = replay_cursor_next(&lp->replay, lp->w, lp->deadline_ns, u,
				     sync_replayed, lp);

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
void fill_settle_files(struct io_loop *lp)
{
	unsigned int k;
	bool close_now;

	for (k = 0; !lp->fs.of && k < lp->fs.nr; k++)
		if (lp->fs.files[k].done)
			io_trace_file_close(&lp->trace, lp->w, k);
	while (lp->fs.of && open_files_next_due(&lp->open, &k, &close_now)) {
		io_trace_file_close(&lp->trace, lp->w, k);
		if (close_now)
			sync_close_file(lp, k);
	}
}

/* openfiles: what is still open closes before the next loop, as fio's
 * clear_io_state (close_files); it opens again when picked. */
static void close_all_files(struct io_loop *lp)
{
	for (unsigned int k = 0; lp->fs.of && k < lp->open.nr; k++)
		open_files_done(&lp->open, k);
	fill_settle_files(lp);
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
	/* fio reseeds with randrepeat: each pass draws what the first did */
	if (!reseeds_each_loop(w->job))
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
	if (lp->verify)
		verify_run_new_loop(&lp->vr, reseeds_each_loop(lp->w->job));
	file_sync_new_loop(&lp->sync);
	close_all_files(lp);
	if (!lp->fs.files)
		sync_loop_close(lp);
	io_loop_reopen_files(lp);
	io_loop_new_pass(lp);
}

/* Whether another pass over the file may start, as fio's keep_running
 * decides after a pass: with time_based, or while an io_size beyond size
 * leaves at least the largest block to do. */
bool fill_another_pass(const struct io_loop *lp)
{
	const struct worker *w = lp->w;
	uint64_t done = lp->issued_bytes - lp->backlog_bytes;

	if (w->job->time_based)
		return true;
	if (!worker_passes_repeat(w) || worker_no_more_loops(w))
		return false;
	/* fio's reset_io_counters marks the files not done again only with
	 * time_based, loops > 1 or do_verify: else the first pass is the
	 * last (size=48k, io_size=96k, do_verify=0: 48 KiB) */
	if (!w->job->do_verify && w->job->loops < 2)
		return false;
	/* a writing job that verifies ends its do_io with its offsets, and
	 * after its verify phase another loop may start (run_loops) */
	if (lp->verify && rw_has_write(w->job->rw) && w->job->do_verify)
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

/* The pass ended and fio's do_io with it: its end syncs, then a new
 * loop.  A sync due there (the write count a multiple of fsync=, and
 * the new loop follows no sync) comes first, as in fio's first get_io_u
 * of a loop: the fill gives its unit back for it (sync_first), true. */
static bool loop_after_pass(struct io_loop *lp, struct io_unit *u)
{
	struct io_unit **p;
	int ret;

	/* fio puts back the I/O it could not fill, and its end syncs take
	 * the unit freed last (their log lines show its offset): @u is
	 * lent to the free list meanwhile */
	u->next_free = lp->free_list;
	lp->free_list = u;
	ret = sync_pass_end(lp);
	for (p = &lp->free_list; *p != u; p = &(*p)->next_free)
		;
	*p = u->next_free;
	if (ret)
		return true; /* the error ends the loop */
	io_loop_new_loop(lp);
	lp->sync_first = file_sync_due(&lp->sync, lp->w->job) != IO_SYNC_NONE;
	return lp->sync_first;
}

/* The pass is over and another starts.  time_based wraps the positions
 * and starts the random map anew within fio's do_io; io_size beyond the
 * region ends do_io (the file done and closed) and starts a new loop,
 * where a mixed job draws the direction again (fio drops the I/O it
 * could not place, direction and all), unless a sync goes first. */
static void next_pass(struct io_loop *lp, struct io_unit *u, enum ddir *d)
{
	const struct job *job = lp->w->job;

	if (job->time_based) {
		io_loop_new_pass(lp);
		return;
	}
	sync_file_done(lp);
	if (!loop_after_pass(lp, u) && rw_is_mixed(job->rw))
		*d = rwmix_next(&lp->w->rwmix);
}

/* The next range of direction @d for unit @u, relative to the region:
 * fio's get_next_offset, then a length that fits after it
 * (get_next_buflen); false when the job has none left, or when a new
 * loop's sync goes first (lp->sync_first).  As in fio's fill_io_u, a range that
 * would pass the file's end ends the pass: a sequential job whose size
 * is not a multiple of bs stops short of the region's end, one on a
 * larger file goes past it by less than a block, and where passes
 * repeat the next one starts from the beginning (in direction @d, which
 * a new loop may change). */
static bool next_range(struct io_loop *lp, struct io_unit *u, enum ddir *d,
		       uint64_t *rel, uint32_t *len, bool *random)
{
	struct worker *w = lp->w;

	for (int pass = 0; pass < 2; pass++) {
		if (offsets_next(&w->offsets, *d, rel, random)) {
			*len = buflen_next(&w->buflen, *d, w->region_len - *rel, *random);
			if (*len && offsets_base(&w->offsets) + *rel + *len <= w->target_len)
				return true;
			/* fio's io_u keeps the offset whose length did not fit */
			u->offset = w->region_start + offsets_base(&w->offsets) + *rel;
		}
		if (pass || w->offsets.error || !fill_another_pass(lp))
			return false;
		next_pass(lp, u, d);
		if (lp->sync_first || lp->error)
			return false;
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

	while (n < max && next_range(lp, u, &d, &rel, &len, &random) &&
	       offsets_take(&w->offsets, DDIR_TRIM, rel, len, random)) {
		last = offsets_base(&w->offsets) + rel;
		r[n++] = (struct trim_range){ w->region_start + last, len };
		total += len;
	}
	if (!n && (lp->sync_first || lp->error))
		return false;
	lp->exhausted = !n || last + total > w->target_len;
	if (lp->exhausted)
		return false;
	u->nr_ranges = n;
	u->offset = w->region_start + last;
	u->len = (uint32_t)total; /* check_job keeps it within 32 bits */
	u->result = 0;
	return true;
}

/* io_size past the region: fio's do_io ends its loop once it queued
 * size bytes (an async engine; a sync one's I/O is not counted, its
 * loop ends at the region's end; norandommap lets random writes go on
 * to io_size), before it asks for the next I/O or sync, and
 * keep_running starts a new one: positions from the start, a mixed
 * job's read/write run anew, the files left open closed. */
void fill_loop_past_size(struct io_loop *lp)
{
	const struct job *job = lp->w->job;
	const struct worker *w = lp->w;

	if (lp->exhausted || lp->retry || w->replay ||
	    job->time_based || lp->verify ||
	    (rw_is_random(job->rw) && job->norandommap) || !fill_another_pass(lp))
		return;
	if (!sync_pass_end(lp))
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

bool fill_open_file(struct io_loop *lp, unsigned int k)
{
	struct errbuf err = { { 0 } };
	int ret;

	if (!lp->fs.of || !open_files_get(&lp->open, k))
		return true;
	ret = worker_open_file(lp->w, k, &err);
	if (ret)
		lp->error = worker_fail(lp->w, ret, "%s", err.msg);
	else
		io_trace_file_open(&lp->trace, lp->w, k);
	return !ret;
}

/* No offset or length fits file @k after all: fio's set_io_u_file
 * finds it done (put_file, then its close below openfiles). */
static void release_unit_file(struct io_loop *lp, unsigned int k)
{
	if (lp->fs.of)
		open_files_put(&lp->open, k);
	file_service_found_done(&lp->fs, k);
	fill_settle_files(lp);
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
 * the draws go on: the direction drawn stays (seen with fio 3.33).
 * True when a sync due goes first (loop_after_pass). */
static bool files_new_loop(struct io_loop *lp, struct io_unit *u)
{
	bool reseeds = reseeds_each_loop(lp->w->job);

	if (loop_after_pass(lp, u)) {
		/* the fill after the sync draws from the new seed, or
		 * without one keeps this direction */
		lp->ddir_held = !reseeds;
		lp->held_ddir = u->ddir;
		return true;
	}
	if (rw_is_mixed(lp->w->job->rw) && reseeds)
		u->ddir = rate_ddir(lp, pick_ddir(lp->w));
	return false;
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

	lp->fs.passes = fill_another_pass(lp); /* should every file be done now */
	for (;;) {
		unsigned int k;

		if (!tries--) {
			reach_every_file(lp);
			return false;
		}
		k = file_service_pick(&lp->fs, w->job);
		fill_settle_files(lp);
		/* out of files: the fill of the last file found done was
		 * fio's last, no other follows it (a new loop draws anew) */
		if (k == lp->fs.nr && !lp->fs.pass_due && !lp->fs.busy && lp->fs.found)
			lp->fs.found--;
		redraw_ddir(lp, u);
		if (k == lp->fs.nr) {
			if (lp->fs.pass_due) {
				if (files_new_loop(lp, u))
					return false;
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
		if (!fill_open_file(lp, k))
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
			/* fio's io_u keeps the offset of a fill whose length
			 * did not fit, which a sync's log line shows after */
			u->offset = w->region_start + rel;
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
	uint64_t rel = UINT64_MAX;
	bool random;

	lp->sync_first = false;
	if (lp->verify_phase || lp->vr.stop || lp->exhausted)
		return false;
	u->nr_ranges = 0;
	if (w->replay)
		return replay_unit(lp, u);
	u->ddir = lp->fs.busy || lp->ddir_held ? lp->held_ddir : rate_ddir(lp, pick_ddir(w));
	lp->ddir_held = false;
	if (trim_fill_write(w, u))
		return true;
	if (u->ddir == DDIR_TRIM && trim_ranges(w->job) > 1)
		return fill_ranges(lp, u, trim_ranges(w->job));
	if (lp->fs.files)
		return fill_from_files(lp, u);
	if (!next_range(lp, u, &u->ddir, &rel, &u->len, &random)) {
		if (lp->sync_first || lp->error)
			return false;
		if (w->offsets.error && !lp->error)
			lp->error = worker_fail(w, w->offsets.error, "%s (%llu bytes of %s): %s",
						w->offsets.error_what, (unsigned long long)
						w->region_len, w->path,
						strerror(-w->offsets.error));
		/* fio closes the file its fill found done; its io_u keeps
		 * an offset drawn there, which a sync's log line shows */
		sync_file_done(lp);
		if (rel != UINT64_MAX)
			u->offset = w->region_start + offsets_base(&w->offsets) + rel;
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
