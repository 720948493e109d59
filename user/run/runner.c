// SPDX-License-Identifier: GPL-2.0
/*
 * The supervisor: starts each stonewall group's workers
 * (threads, or processes like fio's default), waits for them while it
 * watches for SIGINT/SIGTERM, and cleans up.  Signals stay blocked in every
 * thread and are taken with sigtimedwait, so no handler and no global flag
 * is needed; workers see the stop flag in shared memory.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "base/mem.h"
#include "probes/probe.h"
#include "probes/probe_cache.h"
#include "run/clone_setup.h"
#include "run/clone_starts.h"
#include "run/file_locks_setup.h"
#include "run/group_probes.h"
#include "run/io_sched_jobs.h"
#include "run/filesize_range.h"
#include "run/listed_sizes.h"
#include "run/replay_prepare.h"
#include "run/run.h"
#include "target/write_guard.h"
#include "workload/files.h"
#include "workload/io_loop.h"

#define DEFAULT_SCRATCH_SIZE (512ull << 20)

void run_ctx_init(struct run_ctx *ctx)
{
	sigset_t chld;

	memset(ctx, 0, sizeof(*ctx));
	ctx->opts.output_format = OUTPUT_NORMAL;
	ctx->opts.progress = -1;
	ctx->opts.scratch_size = DEFAULT_SCRATCH_SIZE;
	ctx->opts.probe_toggle_settle_ms = -1;
	sigemptyset(&ctx->signals);
	sigaddset(&ctx->signals, SIGINT);
	sigaddset(&ctx->signals, SIGTERM);
	sigaddset(&ctx->signals, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &ctx->signals, NULL);
	/* Workers ending: left pending for supervise(), never handled. */
	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	pthread_sigmask(SIG_BLOCK, &chld, NULL);
}

/* A terminal signal taken: the run stops, the first signal is kept. */
static void run_stop_on_signal(struct run_ctx *ctx, int sig)
{
	if (!ctx->stop_signal)
		ctx->stop_signal = sig;
	if (ctx->shared)
		ctx->shared->stop = 1;
}

bool run_signal_pending(struct run_ctx *ctx)
{
	struct timespec zero = { 0, 0 };
	int sig;

	if (ctx->stop_signal)
		return true;
	sig = sigtimedwait(&ctx->signals, NULL, &zero);
	if (sig > 0)
		run_stop_on_signal(ctx, sig);
	return sig > 0;
}

/* serialize_overlap's board of the offloaded jobs, after the workers'
 * stats in the shared mapping; NULL when no job needs it. */
static struct overlap_board *overlap_board(const struct run_ctx *ctx)
{
	size_t at = sizeof(struct run_shared) +
		    ctx->nr_workers * sizeof(struct worker_stats);

	if (!overlap_board_slots(ctx->jobs.jobs, ctx->jobs.count))
		return NULL;
	return (struct overlap_board *)((char *)ctx->shared +
		(at + _Alignof(struct overlap_board) - 1) /
		_Alignof(struct overlap_board) * _Alignof(struct overlap_board));
}

static void join_overlap_board(struct worker *w, struct overlap_board *b,
			       unsigned int *next_slot)
{
	if (!b || !job_uses_overlap_board(w->job))
		return;
	w->overlap = b;
	w->overlap_first = *next_slot;
	*next_slot += w->job->iodepth;
}

static size_t align_up(size_t at, size_t align)
{
	return (at + align - 1) / align * align;
}

static int setup_workers(struct run_ctx *ctx, struct errbuf *err)
{
	unsigned int n = 0, k = 0, slots, next_slot = 0;
	struct overlap_board *board;

	for (size_t j = 0; j < ctx->jobs.count; j++)
		n += ctx->jobs.jobs[j].numjobs;
	ctx->nr_workers = n;
	slots = overlap_board_slots(ctx->jobs.jobs, ctx->jobs.count);
	ctx->shared_len = sizeof(struct run_shared) + n * sizeof(struct worker_stats) +
			  (slots ? _Alignof(struct overlap_board) + overlap_board_size(slots) : 0);
	/* the latency per priority last: only the pages of the workers that
	 * use several priorities are ever touched */
	ctx->prio_at = align_up(ctx->shared_len, _Alignof(struct prio_stats));
	ctx->shared_len = ctx->prio_at + n * sizeof(struct prio_stats);
	ctx->shared = mmap(NULL, ctx->shared_len, PROT_READ | PROT_WRITE,
			   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ctx->shared == MAP_FAILED) {
		ctx->shared = NULL;
		return err_set(err, errno, "cannot map %zu bytes for worker stats: %s",
			       ctx->shared_len, strerror(errno));
	}
	ctx->workers = calloc(n, sizeof(*ctx->workers));
	if (!ctx->workers)
		return err_set(err, ENOMEM, "out of memory for %u workers", n);
	board = overlap_board(ctx);
	if (board)
		overlap_board_init(board, slots);
	for (size_t j = 0; j < ctx->jobs.count; j++) {
		const struct job *job = &ctx->jobs.jobs[j];
		const struct job_target *t = &ctx->targets[j];

		for (unsigned int i = 0; i < job->numjobs; i++, k++) {
			unsigned int c = job_clone_at(job->numjobs, i);
			struct worker *w = &ctx->workers[k];
			uint64_t shift, cut, real;

			w->job = job;
			w->job_index = (unsigned int)j;
			w->clone_index = c;
			w->thread_number = k + 1; /* fio's order: job_clone_at */
			w->nr_threads = n;
			w->index = k;
			w->fd = -1;
			if (t->per_clone_files)
				job_file_name(job, c, 0, w->path, sizeof(w->path));
			else
				snprintf(w->path, sizeof(w->path), "%s", t->path);
			shift = target_clone_shift(job, t, c);
			w->region_start = t->region_start + shift;
			/* a region that ends with the file: a clone starting
			 * at or past its end has none (clone_setup_fails) */
			cut = t->to_end || t->filesize_bound ?
			      (shift < t->file_size ? shift : t->file_size) : 0;
			w->region_len = t->region_len - cut * t->nr_files;
			w->nr_files = t->nr_files;
			w->file_size = t->file_size - cut;
			w->file_sizes = t->file_sizes;
			if (t->sizes_per_clone) {
				w->file_sizes += (size_t)c * t->nr_files;
				w->region_len = clone_region_len(t, c);
			}
			/* fio's real_file_size: sequential offsets wrap there */
			real = t->clone_starts ? t->clone_starts[c].file_size : t->info.size;
			w->target_len = real > w->region_start + w->region_len ?
					real - w->region_start : w->region_len;
			w->io_limit = job->io_size ? job->io_size : w->region_len;
			if (job->io_size_percent) /* fio: of the size resolved */
				w->io_limit = percent_of(w->region_len, job->io_size_percent);
			/* fio caps size at the files' total when filesize=
			 * gives each its size; io_size past them wraps. */
			if (job->filesize && !job->io_size_given &&
			    w->io_limit > w->region_len)
				w->io_limit = w->region_len;
			/* and with random sizes size= caps the I/O */
			if (t->sizes_per_clone && !job->io_size_given && job->size &&
			    w->io_limit > job->size)
				w->io_limit = job->size;
			w->replay = t->replay; /* its end ends the job */
			if (t->replay)
				w->io_limit = UINT64_MAX;
			w->stats = &ctx->shared->stats[k];
			w->prio = (struct prio_stats *)((char *)ctx->shared + ctx->prio_at) + k;
			w->stop = &ctx->shared->stop;
			w->gate = &ctx->shared->gate;
			/* fio counts every clone's weight in from the start */
			if (job->flow)
				w->flow = flow_table_join(&ctx->shared->flows,
							  job->flow_id, job->flow);
			join_overlap_board(w, board, &next_slot);
			/* w->stats is zero as mapped: writing it here would fault
			 * every page of every worker's stats into this process */
		}
	}
	return 0;
}

/*
 * How long a group's new workers, and wait_for's late starters, sleep at
 * their start gate at the least.  fio's jobs wait, asleep, for its main
 * thread's next start poll (100 ms apart), late starters too.  A new
 * task's load-tracking utilization starts at half a CPU and decays only
 * while it sleeps; the scheduler places the job's wakeups by it, and a
 * worker that starts its I/O at once can keep another placement than
 * fio's job for the whole run (docs/overhead.md, "A new worker's first
 * 50 ms").
 */
#define GATE_SETTLE_NS 50000000ull

/*
 * The supervisor's longest sleep while a group runs.  fio's main thread
 * reaps its jobs every 10 ms for the whole run; on a guest whose idle CPUs
 * halt, how often anything wakes changes what each of the job's I/Os costs
 * (docs/overhead.md, "The supervisor's 10 ms"), so iodig keeps fio's
 * cadence for its figures to compare with fio's.
 */
#define REAP_INTERVAL_NS 10000000ull

struct group_run {
	unsigned int first, count;    /* workers of the group */
	unsigned int exit_what;       /* set when an exitall job ended */
	pthread_t *threads;
	pid_t *pids;
	bool *started;
	bool *waiting;                /* wait_for: not started yet */
	uint64_t late_open_at;        /* when the late starters' gate opens,
				       * 0 = open */
};

/*
 * A forked worker inherits iodig's BPF links, programs, maps, BTF and perf
 * events.  It never uses them, and while it held them the kernel kept the
 * probes attached whatever the supervisor detached (--probe-toggle) or
 * destroyed, until the worker exited.
 */
static void drop_tracing_fds(void)
{
	static const char *const kinds[] = { "anon_inode:bpf", "anon_inode:btf",
					     "anon_inode:[perf_event]" };
	DIR *dir = opendir("/proc/self/fd");
	struct dirent *e;

	if (!dir)
		return;
	while ((e = readdir(dir))) {
		char path[64], target[64];
		int fd = atoi(e->d_name);
		ssize_t n;

		if (fd < 3 || fd == dirfd(dir))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = 0;
		for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
			if (!strncmp(target, kinds[k], strlen(kinds[k])))
				close(fd);
	}
	closedir(dir);
}

/* A worker thread's end wakes the supervisor as a worker process's exit
 * does: with SIGCHLD, which every thread blocks and only supervise()
 * waits for. */
static void *thread_worker(void *w)
{
	void *ret = worker_main(w);

	kill(getpid(), SIGCHLD);
	return ret;
}

static int start_worker(struct run_ctx *ctx, struct group_run *g, unsigned int i)
{
	struct worker *w = &ctx->workers[g->first + i];
	int ret;

	if (w->job->thread) {
		ret = pthread_create(&g->threads[i], NULL, thread_worker, w);
		if (ret)
			return -ret;
	} else {
		pid_t pid = fork();

		if (pid < 0)
			return -errno;
		if (pid == 0) {
			/* A killed supervisor must not leave workers behind. */
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			if (getppid() == 1)
				_exit(1);
			/* fio's job process leads a session of its own; with
			 * sched_autogroup that is also a CPU share of its own,
			 * not one split with what else runs in iodig's session.
			 * The supervisor alone takes the terminal's signals:
			 * workers block them and watch the stop flag. */
			setsid();
			drop_tracing_fds();
			worker_main(w);
			_exit(0);
		}
		g->pids[i] = pid;
	}
	g->started[i] = true;
	return 0;
}

static uint64_t group_expected_ns(const struct run_ctx *ctx, const struct group_run *g)
{
	uint64_t max = 0;

	for (unsigned int i = 0; i < g->count; i++) {
		const struct job *job = ctx->workers[g->first + i].job;
		uint64_t t = job_startdelay_max_ns(job) + job->ramp_time_ns + job->runtime_ns;

		if (!job->runtime_ns)
			return 0;
		if (t > max)
			max = t;
	}
	return max;
}

static bool group_done(struct run_ctx *ctx, struct group_run *g)
{
	for (unsigned int i = 0; i < g->count; i++) {
		struct worker *w = &ctx->workers[g->first + i];
		int status;

		if (g->waiting[i] && !ctx->shared->stop)
			return false;
		if (!g->started[i])
			continue;
		if (w->job->thread) {
			if (!w->stats->done)
				return false;
			continue;
		}
		if (g->pids[i] <= 0)
			continue;
		if (waitpid(g->pids[i], &status, WNOHANG) == 0)
			return false;
		if (WIFSIGNALED(status) && !w->stats->error) {
			w->stats->error = -EINTR;
			snprintf(w->stats->errmsg, sizeof(w->stats->errmsg),
				 "worker process %d was killed by signal %d",
				 g->pids[i], WTERMSIG(status));
		}
		g->pids[i] = 0;
	}
	return true;
}

static bool want_progress(const struct run_ctx *ctx)
{
	if (ctx->opts.progress >= 0)
		return ctx->opts.progress;
	return isatty(STDERR_FILENO);
}

/* I/Os the group's workers have completed so far. */
static uint64_t group_ios(const struct run_ctx *ctx, const struct group_run *g)
{
	uint64_t ios = 0;

	for (unsigned int i = g->first; i < g->first + g->count; i++)
		for (int d = 0; d < DDIR_COUNT; d++)
			ios += ctx->shared->stats[i].dir[d].ios;
	return ios;
}

/*
 * --probe-toggle, at each wake-up of the supervisor: when a settle time
 * ends, the phase after it begins; otherwise the current phase ends
 * (measured when it ran at least half its length and the workload was not
 * told to stop) and the next begins, after detaching or attaching the
 * probes and a settle time when its kind differs.  Returns how long to
 * wait, in ms.
 */
static unsigned int toggle_step(struct run_ctx *ctx, const struct group_run *g)
{
	struct probe_toggle *t = &ctx->toggle;
	uint64_t now = now_ns(), ios = group_ios(ctx, g);
	bool traced = toggle_traced(t->index);

	if (t->settling) {
		t->settling = false;
		goto begin;
	}
	if (t->timing && !ctx->shared->stop &&
	    now - t->start_ns >= (uint64_t)t->phase_ms * 500000ull &&
	    toggle_record(t, t->index, ios - t->start_ios, now - t->start_ns) && !t->switch_err)
		t->switch_err = -ENOMEM;
	if (t->begun)
		t->index++;
	t->begun = true;
	if (toggle_traced(t->index) != traced) {
		int err = probes_set_attached(ctx->probes, !traced, t->fixed, sizeof(t->fixed));

		if (err && !t->switch_err)
			t->switch_err = err;
		t->switches++;
		t->switch_ns += now_ns() - now;
		if (t->settle_ms) {
			t->timing = false;
			t->settling = true;
			return t->settle_ms;
		}
	}
begin:
	t->timing = true;
	t->start_ns = now_ns();
	t->start_ios = group_ios(ctx, g);
	return t->phase_ms;
}

/* fio's exitall and exitall_on_error: a finished worker of such a job
 * stops the rest of its reporting group (exit_what=group), every job
 * running (stonewall) or every job, later groups too (all). */
static void check_exitall(struct run_ctx *ctx, struct group_run *g)
{
	for (unsigned int i = 0; i < g->count; i++) {
		const struct worker *w = &ctx->workers[g->first + i];
		const struct job *job = w->job;
		unsigned int what = job->exit_what ? job->exit_what : EXIT_WHAT_GROUP;

		if (!w->stats->done || !(job->exitall ||
		    (job->exitall_on_error && w->stats->error)))
			continue;
		if (what == EXIT_WHAT_GROUP) {
			for (unsigned int k = 0; k < g->count; k++)
				if (ctx->workers[g->first + k].job->group_id == job->group_id)
					ctx->workers[g->first + k].stats->stop = 1;
			continue;
		}
		if (what > g->exit_what)
			g->exit_what = what;
		ctx->shared->stop = 1;
	}
}

/* How long to wait: until @due_ns, or the series' next interval end or the
 * next steady-state sample when that comes first, and REAP_INTERVAL_NS at
 * the most. */
static struct timespec wake_in(const struct run_ctx *ctx, const struct group_run *g,
			       uint64_t due_ns)
{
	uint64_t now = now_ns(), until = due_ns;
	uint64_t reap = now + REAP_INTERVAL_NS;
	uint64_t series = series_collect_due(&ctx->series, ctx->workers + g->first, g->count, now);
	uint64_t steady = steady_check_due(&ctx->steady, ctx->workers + g->first, g->count);
	struct timespec ts = { 0, 0 };

	if (series && series < until)
		until = series;
	if (steady && steady < until)
		until = steady;
	if (g->late_open_at && g->late_open_at < until)
		until = g->late_open_at;
	if (reap < until)
		until = reap;
	if (until > now) {
		ts.tv_sec = (time_t)((until - now) / 1000000000ull);
		ts.tv_nsec = (long)((until - now) % 1000000000ull);
	}
	return ts;
}

/* fio's wait_for: whether a worker of the job @name (other than
 * @self's) is still to finish. */
static bool waitee_running(const struct run_ctx *ctx, const struct job *self)
{
	for (unsigned int i = 0; i < ctx->nr_workers; i++) {
		const struct worker *w = &ctx->workers[i];

		if (w->job != self && !strcmp(w->job->name, self->wait_for) &&
		    !w->stats->done)
			return true;
	}
	return false;
}

/* A started worker process joins the probes' filter before its set-up;
 * main says which ones could not. */
static void track_worker(struct run_ctx *ctx, const struct group_run *g, unsigned int i)
{
	pid_t pid = g->pids[i];

	if (ctx->probes && g->started[i] && pid > 0 &&
	    probes_track_tgid(ctx->probes, pid) && !ctx->untraced_workers++)
		ctx->first_untraced = pid;
}

/* Starts the workers whose wait_for job has finished; on a failed start
 * the run stops, as when the group's workers start.  They wait at a gate
 * of their own, shut until GATE_SETTLE_NS after the last of them started
 * (late_gate_tick); a later start keeps it shut longer. */
static void start_waiting(struct run_ctx *ctx, struct group_run *g)
{
	for (unsigned int i = 0; i < g->count && !ctx->shared->stop; i++) {
		struct worker *w = &ctx->workers[g->first + i];

		if (!g->waiting[i] || waitee_running(ctx, w->job))
			continue;
		g->waiting[i] = false;
		if (!g->late_open_at)
			start_gate_close(&ctx->shared->late_gate);
		w->gate = &ctx->shared->late_gate;
		g->late_open_at = now_ns() + GATE_SETTLE_NS;
		if (start_worker(ctx, g, i))
			ctx->shared->stop = 1;
		track_worker(ctx, g, i);
	}
}

/* Opens the late starters' gate when their settle time is over, or at
 * once when the run stops: a worker at a shut gate never ends. */
static void late_gate_tick(struct run_ctx *ctx, struct group_run *g)
{
	if (!g->late_open_at || (now_ns() < g->late_open_at && !ctx->shared->stop))
		return;
	g->late_open_at = 0;
	start_gate_open(&ctx->shared->late_gate,
			probes_family_running(ctx->probes, "counters"));
}

/* Waits for the group while watching for signals; never returns early. */
static void supervise(struct run_ctx *ctx, struct group_run *g)
{
	unsigned int wait_ms = 200;
	uint64_t start = now_ns(), total = group_expected_ns(ctx, g), due;
	sigset_t wake = ctx->signals;
	uint64_t last_progress = 0;
	bool progress = want_progress(ctx);
	bool toggling = ctx->opts.probe_toggle_ms && ctx->probes;

	if (toggling) {
		ctx->toggle.phase_ms = ctx->opts.probe_toggle_ms;
		ctx->toggle.settle_ms = ctx->opts.probe_toggle_settle_ms < 0 ?
			TOGGLE_SETTLE_DEFAULT_MS : (unsigned int)ctx->opts.probe_toggle_settle_ms;
		wait_ms = toggle_step(ctx, g);
	}
	due = now_ns() + (uint64_t)wait_ms * 1000000ull;
	/* a worker's end ends the wait at once, not at the next tick */
	sigaddset(&wake, SIGCHLD);
	for (;;) {
		struct timespec tick;
		int sig;

		late_gate_tick(ctx, g);
		if (group_done(ctx, g))
			break;
		tick = wake_in(ctx, g, due);
		sig = sigtimedwait(&wake, NULL, &tick);

		/* the series keeps what it can: a failed tick leaves a gap */
		series_collect_tick(&ctx->series, ctx->workers + g->first, g->count, now_ns(), false);
		steady_check_tick(&ctx->steady, ctx->workers + g->first, g->count, now_ns());
		/* a worker's end is when exitall and wait_for act */
		if (sig == SIGCHLD) {
			check_exitall(ctx, g);
			start_waiting(ctx, g);
		}
		if (sig == SIGCHLD || (sig <= 0 && now_ns() < due))
			continue;
		if (sig > 0)
			run_stop_on_signal(ctx, sig);
		check_exitall(ctx, g);
		start_waiting(ctx, g);
		if (toggling && !group_done(ctx, g))
			wait_ms = toggle_step(ctx, g);
		due = now_ns() + (uint64_t)wait_ms * 1000000ull;
		probes_tick(ctx->probes);
		if (progress && now_ns() - last_progress >= 1000000000ull) {
			last_progress = now_ns();
			progress_print(&ctx->progress, ctx, g->first, g->count,
				       last_progress - start, total);
		}
	}
	if (progress)
		progress_clear(&ctx->progress);
	ctx->toggle.timing = false;
	ctx->toggle.settling = false;
}

static void join_group(struct run_ctx *ctx, struct group_run *g)
{
	for (unsigned int i = 0; i < g->count; i++) {
		if (!g->started[i])
			continue;
		if (ctx->workers[g->first + i].job->thread)
			pthread_join(g->threads[i], NULL);
		else if (g->pids[i] > 0)
			waitpid(g->pids[i], NULL, 0);
	}
}

/* IODIG_TIMING: when the group's I/O began and ended, from the workers'
 * own clocks, and when the supervisor had them all joined. */
static void mark_workload(struct run_ctx *ctx, unsigned int first, unsigned int count)
{
	uint64_t start = UINT64_MAX, end = 0;

	if (!ctx->phases)
		return;
	phase_mark(ctx->phases, "workers", "joined");
	for (unsigned int i = first; i < first + count; i++) {
		const struct worker_stats *s = &ctx->shared->stats[i];

		if (s->start_ns && s->start_ns < start)
			start = s->start_ns;
		if (s->end_ns > end)
			end = s->end_ns;
	}
	if (end) {
		phase_mark_at(ctx->phases, "workload", "first I/O", start);
		phase_mark_at(ctx->phases, "workload", "last I/O", end);
	}
}

/* The workers of a job whose setup failed (job_target's setup_error)
 * end there, never started, as fio's do; so do the clones fio's
 * setup_files does not set up (run/clone_setup.h): those it fails count
 * in the exit status though their report shows no error, and one past
 * the end of files as large as filesize= allows fails nothing. */
static void fail_jobs_not_set_up(struct run_ctx *ctx, unsigned int first, unsigned int count)
{
	for (unsigned int i = first; i < first + count; i++) {
		struct worker *w = &ctx->workers[i];
		const struct job_target *t = &ctx->targets[w->job_index];
		enum clone_setup setup = target_clone_setup(t, w->clone_index);

		if (t->setup_error)
			worker_fail(w, t->setup_error, "%s", t->setup_msg);
		else if (setup == CLONE_SET_UP)
			continue;
		w->stats->setup_failures = setup == CLONE_NO_ROOM ||
					   setup == CLONE_BAD_OFFSET;
		w->stats->bad_offsets = setup == CLONE_BAD_OFFSET;
		w->stats->done = true; /* never started */
	}
}

/* Keeps the gate shut until @until, or a signal stops the run. */
static void hold_gate(struct run_ctx *ctx, uint64_t until)
{
	uint64_t now;

	while (!run_signal_pending(ctx) && (now = now_ns()) < until) {
		struct timespec ts = { (time_t)((until - now) / 1000000000ull),
				       (long)((until - now) % 1000000000ull) };
		int sig = sigtimedwait(&ctx->signals, NULL, &ts);

		if (sig > 0)
			run_stop_on_signal(ctx, sig);
	}
}

/*
 * The group's workers are created first and wait at the start gate while
 * the group's probes are loaded and attached, and at least GATE_SETTLE_NS;
 * then they set up and run.  The probes follow them from their set-up on;
 * the wait at the gate itself, begun before, is none of theirs.
 */
static int run_group(struct run_ctx *ctx, const struct run_group *rg, struct errbuf *err)
{
	unsigned int first = rg->first_worker, count = rg->nr_workers;
	struct group_run g = { .first = first, .count = count };
	uint64_t created;
	int ret = 0;

	g.threads = calloc(count, sizeof(*g.threads));
	g.pids = calloc(count, sizeof(*g.pids));
	g.started = calloc(count, sizeof(*g.started));
	g.waiting = calloc(count, sizeof(*g.waiting));
	if (!g.threads || !g.pids || !g.started || !g.waiting) {
		ret = err_set(err, ENOMEM, "out of memory starting %u workers", count);
		goto cleanup;
	}
	fail_jobs_not_set_up(ctx, first, count);
	io_sched_jobs_switch(ctx, first, count);
	cgroup_jobs_setup(ctx, first, count);
	/* no thread of the last group's teardown runs while workers fork */
	group_probes_settle(ctx);
	start_gate_close(&ctx->shared->gate);
	for (unsigned int i = 0; i < count; i++) {
		if (ctx->workers[first + i].stats->done)
			continue; /* failed before it could start */
		g.waiting[i] = ctx->workers[first + i].job->wait_for[0] &&
			       waitee_running(ctx, ctx->workers[first + i].job);
		if (g.waiting[i])
			continue;
		ret = start_worker(ctx, &g, i);
		if (ret) {
			err_set(err, -ret, "cannot start worker %u of job '%s': %s",
				ctx->workers[first + i].clone_index,
				ctx->workers[first + i].job->name, strerror(-ret));
			ctx->shared->stop = 1;
			break;
		}
	}
	phase_mark(ctx->phases, "workers", "started");
	created = now_ns(); /* the last of them */
	if (!ret && !run_signal_pending(ctx))
		group_probes_open(ctx, rg);
	for (unsigned int i = 0; i < count; i++)
		track_worker(ctx, &g, i);
	if (!ret)
		hold_gate(ctx, created + GATE_SETTLE_NS);
	if (!run_signal_pending(ctx))
		ctx->groups_let_go++;
	phase_mark(ctx->phases, "workers", "let go");
	start_gate_open(&ctx->shared->gate, probes_family_running(ctx->probes, "counters"));
	supervise(ctx, &g);
	join_group(ctx, &g);
	mark_workload(ctx, first, count);
	if (series_collect_tick(&ctx->series, ctx->workers + first, count, now_ns(), true) && !ret)
		ret = err_set(err, ENOMEM, "out of memory for the interval series");
	/* exitall stopped this group only: the next one runs */
	if (g.exit_what && g.exit_what != EXIT_WHAT_ALL && !ctx->stop_signal && !ret)
		ctx->shared->stop = 0;
cleanup:
	free(g.threads);
	free(g.pids);
	free(g.started);
	free(g.waiting);
	return ret;
}

int run_begin(struct run_ctx *ctx, struct errbuf *err)
{
	int ret = setup_workers(ctx, err);

	if (!ret)
		ret = file_locks_setup(ctx, err);
	if (!ret)
		ret = series_collect_begin(&ctx->series, ctx->jobs.jobs, ctx->jobs.count,
					   ctx->opts.interval_ms, err);
	if (!ret)
		ret = steady_check_begin(&ctx->steady, ctx->workers, ctx->nr_workers, err);
	if (ret)
		return ret;
	/* each repeat opens its own probes, attached: phase 0 is traced */
	toggle_free(&ctx->toggle);
	memset(&ctx->toggle, 0, sizeof(ctx->toggle));
	for (unsigned int d = 0; d < ctx->disks.nr; d++)
		diskstats_read(NULL, ctx->disks.name[d], &ctx->disk_before[d], err);
	return 0;
}

bool run_group_next(const struct run_ctx *ctx, struct run_group *g)
{
	size_t j = g->first_job + g->nr_jobs;

	g->first_worker += g->nr_workers;
	g->first_job = j;
	g->nr_jobs = 0;
	g->nr_workers = 0;
	if (j >= ctx->jobs.count)
		return false;
	g->id = ctx->jobs.jobs[j].group_id;
	g->run_group = ctx->jobs.jobs[j].run_group;
	while (j < ctx->jobs.count && ctx->jobs.jobs[j].run_group == g->run_group) {
		g->nr_workers += ctx->jobs.jobs[j++].numjobs;
		g->nr_jobs++;
	}
	return true;
}

bool run_has_groups(const struct run_ctx *ctx)
{
	return ctx->jobs.count && ctx->jobs.jobs[0].run_group !=
				  ctx->jobs.jobs[ctx->jobs.count - 1].run_group;
}

int run_group_execute(struct run_ctx *ctx, const struct run_group *g, struct errbuf *err)
{
	return run_group(ctx, g, err);
}

void run_end(struct run_ctx *ctx, struct errbuf *err)
{
	for (unsigned int d = 0; d < ctx->disks.nr; d++)
		diskstats_read(NULL, ctx->disks.name[d], &ctx->disk_after[d], err);
}

void run_ctx_cleanup(struct run_ctx *ctx)
{
	/* a run that stopped half way put back nothing yet */
	io_sched_jobs_restore(ctx);
	cgroup_jobs_remove(ctx);
	cgroup_jobs_free(&ctx->cgroups);
	series_collect_free(&ctx->series);
	steady_check_free(&ctx->steady);
	toggle_free(&ctx->toggle);
	group_probes_settle(ctx);
	probes_destroy(ctx->probes);
	ctx->probes = NULL;
	group_probes_free(ctx);
	probe_cache_free(ctx->probe_cache);
	ctx->probe_cache = NULL;
	scratch_destroy(ctx->scratch);
	ctx->scratch = NULL;
	file_locks_free(ctx);
	FREE_AND_NULL(ctx->workers);
	if (ctx->shared)
		munmap(ctx->shared, ctx->shared_len);
	ctx->shared = NULL;
	replay_targets_free(ctx);
	listed_sizes_free(ctx);
	clone_starts_free(ctx);
	clone_setup_free(ctx);
	FREE_AND_NULL(ctx->targets);
	job_list_free(&ctx->jobs);
}
