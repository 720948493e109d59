/* SPDX-License-Identifier: GPL-2.0 */
/* One running instance of a job (numjobs makes several). */
#ifndef IODIG_WORKER_H
#define IODIG_WORKER_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/clock.h"
#include "workload/buflen.h"
#include "workload/cgroup_place.h"
#include "workload/engine.h"
#include "workload/flow.h"
#include "workload/io_mem.h"
#include "workload/job.h"
#include "workload/offsets.h"
#include "workload/overlap.h"
#include "workload/prio_stats.h"
#include "workload/replay_log.h"
#include "workload/rwmix.h"
#include "workload/start_gate.h"
#include "base/rng.h"
#include "workload/stats.h"
#include "workload/zbd.h"

struct worker {
	const struct job *job;
	unsigned int job_index;     /* index in the job list */
	unsigned int clone_index;   /* 0..numjobs-1 */
	unsigned int thread_number; /* fio's: 1.. over all jobs and clones */
	unsigned int nr_threads;    /* of all jobs and clones */
	unsigned int index;         /* in the run's workers, fio's thread
				     * number - 1 (cpus_allowed_policy=split) */

	/* The target, opened by the runner before engine init. */
	int fd;
	char path[4096];
	uint64_t region_start;      /* job offset */
	uint64_t region_len;        /* bytes of the region I/O goes to */
	uint64_t io_limit;          /* bytes to transfer when not time_based */
	uint64_t target_len;        /* from region_start to the file's end */
	/* The job's files (workload/files.h): path is the first; engines
	 * that take several reach file k at offset region_start + k *
	 * file_size of the region. */
	unsigned int nr_files;
	uint64_t file_size;
	/* Listed files of their own sizes (no size=): file k's bytes; NULL
	 * when each has file_size.  Owned by the runner's job_target. */
	const uint64_t *file_sizes;
	/* ENGINE_UNIT_FD with several files: each one's descriptor, file k
	 * at fds[k] (fds[0] is fd); NULL with one file. */
	int *fds;
	int open_flags;          /* what fds were opened with (reopens) */
	/* lockfile: the lock of file k (workload/file_lock.h), shared with
	 * every worker on a file of that name; NULL without lockfile. */
	pthread_rwlock_t **file_locks;

	/* iodepth units with buffers of max(bs) bytes each, one after the
	 * other as fio lays them out in the memory mem= asks for, one
	 * contiguous area so io_uring can register it as fixed buffers. */
	struct io_unit *units;
	unsigned int nr_units;
	struct io_unit **reaped;   /* what the engine's getevents() returned */
	struct io_mem mem;
	void *buf_area;            /* the first buffer */
	size_t buf_unit_size;
	size_t buf_area_size;

	void *engine_data;
	/* Units the engine took and will never complete: fio's vsync drops
	 * the completions of a commit not reaped before the next one. */
	unsigned int units_lost;
	struct worker_stats *stats; /* in shared memory */
	struct prio_stats *prio;    /* its latency per priority (shared) */
	struct flow_counter *flow;  /* the job's flow (shared); NULL: none */
	/* serialize_overlap with offload: the board of every such job
	 * (shared) and the first of this worker's iodepth slots in it. */
	struct overlap_board *overlap;
	unsigned int overlap_first;

	struct rng rng;
	struct offsets offsets;      /* where each I/O goes */
	struct buflen_gen buflen;    /* how long each is */
	struct rwmix rwmix;          /* which way, in a mixed job */
	int trim_kind;               /* workload/trim.c's: 0 = not yet known */

	/* read_iolog: the log the worker replays instead of the job's own
	 * I/O (workload/replay_run.h); NULL for any other job. */
	const struct replay_log *replay;
	struct zbd zbd;              /* zonemode=zbd's zones */
	/* cgroup=: the group the worker moves itself into; NULL: none */
	const struct cgroup_place *cgroup;

	/* Where it waits before its set-up; once open, says whether it
	 * counts the kernel's events on itself (workload/counters.h). */
	struct start_gate *gate;

	/* Set by the runner (signal or deadline); workers poll it. */
	volatile sig_atomic_t *stop;
};


/* The body of one worker (thread or process): runs @arg, a struct
 * worker, until its job is done or *stop is set. */
void *worker_main(void *arg);

/* Whether a pass over the job's files may be followed by another (fio's
 * keep_running): time_based, or an io_size beyond size and the files. */
bool worker_passes_repeat(const struct worker *w);

/* No loop nor pass follows the one under way (time_based wraps within
 * it), as in fio 3.33: a job that reads only, with verify=, or one whose
 * engine lost units (worker.c says why). */
bool worker_no_more_loops(const struct worker *w);

#endif /* IODIG_WORKER_H */
