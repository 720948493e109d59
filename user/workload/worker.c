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
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "workload/buffers.h"
#include "workload/counters.h"
#include "workload/verify_run.h"
#include "workload/worker.h"

struct io_loop {
	struct worker *w;
	struct io_unit *free_list;
	struct io_unit *retry;    /* filled, refused by queue() (IO_BUSY) */
	unsigned int queued;      /* held by the engine, not yet committed */
	unsigned int inflight;    /* committed, not yet reaped */
	uint64_t issued_bytes;
	uint64_t backlog_bytes;   /* of those, verify_backlog reads */
	uint64_t seq_cursor;      /* sequential offset within the region */
	uint64_t ramp_end_ns;
	uint64_t deadline_ns;     /* 0 = none */
	bool accounting;          /* past ramp_time */
	uint32_t granule;         /* offset granularity (smallest bs) */
	struct buffers bufs;      /* what writes carry */
	bool verify;              /* verify= is on: vr is set up */
	bool verify_phase;        /* reading back the log (fio's do_verify) */
	struct verify_run vr;
	struct rusage ru_start;
	struct worker_counters counters; /* w->count_events */
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
	return *w->stop != 0;
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

static uint32_t max_bs(const struct job *job)
{
	uint32_t m = 0;

	for (int d = 0; d < DDIR_COUNT; d++)
		if (job->bs_max[d] > m)
			m = job->bs_max[d];
	return m;
}

static uint32_t min_active_bs(const struct job *job)
{
	uint32_t m = UINT32_MAX;

	if (rw_has_read(job->rw) && job->bs_min[DDIR_READ] < m)
		m = job->bs_min[DDIR_READ];
	if (rw_has_write(job->rw) && job->bs_min[DDIR_WRITE] < m)
		m = job->bs_min[DDIR_WRITE];
	return m;
}

static int open_target(struct worker *w)
{
	const struct job *job = w->job;
	int flags = rw_has_write(job->rw) || (job->engine->flags & ENGINE_RDWR) ?
		    O_RDWR : O_RDONLY;

	/* fio's diskless engines (null) open no file; the file-operation
	 * engines do their own operation on each file instead. */
	if (job->engine->flags & (ENGINE_DISKLESS | ENGINE_FILE_OPS))
		return 0;
	if (job->direct)
		flags |= O_DIRECT;
	w->fd = open(w->path, flags | O_CLOEXEC);
	if (w->fd < 0)
		return worker_fail(w, -errno, "%s: cannot open%s: %s", w->path,
				   job->direct ? " with O_DIRECT" : "",
				   strerror(errno));
	return 0;
}

static int alloc_units(struct worker *w)
{
	const struct job *job = w->job;
	long page = sysconf(_SC_PAGESIZE);
	size_t unit = (max_bs(job) + page - 1) / page * page;

	w->nr_units = job->iodepth;
	w->buf_unit_size = unit;
	w->buf_area_size = unit * w->nr_units;
	if (posix_memalign(&w->buf_area, page, w->buf_area_size))
		return worker_fail(w, -ENOMEM, "cannot allocate %zu bytes of I/O buffers",
				   w->buf_area_size);
	w->units = calloc(w->nr_units, sizeof(*w->units));
	w->reaped = calloc(w->nr_units, sizeof(*w->reaped));
	if (!w->units || !w->reaped)
		return worker_fail(w, -ENOMEM, "cannot allocate %u I/O units", w->nr_units);
	for (unsigned int i = 0; i < w->nr_units; i++) {
		w->units[i].index = i;
		w->units[i].buf = (char *)w->buf_area + (size_t)i * unit;
	}
	return 0;
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
		buffers_fill(&lp->bufs, w->units[i].buf, max_bs(w->job));
}

static enum ddir pick_ddir(struct worker *w)
{
	const struct job *job = w->job;

	if (!rw_has_write(job->rw))
		return DDIR_READ;
	if (!rw_has_read(job->rw))
		return DDIR_WRITE;
	return rng_below(&w->rng, 100) < job->rwmixread ? DDIR_READ : DDIR_WRITE;
}

static uint32_t pick_len(struct worker *w, enum ddir d)
{
	const struct job *job = w->job;
	uint32_t lo = job->bs_min[d], hi = job->bs_max[d];

	if (lo >= hi)
		return job->bs[d] ? job->bs[d] : lo;
	return lo * (uint32_t)(1 + rng_below(&w->rng, hi / lo));
}

/* What a write carries (verify's data overrides buffer contents), and
 * which reads are checked; false when a loaded verify state says stop. */
static bool prepare_data(struct io_loop *lp, struct io_unit *u)
{
	const struct job *job = lp->w->job;
	uint64_t now = now_ns();

	if (u->ddir == DDIR_READ)
		return !lp->verify || verify_run_plain_read(&lp->vr, u);
	if (!lp->verify || job->verify == VERIFY_NULL)
		buffers_before_write(&lp->bufs, u->buf, u->len, u->offset, now);
	if (lp->verify)
		verify_run_write(&lp->vr, u, now);
	return true;
}

/* Fills @u with the next I/O of the job (fio's get_io_u); false when there
 * is none after all. */
static bool fill_unit(struct io_loop *lp, struct io_unit *u)
{
	struct worker *w = lp->w;
	uint64_t rel;

	if (lp->verify_phase || lp->vr.stop)
		return false;
	u->ddir = pick_ddir(w);
	u->len = pick_len(w, u->ddir);
	if (u->len > w->region_len)
		u->len = (uint32_t)w->region_len;
	if (rw_is_random(w->job->rw)) {
		rel = offset_gen_next(&w->offsets, &w->rng) * lp->granule;
	} else {
		if (lp->seq_cursor + u->len > w->region_len)
			lp->seq_cursor = 0;
		rel = lp->seq_cursor;
		lp->seq_cursor += u->len;
	}
	if (rel + u->len > w->region_len)
		rel = w->region_len - u->len;
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
	char msg[sizeof(w->stats->errmsg)];
	int ret;

	if ((uint64_t)u->result != u->len) {
		if (lp->vr.units[u->index].check)
			lp->error = worker_fail(w, -EIO, "verify read at offset %llu "
						"on %s returned %lld of %u bytes",
						(unsigned long long)u->offset, w->path,
						(long long)u->result, u->len);
		return;
	}
	ret = verify_run_done(&lp->vr, u, w->path, msg, sizeof(msg));
	if (ret == -EILSEQ) {
		w->stats->verify_errors++;
		lp->error = worker_fail(w, ret, "%s", msg);
	} else if (ret) {
		lp->error = worker_fail(w, ret, "cannot log a write for verify: %s",
					strerror(-ret));
	} else if (lp->vr.reads_done != checked) {
		w->stats->verified_blocks++;
	}
}

static void complete_unit(struct io_loop *lp, struct io_unit *u, uint64_t now)
{
	struct worker *w = lp->w;
	bool sync = engine_is_sync(w->job);

	if (u->result < 0) {
		w->stats->dir[u->ddir].errors++;
		lp->error = worker_fail(w, (int)u->result,
					"%s of %u bytes at offset %llu on %s failed: %s",
					u->ddir == DDIR_READ ? "read" : "write", u->len,
					(unsigned long long)u->offset, w->path,
					strerror((int)-u->result));
	} else if (w->job->engine->flags & ENGINE_FILE_OPS) {
		if (lp->accounting && u->start_ns >= lp->ramp_end_ns)
			account_file_op(w, u);
	} else {
		if (lp->accounting && u->start_ns >= lp->ramp_end_ns)
			stats_account_io(w->stats, u->ddir, (uint64_t)u->result,
					 u->len, u->issue_ns - u->start_ns,
					 now - u->issue_ns, now - u->start_ns, !sync);
		if (lp->verify)
			verify_completed(lp, u);
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
	uint64_t now;
	int n;

	n = e->getevents(w, min, lp->inflight, w->reaped);
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
	if (lp->verify && verify_run_next(&lp->vr, u, lp->verify_phase))
		return true;
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

	if (stopped(w) || lp->error)
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

/* Queues one I/O; returns false when the engine had no room. */
static bool issue_one(struct io_loop *lp, uint64_t now)
{
	struct worker *w = lp->w;
	const struct engine_ops *e = w->job->engine;
	struct io_unit *u = next_unit(lp);
	enum io_result r;

	if (!u)
		return false;
	u->issue_ns = u->start_ns;
	r = e->queue(w, u);
	if (r == IO_BUSY) {
		lp->retry = u;
		return false;
	}
	lp->issued_bytes += u->len;
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
		bool busy = false;

		now = now_ns();
		if (!lp->accounting && now >= lp->ramp_end_ns)
			start_accounting(lp, now);
		if (lp->accounting)
			stats_tick(w->stats, now);
		/* At most one queue's worth per pass, so sync engines come
		 * back here to close stats intervals and see the ramp end. */
		for (unsigned int n = 0; n < depth && (lp->free_list || lp->retry) &&
		     more_to_issue(lp, now); n++) {
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
		if ((lp->free_list || lp->retry) && !busy && more_to_issue(lp, now_ns()))
			continue;
		if (reap(lp, reap_min < lp->inflight ? reap_min : lp->inflight) < 0)
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
	uint64_t base = job->randrepeat ? job->randseed : rng_next(&w->rng);
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

/* ---- fio's process options, applied by the worker to itself ----------- */

/* linux/ioprio.h, which glibc does not wrap */
#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_CLASS_BE    2
#define IOPRIO_CLASS_SHIFT 13

/* cpus_allowed/cpumask, all of it (shared) or, with split, the n-th CPU
 * of the set for the n-th worker of the run, round robin (fio's
 * fio_cpus_split with thread_number - 1). */
static int apply_affinity(struct worker *w)
{
	const struct job *job = w->job;
	unsigned int count = 0, pick;
	cpu_set_t set;

	CPU_ZERO(&set);
	for (unsigned int c = 0; c < JOB_CPUS_MAX && c < CPU_SETSIZE; c++)
		count += job_cpus_has(&job->cpus, c);
	if (!count)
		return worker_fail(w, -EINVAL, "cpus_allowed/cpumask name no CPU");
	pick = w->index % count;
	for (unsigned int c = 0; c < JOB_CPUS_MAX && c < CPU_SETSIZE; c++) {
		if (!job_cpus_has(&job->cpus, c))
			continue;
		if (job->cpus_policy == CPUS_SHARED) {
			CPU_SET(c, &set);
		} else if (pick-- == 0) {
			CPU_SET(c, &set);
			break;
		}
	}
	if (sched_setaffinity(0, sizeof(set), &set))
		return worker_fail(w, -errno, "cannot restrict the worker to the CPUs of cpus_allowed/cpumask: %s",
				   strerror(errno));
	return 0;
}

/* Each worker sets its own CPUs, nice value and I/O priority; all three
 * are per thread on Linux, so thread=1 workers get their own too. */
static int apply_process_opts(struct worker *w)
{
	const struct job *job = w->job;
	unsigned int cls = job->ioprio_class ? job->ioprio_class : IOPRIO_CLASS_BE;
	int ret;

	if (job->cpus_set) {
		ret = apply_affinity(w);
		if (ret)
			return ret;
	}
	errno = 0;
	/* fio calls nice(2): the value is added to what iodig runs with */
	if (job->nice && nice(job->nice) == -1 && errno)
		return worker_fail(w, -errno, "cannot change the nice value by %d: %s",
				   job->nice, strerror(errno));
	/* fio: a priority without a class is best effort */
	if (job->ioprio_set &&
	    syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, 0,
		    (int)(cls << IOPRIO_CLASS_SHIFT | job->ioprio)))
		return worker_fail(w, -errno, "cannot set I/O priority class %u level %u (prioclass, prio): %s",
				   cls, job->ioprio, strerror(errno));
	return 0;
}

static int worker_run(struct worker *w)
{
	const struct job *job = w->job;
	struct io_loop lp = { .w = w };
	struct errbuf err = { { 0 } };
	bool engine_ready = false;
	uint64_t start;
	int ret;

	w->stats->tid = gettid();
	w->stats->pid = getpid();
	ret = apply_process_opts(w);
	if (ret)
		goto cleanup;
	if (w->count_events)
		counters_open(&lp.counters);
	rng_seed(&w->rng, job->randrepeat ?
		 job->randseed + w->clone_index * 0x9e3779b9ull :
		 now_ns() ^ ((uint64_t)gettid() << 32));
	lp.granule = min_active_bs(job);
	ret = offset_gen_init(&w->offsets, w->region_len / lp.granule,
			      rw_is_random(job->rw), !job->norandommap);
	if (ret) {
		worker_fail(w, ret, "cannot set up offsets for %llu blocks",
			    (unsigned long long)(w->region_len / lp.granule));
		goto cleanup;
	}
	ret = open_target(w);
	if (ret)
		goto cleanup;
	ret = alloc_units(w);
	if (ret)
		goto cleanup;
	ret = setup_data(&lp);
	if (ret)
		goto cleanup;
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
	lp.ramp_end_ns = start + job->ramp_time_ns;
	if (job->runtime_ns)
		lp.deadline_ns = lp.ramp_end_ns + job->runtime_ns;
	if (!job->ramp_time_ns)
		start_accounting(&lp, start);
	ret = run_phases(&lp);
	finish_accounting(&lp);
	save_verify_state(&lp);
cleanup:
	if (engine_ready && job->engine->cleanup)
		job->engine->cleanup(w);
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	if (lp.verify)
		verify_run_free(&lp.vr);
	free(w->units);
	w->units = NULL;
	free(w->reaped);
	w->reaped = NULL;
	free(w->buf_area);
	w->buf_area = NULL;
	offset_gen_free(&w->offsets);
	counters_close(&lp.counters);
	return ret;
}

void *worker_main(void *arg)
{
	struct worker *w = arg;

	worker_run(w);
	w->stats->done = true;
	return NULL;
}
