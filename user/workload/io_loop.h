/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One worker's I/O loop (workload/io_loop.c, with io_loop_fill.c,
 * io_loop_complete.c and io_loop_sync.c): the state it keeps while it
 * fills units, hands them to the engine, reaps and accounts them; and the
 * few steps of it the worker's life (workload/worker.c) calls.  Internal
 * to the workload layer.
 */
#ifndef IODIG_WORKLOAD_IO_LOOP_H
#define IODIG_WORKLOAD_IO_LOOP_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>

#include "workload/buffers.h"
#include "workload/counters.h"
#include "workload/file_service.h"
#include "workload/flow.h"
#include "workload/io_trace.h"
#include "workload/iolog_writer.h"
#include "workload/lat_target.h"
#include "workload/pacing.h"
#include "workload/replay_run.h"
#include "workload/verify_run.h"
#include "workload/file_sync.h"
#include "workload/worker.h"

struct io_loop {
	struct worker *w;
	const struct engine_ops *engine; /* the job's, or offload's threads */
	struct io_unit *free_list;
	struct io_unit *retry;    /* filled, refused by queue() (IO_BUSY) */
	unsigned int queued;      /* held by the engine, not yet committed */
	unsigned int inflight;    /* committed, not yet reaped */
	uint64_t issued_bytes;
	/* A job's loops= share one budget (worker.c's run_loops):
	 * what this loop may issue, and its bytes the engine queued rather
	 * than did at once, which alone cap a loop at size. */
	bool shared_budget;
	uint64_t loop_budget;
	uint64_t queued_bytes;
	/* io_size past the region with loops=: the earlier loops' bytes, and
	 * whether this loop is the last, the only one that wraps */
	uint64_t spent_bytes;
	bool last_loop;
	uint64_t issued_ios;      /* all loops', for number_ios */
	bool exhausted;           /* no offset left (fio's files done) */
	uint64_t backlog_bytes;   /* of those, verify_backlog reads */
	uint64_t ramp_end_ns;
	uint64_t deadline_ns;     /* 0 = none */
	bool accounting;          /* past ramp_time */
	uint64_t measured_end_ns; /* where the last accounted phase ended */
	struct buffers bufs;      /* what writes carry */
	bool verify;              /* verify= is on: vr is set up */
	bool verify_phase;        /* reading back the log (fio's do_verify) */
	bool full;                /* fill_device: a write found no room */
	struct verify_run vr;
	struct file_picker fs;   /* several files (w->fds), file ops' files */
	struct open_files open;  /* openfiles below them (fs.of) */
	enum ddir held_ddir;     /* drawn for a fill fio's EBUSY put off */
	bool ddir_held;          /* held_ddir is for the fill after a new
				  * loop's sync (sync_first) */
	/* a fill began a new loop with a sync due: it gave its unit back,
	 * as fio's first get_io_u of a loop is that sync (get_rw_ddir) */
	bool sync_first;
	bool file_done;          /* the one file found done: fio closed it */
	struct rusage ru_start;
	struct worker_counters counters; /* w->count_events */
	struct iolog_writer logs;  /* fio's log files (write_*_log) */
	struct io_trace trace;     /* fio's write_iolog */
	struct frand_base seed_base; /* where the generators are seeded from */
	bool pacing;              /* rate or thinktime options given */
	bool think_pending;       /* a think is due: taken at the next pass's top */
	bool paced;               /* the last issue waited for the rate */
	struct pacing pace;
	struct flow_state flow;   /* flow=: the job's share of its flow_id */
	struct replay_cursor replay; /* read_iolog: where the log is */
	struct file_sync sync;    /* fsync=, fdatasync= */
	struct lat_target lat;    /* latency_target's depth search */
	bool lat_done;            /* its final window ended */
	uint64_t clock_ns;        /* the loop's time, 0: read the clock (io_loop.c) */
	uint64_t issue_clock_ns;  /* the last I/O's start: the runtime check within a queue's worth */
	int error;
};

/* The worker's first error, kept in its shared stats (the report shows
 * it); returns @ret. */
int worker_fail(struct worker *w, int ret, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Asked to stop: by the runner, or by the worker's own stats (exitall). */
bool worker_stopped(const struct worker *w);
void worker_sleep_ns(uint64_t ns);

/* The job's I/O (or with verify_phase its read back) until size, runtime
 * or a stop; 0 or the worker's error. */
int io_loop_run(struct io_loop *lp);
/* @u filled with the next I/O; false when none is left. */
bool io_loop_fill_unit(struct io_loop *lp, struct io_unit *u);
/* More I/O to issue at @now (size, number_ios, runtime, verify limits). */
bool io_loop_more(const struct io_loop *lp, uint64_t now);
/* Statistics from @now on: ramp_time is over. */
void io_loop_start_accounting(struct io_loop *lp, uint64_t now);
/* The write buffers filled once before any I/O, as fio does. */
void io_loop_fill_initial_buffers(struct io_loop *lp);

/* A new pass over the file (loops=, io_size beyond the region): fio's
 * clear_io_state.  Called before the loop's counts are reset. */
void io_loop_new_pass(struct io_loop *lp);
/* A new pass that is a new loop of fio's thread_main (loops=, or
 * io_size beyond the region): a mixed job's run of one direction ends
 * there too. */
void io_loop_new_loop(struct io_loop *lp);
/* fio's close_files before a new loop or the verify phase: every file
 * logged closed, and opened again (below openfiles they open as
 * picked). */
void io_loop_reopen_files(struct io_loop *lp);

#endif /* IODIG_WORKLOAD_IO_LOOP_H */
