/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run context: everything one `iodig run` owns.  It is the only mutable
 * state that outlives a function call; cleanup releases all of it.
 */
#ifndef IODIG_RUN_H
#define IODIG_RUN_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/errbuf.h"
#include "base/phase_log.h"
#include "job/options.h"
#include "report/report.h"
#include "target/disk_list.h"
#include "target/diskstats.h"
#include "target/io_scheduler.h"
#include "target/scratch.h"
#include "target/target.h"
#include "probes/toggle.h"
#include "run/cgroup_jobs.h"
#include "run/progress.h"
#include "run/series_collect.h"
#include "run/steady_check.h"
#include "workload/file_lock.h"
#include "workload/worker.h"

#define OUTPUT_NORMAL (1u << 0)
#define OUTPUT_JSON   (1u << 1)
#define OUTPUT_JSONPLUS (1u << 2)   /* json with fio's histogram bins */
#define OUTPUT_TERSE  (1u << 3)

/* --target=scratch: iodig's own loop device on tmpfs ("./scratch" names a
 * file of that name). */
#define RUN_TARGET_SCRATCH "scratch"

struct run_opts {
	unsigned int output_format;   /* OUTPUT_* bits */
	const char *output_path;      /* NULL = stdout */
	const char *target;           /* --target: overrides every filename;
				       * RUN_TARGET_SCRATCH: the scratch device */
	bool allow_destructive;
	const char *probes;           /* --probes=SPEC (NULL = the default set) */
	bool detail;                  /* --detail: every family and hook */
	unsigned int sample_hz;       /* --sample-freq=HZ, 0 = default */
	unsigned int block_sample;    /* --block-sample=N, 0 = from the rate */
	unsigned int probe_toggle_ms; /* --probe-toggle=MS, 0 = probes stay on */
	int probe_toggle_settle_ms;   /* --probe-toggle-settle=MS, -1 = default */
	bool no_probes;
	const char *mechanism;        /* --mechanism= */
	bool bpf_stats;               /* --bpf-stats: time every BPF program */
	unsigned int stacks;          /* --stacks=N */
	int progress;                 /* -1 auto (tty), 0 off, 1 on */
	uint64_t scratch_size;        /* default target size */
	unsigned int interval_ms;     /* --interval=MS of the series, 0 = default */
	bool steady;                  /* --steady: figures of the steady state too */
	char command[256];            /* for the report */
};

/* Shared with process workers (MAP_SHARED), hence no pointers inside. */
struct run_shared {
	volatile sig_atomic_t stop;
	struct start_gate gate;       /* where new workers wait (run_group) */
	struct start_gate late_gate;  /* where wait_for's late starters wait
				       * (start_waiting) */
	struct flow_table flows;      /* flow= counters, per flow_id */
	struct worker_stats stats[];
};

/* One clone's place in a file its job's clones share (run/clone_starts.h). */
struct clone_start {
	uint64_t shift;               /* its start past region_start */
	uint64_t file_size;           /* the file's size once its setup is
				       * done: fio's real_file_size */
};

/* What fio 3.33's setup_files does with a clone (run/clone_setup.h). */
enum clone_setup {
	CLONE_SET_UP = 0,
	/* less than a block from its start to its files' end: "blocksize
	 * is larger than data set range", counted in the exit status */
	CLONE_NO_ROOM,
	/* a start past the size setup_files gives its file: "you need to
	 * specify valid offset=", counted in the exit status */
	CLONE_BAD_OFFSET,
	/* a start past the end of files already as large as filesize=
	 * allows: fio's io_size wraps, the clone does no I/O and fails
	 * nothing */
	CLONE_PAST_END,
};

/* Where each job's I/O goes, resolved before anything starts. */
struct job_target {
	char path[4096];
	struct target_info info;
	uint64_t region_start;
	uint64_t region_len;
	bool per_clone_files;         /* fio's names: files per clone */
	unsigned int nr_files;        /* files of each clone (nrfiles) */
	uint64_t file_size;           /* bytes of each */
	/* filename= or opendir= files without size=: each one's own bytes
	 * past the offset, as fio sizes them (run/listed_sizes.c); NULL
	 * when each has file_size.  With filesize=LOW-HIGH each clone's
	 * own (sizes_per_clone, run/filesize_range.c). */
	uint64_t *file_sizes;
	bool sizes_per_clone;
	unsigned int first_thread;    /* fio's thread_number of clone 0 */
	bool scratch;                 /* iodig's own scratch device */
	struct replay_log *replay;    /* read_iolog's log (run/replay_prepare.c) */
	/* offset_increment=N% or offset=N%: fio rounds each clone's start
	 * (the unaligned offset plus its increments) up to clone_align as a
	 * whole; clone_increment is the percentage's bytes.  0: bytes. */
	uint64_t clone_raw, clone_increment, clone_align;
	/* ... of a file the clones share and lay out: each clone's own, by
	 * clone number, as the clones before it left the file; NULL: the
	 * shares of one size, the target's */
	struct clone_start *clone_starts;
	/* each clone's setup, by clone number; NULL: all set up */
	enum clone_setup *clone_setups;
	/* No size: each clone's region ends where the target does (fio's
	 * real_file_size - file_offset), however far its clone starts. */
	bool to_end;
	/* filesize=: the files are filesize bytes and each clone's region
	 * ends with its file, however far offset_increment moves its start */
	bool filesize_bound;
	/* fio's setup_files fails this job alone (run/layout.h): its workers
	 * never start and report this error; the other jobs run.  0: none. */
	int setup_error;
	char setup_msg[256];
};

/* A stonewall group: jobs that run together, one after the group before. */
struct run_group {
	int id;                       /* its first job's group_id */
	int run_group;                /* the jobs' run_group */
	size_t first_job, nr_jobs;    /* in ctx->jobs */
	unsigned int first_worker, nr_workers; /* in ctx->workers */
};

struct run_ctx {
	struct run_opts opts;
	struct job_list jobs;
	struct job_target *targets;   /* one per job */
	sigset_t signals;             /* SIGINT, SIGTERM: blocked, waited for */
	int stop_signal;
	struct scratch_dev *scratch;
	struct probe_set *probes;     /* the running group's (group_probes.h) */
	struct probe_teardown *teardown; /* the last group's, being destroyed */
	struct phase_log *phases;     /* IODIG_TIMING: when each phase ended,
				       * NULL = not kept */
	struct probe_cache *probe_cache; /* kernel BTF and symbols, parsed once
				       * for all groups and repeats */
	struct report_kernel *kernels; /* each group's, once it has run */
	size_t nr_kernels;
	struct run_shared *shared;
	size_t shared_len;
	/* lockfile's locks and each locking worker's files' pointers into
	 * them (run/file_locks_setup.c) */
	struct file_lock_table file_locks;
	pthread_rwlock_t **file_lock_refs;
	size_t prio_at;               /* the workers' prio_stats, in shared */
	unsigned int nr_workers;
	struct worker *workers;
	struct disk_list disks;       /* disks whose counters are reported */
	struct io_sched_state io_sched; /* disks ioscheduler= switched, put
				       * back as each run ends */
	struct cgroup_jobs cgroups;   /* cgroup=: groups made, removed as
				       * each run ends */
	struct disk_list run_disks;   /* every job's disk, disk_util or not */
	struct disk_counters disk_before[DISK_LIST_MAX];
	struct disk_counters disk_after[DISK_LIST_MAX];
	struct progress progress;
	struct probe_toggle toggle;   /* --probe-toggle's phases */
	unsigned int untraced_workers; /* forks the probes could not follow */
	unsigned int groups_let_go;   /* this repeat's groups whose workers
				       * passed the start gate unstopped */
	pid_t first_untraced;         /* the first of them, for main's warning */
	struct series_collector series; /* latency over time, of the last run */
	struct steady_check steady;   /* fio's steadystate windows, of the last run */
};

/* Blocks SIGINT/SIGTERM so the supervisor can wait for them. */
void run_ctx_init(struct run_ctx *ctx);
/* Resolves targets (making the scratch device for --target=scratch),
 * applies the write guard, lays out files.  Nothing is written to a
 * target before this succeeds for every job. */
int run_prepare(struct run_ctx *ctx, struct errbuf *err);
/* N% of @size, as fio's size * N / 100 without its overflow. */
uint64_t percent_of(uint64_t size, unsigned int pct);
/* How much further than clone 0's region clone @clone's starts: fio's
 * get_start_offset with offset_increment (bytes, or N% of the target). */
uint64_t target_clone_shift(const struct job *job, const struct job_target *t,
			    unsigned int clone);
/* Whether clone @clone has at least a block from its start to its files'
 * end, when its region ends with them (no size=, or filesize=): fio's
 * setup_files sets up no clone with less. */
bool target_clone_has_room(const struct job *job, const struct job_target *t,
			   unsigned int clone);
/* Whether @t's clones have regions that end with their files (filesize=,
 * or no size on a file there), which fio sets up one by one and fails
 * alone where one has no block left (run/clone_setup.h). */
bool clones_fail_alone(const struct job *job, const struct job_target *t);
/*
 * A run: run_begin() maps the workers' stats and reads the disks' counters,
 * then each stonewall group in order (run_group_next()) runs with
 * run_group_execute(), which returns 0 also when interrupted; run_end()
 * reads the counters again.
 */
int run_begin(struct run_ctx *ctx, struct errbuf *err);
/* The group after @g (start from a zeroed one); false after the last.
 * Needs only the jobs, so it also works before run_begin(). */
bool run_group_next(const struct run_ctx *ctx, struct run_group *g);
/* More than one stonewall group: kernel figures are kept per group. */
bool run_has_groups(const struct run_ctx *ctx);
int run_group_execute(struct run_ctx *ctx, const struct run_group *g, struct errbuf *err);
void run_end(struct run_ctx *ctx, struct errbuf *err);
/* Builds the report from the workers' stats. */
int run_build_report(struct run_ctx *ctx, struct report *rep,
		     struct errbuf *err);
void report_free(struct report *rep);
/* True (and records the signal) when SIGINT/SIGTERM is pending. */
bool run_signal_pending(struct run_ctx *ctx);
void run_ctx_cleanup(struct run_ctx *ctx);

#endif /* IODIG_RUN_H */
