// SPDX-License-Identifier: GPL-2.0
/*
 * The life of one worker: apply the process options, open the target, set
 * up offsets, units, data, logs and the engine, run the job's loops and
 * phases through the I/O loop (workload/io_loop.c), then account and
 * clean up.  Worker code never prints; errors land in the worker's
 * shared stats.
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

#include "workload/files.h"
#include "workload/io_loop.h"
#include "workload/worker.h"
#include "workload/io_units.h"
#include "workload/job_commands.h"
#include "workload/mem_lock.h"
#include "workload/pre_read.h"
#include "workload/offload.h"
#include "workload/worker_process.h"

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000ull + (uint64_t)tv->tv_usec * 1000;
}

/* block_error_percentiles: fio fails the job whose region holds no
 * trim block or more than it keeps. */
static int setup_block_life(struct worker *w)
{
	uint32_t bs = w->job->bs[DDIR_TRIM];

	if (!w->job->stat.block_error_hist ||
	    !block_life_init(&w->stats->block_life, w->region_len, bs))
		return 0;
	return worker_fail(w, -EINVAL, "cannot calculate block histogram with %llu trim blocks, maximum %u",
			   (unsigned long long)(bs ? w->region_len / bs : 0),
			   BLOCK_LIFE_MAX);
}

/* Buffer contents and, with verify=, the verify bookkeeping; fio's
 * random sources are seeded as lp->seed_base says. */
static int setup_data(struct io_loop *lp)
{
	struct worker *w = lp->w;
	const struct job *job = w->job;
	struct frand_base base = lp->seed_base;
	struct errbuf err = { { 0 } };
	int ret = setup_block_life(w);

	if (ret)
		return ret;
	ret = buffers_init(&lp->bufs, job, w->thread_number, w->nr_threads, base);
	if (ret)
		return worker_fail(w, ret, "no memory for the dedupe working set");
	io_loop_fill_initial_buffers(lp);
	if (job->verify == VERIFY_NONE)
		return 0;
	lp->verify = true;
	ret = verify_run_init(&lp->vr, job, w->nr_units, w->thread_number, base,
			      &err);
	if (ret)
		return worker_fail(w, ret, "%s", err.msg);
	return 0;
}

/* fio's do_dry_run completes each skipped write as done (io_completed):
 * it counts as an issued I/O of its full length, with the latency from
 * its preparation to its logging, and no runtime (account_phase), so no
 * bandwidth. */
static void account_dry_write(struct io_loop *lp, const struct io_unit *u,
			      uint64_t filled)
{
	uint64_t lat = now_ns() - filled;
	struct worker_stats *s = lp->w->stats;

	if (!lp->accounting || filled < lp->ramp_end_ns)
		return;
	s->issued[u->ddir]++;
	s->depth_dist[depth_bucket(1)]++; /* io_u_mark_depth(td, 1) */
	stats_account_io(s, u->ddir, u->len, u->len, 0, lat, lat, false);
}

/* verify_only: the writes the job would do, logged but not done (fio's
 * do_dry_run), so that the verify phase reads them back. */
static int dry_run(struct io_loop *lp)
{
	struct io_unit *u = &lp->w->units[0];
	bool verify = lp->verify; /* without verify=, nothing to log */
	uint64_t filled;
	int ret = 0;

	lp->verify = false; /* no backlog reads among the replayed writes */
	while (!ret && io_loop_more(lp, now_ns()) && io_loop_fill_unit(lp, u)) {
		filled = now_ns();
		lp->issued_bytes += u->len;
		if (verify && u->ddir == DDIR_WRITE)
			ret = verify_run_dry_write(&lp->vr, u);
		account_dry_write(lp, u, filled);
	}
	lp->verify = verify;
	if (ret)
		return lp->error = worker_fail(lp->w, ret, "cannot log the writes "
					       "to verify: %s", strerror(-ret));
	return 0;
}

/* fio's update_runtime after a phase that began at @from: the job's I/O
 * counts for each direction the job does (rw=) and did I/O in, so the
 * reads of a write job's verify_backlog get none of it; the verify phase
 * counts for the reads alone, a verify_only job's writes for nothing. */
static void account_phase(struct io_loop *lp, uint64_t from, bool verify_phase)
{
	const struct job *job = lp->w->job;
	struct worker_stats *s = lp->w->stats;
	uint64_t now = now_ns();

	if (!lp->accounting)
		return;
	if (from < s->start_ns)
		from = s->start_ns;	/* ramp_time or latency_target's restart */
	lp->measured_end_ns = now;
	if (verify_phase) {
		stats_add_ddir_time(s, DDIR_READ, now - from);
		return;
	}
	for (int d = 0; d < DDIR_COUNT; d++)
		if (rw_has_dir(job->rw, (enum ddir)d) && (s->dir[d].bytes || s->dir[d].ios) &&
		    !(d == DDIR_WRITE && job->verify_only))
			stats_add_ddir_time(s, (enum ddir)d, now - from);
}

/* fio's get_next_verify stops at a logged write still in flight: a lost
 * write, which never completes, leaves the verify phase nothing to read
 * (fio 3.33 reads none back, sequential or random, with or without a
 * random map). */
static bool verify_log_blocked(const struct worker *w)
{
	return w->units_lost != 0;
}

/* The job's I/O, then with do_verify the read back of what it wrote
 * (fio's do_io then do_verify), within the same runtime; fio opens the
 * files again for each, so each starts with invalidate's cache drop
 * (io_loop_reopen_files, and io_loop_new_loop for a loop). */
static int run_phases(struct io_loop *lp)
{
	const struct job *job = lp->w->job;
	bool writes = rw_has_write(job->rw), in_time;
	uint64_t from = now_ns();
	int ret;

	if (job->verify_only && writes) /* fio: even without verify= */
		ret = dry_run(lp);
	else
		ret = io_loop_run(lp);
	account_phase(lp, from, false);
	if (ret || !lp->verify || !writes || !job->do_verify || worker_stopped(lp->w) ||
	    verify_log_blocked(lp->w))
		return ret;
	lp->verify_phase = true;
	verify_run_start_phase(&lp->vr);
	/* A write phase cut by the runtime leaves its files open and the
	 * verify phase no time: fio ends the job there. */
	from = now_ns();
	in_time = !lp->deadline_ns || from < lp->deadline_ns;
	if (in_time)
		io_loop_reopen_files(lp);
	ret = io_loop_run(lp);
	if (in_time)
		account_phase(lp, from, true);
	return ret;
}

/* fio's do_io stops at io_limit times loops issued in all, but a loop
 * at size only of the bytes it queued: a loop of a sync engine goes on
 * until its offsets run out, and the next one from where it stopped
 * (io_size=40k of 64k, loops=3: loops of 64k and 56k).  A mixed
 * sequential job's loop ends where one direction reaches the region's
 * end (over several files a file is done where one of its directions
 * reaches its end, the loop once every file is).  Jobs without
 * time_based or offload, whose loops fio 3.33 cuts otherwise, share
 * the budget (number_ios counts all loops' I/Os too), which the reads
 * of the verify log do not spend (fio's io_issue_bytes leaves them
 * out). */
static bool loops_share_budget(const struct io_loop *lp)
{
	const struct worker *w = lp->w;
	const struct job *job = w->job;

	return job->loops > 1 && !job->time_based &&
	       job->io_submit_mode != SUBMIT_OFFLOAD &&
	       w->io_limit <= UINT64_MAX / job->loops;
}

/* fio's keep_running once the loops are done: a writing job that
 * verifies ends each do_io at size, and the verify phase follows it;
 * another loop starts while all the bytes done, the verify reads too
 * (fio's io_bytes), fall short of an io_size past size by at least the
 * largest block (randrw, size=48k, io_size=96k: two loops). */
static bool verify_loop_due(const struct io_loop *lp)
{
	const struct worker *w = lp->w;
	const struct job *job = w->job;
	uint64_t done = 0;

	if (!lp->verify || !rw_has_write(job->rw) || !job->do_verify ||
	    job->verify_only || job->time_based || job->number_ios ||
	    !worker_passes_repeat(w))
		return false;
	for (int d = 0; d < DDIR_COUNT; d++)
		done += w->stats->dir[d].bytes;
	return done < w->io_limit && w->io_limit - done >= job_max_bs(job);
}

/* A time_based writing verify job's write phase stops at size, and fio's
 * thread_main runs passes of writes and verify reads until the runtime
 * (keep_running holds for time_based whatever loops says). */
static bool passes_until_runtime(const struct io_loop *lp)
{
	const struct job *job = lp->w->job;

	return job->time_based && lp->verify && rw_has_write(job->rw) && lp->deadline_ns;
}

/* loops=N: the job's I/O N times over, each pass from a fresh state
 * (fio's clear_io_state); the statistics add up. */
static int run_loops(struct io_loop *lp)
{
	uint64_t budget = lp->w->io_limit * lp->w->job->loops, spent = 0;
	bool until_runtime = passes_until_runtime(lp);
	int ret = 0;

	if (lp->pacing)
		pacing_start(&lp->pace, now_ns());
	lat_target_init(&lp->lat, lp->w->job, now_ns());
	lp->shared_budget = loops_share_budget(lp);
	lp->loop_budget = lp->w->io_limit;
	worker_invalidate_cache(lp->w); /* as fio's first open */
	for (unsigned int i = 0; !ret; i++) {
		if (i >= lp->w->job->loops && !until_runtime && !verify_loop_due(lp))
			break;
		if (worker_stopped(lp->w) ||
		    (lp->deadline_ns && now_ns() >= lp->deadline_ns))
			break;
		if (i && worker_no_more_loops(lp->w))
			break;
		if (i) {
			io_loop_new_loop(lp); /* before the counts it reads go */
			spent += lp->issued_bytes - lp->backlog_bytes;
			lp->issued_bytes = 0;
			lp->backlog_bytes = 0;
			lp->exhausted = false;
			lp->verify_phase = false;
		}
		/* past the loops, fio's do_io still stops at their budget;
		 * a time_based job's passes have none */
		if (lp->shared_budget || (i >= lp->w->job->loops && !until_runtime))
			lp->loop_budget = budget > spent ? budget - spent : 0;
		lp->spent_bytes = spent;
		lp->last_loop = i + 1 >= lp->w->job->loops && !until_runtime;
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
	/* the measurement ends with the last phase counted in the
	 * directions' runtimes, so that the job's span (and the interval
	 * series ending with it) is the time its IOPS divide by */
	s->end_ns = lp->measured_end_ns > s->start_ns ? lp->measured_end_ns : now_ns();
	s->runtime_ns = s->end_ns - s->start_ns;
	s->latency_depth = lp->lat.qd;
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

bool worker_passes_repeat(const struct worker *w)
{
	uint64_t size = w->job->size > w->region_len ? w->job->size :
		       w->region_len;

	/* with filesize= fio's setup_files lowers a size past the files'
	 * total to that total, which io_size is then compared with */
	if (w->job->filesize && (!w->job->size || w->job->size > w->region_len))
		size = w->region_len;
	return w->job->time_based || w->io_limit > size;
}

/* fio's do_io marks the job TD_VERIFYING before each read of a job that
 * does not write (verify= set), and io_u_update_bytes_done then counts
 * those completions as verified bytes, not done ones: thread_main sees
 * no bytes done after the first do_io and ends the job there, time_based
 * or not (a time_based do_io wraps within itself until the runtime). */
static bool reads_once_verified(const struct worker *w)
{
	const struct job *job = w->job;

	return job->verify != VERIFY_NONE && rw_has_read(job->rw) &&
	       !rw_has_write(job->rw);
}

/* Lost units hold their file in fio (put_file never comes), so the
 * next loop's clear_io_state cannot close and reopen it, get_next_file
 * finds none and that do_io ends the job with nothing done. */
bool worker_no_more_loops(const struct worker *w)
{
	return reads_once_verified(w) || w->units_lost;
}

/* zipf, pareto, normal: fio seeds each file's draws from its own name of
 * the file (random_dist_seed_file); the worker's offsets serve file 0. */
static void seed_distributions(struct worker *w, struct file_picker *fs)
{
	char name[4096];

	if (!worker_fio_file_name(w, 0, name, sizeof(name)))
		random_dist_seed_file(&w->offsets.dist, name, w->thread_number);
	for (unsigned int k = 0; fs->files && k < fs->nr; k++)
		if (fs->files[k].offs.job &&
		    !worker_fio_file_name(w, k, name, sizeof(name)))
			random_dist_seed_file(&fs->files[k].offs.dist, name,
					      w->thread_number);
}

/* Where the I/O goes; sprandom sizes the job itself, as fio sets io_size
 * to the device's physical size. */
static int init_offsets(struct worker *w, struct frand_base seed_base)
{
	const struct job *job = w->job;
	int ret = offsets_init(&w->offsets, job, w->region_len, w->target_len,
			       job->time_based, seed_base, w->thread_number);

	if (ret == -ERANGE)
		return worker_fail(w, ret, "spr_num_regions %u is too many for "
				   "%llu bytes: a region would hold less than "
				   "one %u-byte block", job->sprandom.regions,
				   (unsigned long long)w->region_len,
				   job->bs[DDIR_WRITE]);
	if (ret)
		return worker_fail(w, ret, "cannot set up offsets for %llu bytes%s%s",
				   (unsigned long long)w->region_len,
				   w->offsets.error_what ? ": " : "",
				   w->offsets.error_what ? w->offsets.error_what : "");
	if (w->offsets.spr.regions)
		w->io_limit = w->offsets.spr.io_size;
	return 0;
}

/* fio 3.33's setup_random_seeds: seeds from randseed unless randrepeat=0
 * and randseed is not given (then at random); allrandrepeat's own seeds
 * are fixed whatever these say.  The worker's own generator follows. */
static struct frand_base seed_base(struct worker *w)
{
	const struct job *job = w->job;
	bool repeatable = job->randrepeat || job->randseed_set || job->allrandrepeat;
	uint64_t seed = job->allrandrepeat ? FIO_RANDSEED : job->randseed;

	rng_seed(&w->rng, repeatable ? seed + w->clone_index * 0x9e3779b9ull :
				       now_ns() ^ ((uint64_t)gettid() << 32));
	return (struct frand_base){
		.randseed = repeatable ? job->randseed : rng_next(&w->rng),
		.allrand = job->allrandrepeat,
		.seeded_clone = job->randseed_set && w->clone_index > 0,
	};
}

/* startdelay, or with a range A-B fio's draw in it: microseconds from
 * the job's start-delay generator, 32 bits of the span (fio's
 * rand_between). */
static uint64_t startdelay_ns(const struct worker *w, struct frand_base seed_base)
{
	const struct job *job = w->job;
	uint64_t lo = job->startdelay_ns / 1000, hi = job->startdelay_high_ns / 1000;
	struct frand r;

	if (!job->startdelay_high_ns)
		return job->startdelay_ns;
	frand_seed(&r, frand_job_seed(seed_base, w->thread_number, FRAND_START_DELAY),
		   job->random_generator == RGEN_TAUSWORTHE64);
	return (lo + frand_between(&r, 0, (unsigned int)(hi - lo))) * 1000;
}

static int worker_run(struct worker *w)
{
	const struct job *job = w->job;
	struct io_loop lp = { .w = w };
	struct mem_lock locked = { 0 };
	struct errbuf err = { { 0 } };
	char why[sizeof(w->stats->errmsg)];
	bool engine_ready = false;
	uint64_t start, delay;
	int ret;

	/* stopped before it was let go: it sets up nothing, does nothing */
	if (!start_gate_pass(w->gate, w->stop, &w->stats->stop))
		return 0;
	w->stats->tid = gettid();
	w->stats->pid = getpid();
	flow_state_init(&lp.flow, w->flow, job->flow);
	stats_configure(w->stats, &job->stat);
	ret = worker_apply_process_opts(w, why, sizeof(why));
	if (ret) {
		worker_fail(w, ret, "%s", why);
		goto cleanup;
	}
	if (w->gate->count_events)
		counters_open(&lp.counters);
	lp.seed_base = seed_base(w);
	buflen_init(&w->buflen, job, lp.seed_base, w->thread_number);
	rwmix_init(&w->rwmix, job, lp.seed_base, w->thread_number);
	lp.pacing = pacing_active(job);
	pacing_init(&lp.pace, job, lp.seed_base, w->thread_number);
	ret = init_offsets(w, lp.seed_base);
	if (ret)
		goto cleanup;
	ret = worker_open_target(w, &err);
	if (!ret)
		ret = zbd_init(&w->zbd, job, w->fd, w->region_start, w->region_len, &err);
	if (ret) {
		worker_fail(w, ret, "%s", err.msg);
		goto cleanup;
	}
	/* the file-operation engines open nothing, but reach their files
	 * as any job does */
	if (w->fds || (job->engine->flags & ENGINE_FILE_OPS))
		ret = file_service_init(&lp.fs, job, w->nr_files ? w->nr_files : 1,
					w->file_size, w->file_sizes,
					worker_passes_repeat(w), &w->offsets,
					lp.seed_base, w->thread_number);
	if (!ret)
		seed_distributions(w, &lp.fs);
	if (!ret && w->fds && worker_files_limited(w)) {
		ret = open_files_init(&lp.open, w->nr_files, worker_files_open_limit(w));
		lp.fs.of = &lp.open;
	}
	if (ret) {
		worker_fail(w, ret, "cannot set up the job's files: %s", strerror(-ret));
		goto cleanup;
	}
	/* fio locks lockmem before it allocates the buffers */
	ret = mem_lock_take(&locked, job->lockmem, &err);
	if (!ret)
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
	lp.engine = job->io_submit_mode == SUBMIT_OFFLOAD ? &offload_engine :
		    job->engine;
	/* offload's submit threads each hold the job engine's state */
	ret = lp.engine == job->engine ? engine_state_new(w, &err) : 0;
	if (!ret && lp.engine->init)
		ret = lp.engine->init(w, &err);
	if (ret) {
		worker_fail(w, ret, "%s", err.msg);
		goto cleanup;
	}
	engine_ready = true;
	/* the last unit first, as fio pops its free list from the end: the
	 * order in which posixaio's completions are seen follows it */
	for (unsigned int i = 0; i < w->nr_units; i++) {
		w->units[i].next_free = lp.free_list;
		lp.free_list = &w->units[i];
	}
	delay = startdelay_ns(w, lp.seed_base);
	for (start = now_ns(); !worker_stopped(w) && now_ns() - start < delay;)
		worker_sleep_ns(10000000);
	/* fio's order: after the files and engine are set up, before the
	 * clock starts; a command that fails (or cannot start) skips the
	 * job's I/O, with no error */
	if (job->exec_prerun[0]) {
		w->stats->prerun_status = job_command_run(job->exec_prerun, job->name, "prerun");
		if (w->stats->prerun_status)
			goto cleanup;
	}
	if (job->pre_read) {
		ret = worker_pre_read(w, &err);
		if (ret) {
			worker_fail(w, ret, "%s", err.msg);
			goto cleanup;
		}
	}
	start = now_ns();
	replay_cursor_start(&lp.replay, w->replay, start);
	ret = file_sync_init(&lp.sync, w->fd, job, w->fds ? w->nr_files : 1);
	if (ret) {
		worker_fail(w, ret, "out of memory for sync_file_range's ranges");
		goto cleanup;
	}
	lp.ramp_end_ns = start + job->ramp_time_ns;
	if (job->runtime_ns)
		lp.deadline_ns = lp.ramp_end_ns + job->runtime_ns;
	if (!job->ramp_time_ns)
		io_loop_start_accounting(&lp, start);
	if (!job->create_only)
		ret = run_loops(&lp);
	finish_accounting(&lp);
	if ((iolog_finish(&lp.logs, w->stats, w->stats->end_ns, &err) ||
	     io_trace_finish(&lp.trace, w, &err)) && !ret)
		ret = worker_fail(w, -EIO, "%s", err.msg);
	save_verify_state(&lp);
	/* fio ignores how it ends */
	if (job->exec_postrun[0])
		job_command_run(job->exec_postrun, job->name, "postrun");
cleanup:
	mem_lock_release(&locked);
	flow_state_leave(&lp.flow);
	if (engine_ready && lp.engine->cleanup)
		lp.engine->cleanup(w);
	if (lp.engine == job->engine)
		engine_state_free(w);
	iolog_free(&lp.logs);
	io_trace_free(&lp.trace);
	file_service_free(&lp.fs);
	open_files_free(&lp.open);
	file_sync_free(&lp.sync);
	worker_close_files(w);
	if (lp.verify)
		verify_run_free(&lp.vr);
	free(w->units);
	w->units = NULL;
	free(w->reaped);
	w->reaped = NULL;
	io_mem_free(&w->mem);
	w->buf_area = NULL;
	offsets_free(&w->offsets);
	buffers_free(&lp.bufs);
	w->stats->zone_resets = w->zbd.resets;
	zbd_free(&w->zbd);
	counters_close(&lp.counters);
	if (job->unlink || job->unlink_each_loop)
		worker_unlink_files(w);
	/* as fio's cgroup_shutdown: out, so the group can be removed */
	if (w->cgroup)
		cgroup_place_leave(w->cgroup, gettid());
	return ret;
}

void *worker_main(void *arg)
{
	struct worker *w = arg;

	worker_run(w);
	w->stats->done = true;
	return NULL;
}
