/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A worker's walk through its read_iolog log (workload/replay_log.h):
 * each I/O in the log's order, at the log's pace unless replay_no_stall,
 * as fio's read_iolog_get.  The files are opened once, before the walk,
 * so the log's add, open and close lines only pace it.
 *
 * The pace is fio 3.33's iolog_delay: an entry's gap counts from when
 * the I/O before it was issued (replay_cursor_issued), less what the
 * last wait overran; fio's usec_sleep spins a wait shorter than
 * nanosleep's granularity (measured at the start, as fio measures it)
 * and spins the last granularity of a longer one.  The I/O in flight
 * is not reaped while waiting, as in fio 3.33: with gaps of a few
 * microseconds the queue stays full instead of the worker sleeping
 * through each gap.
 */
#ifndef IODIG_REPLAY_RUN_H
#define IODIG_REPLAY_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "workload/engine.h"
#include "workload/replay_log.h"

struct worker;

struct replay_cursor {
	const struct replay_log *log;
	size_t next;            /* the entry to take next */
	uint64_t start_ns;      /* version 2 waits count from here */
	uint64_t last_issue_ns; /* fio's last_issue: the I/O before was issued */
	uint64_t late_ns;       /* fio's time_offset: the last wait's overrun */
	uint64_t granularity_ns; /* the longest a 1 us nanosleep took */
};

/* Starts the walk at @now; measures nanosleep's granularity, as fio
 * does when it starts: ten sleeps of 1 us, about half a millisecond on
 * an idle CPU, a few milliseconds each on a busy one (the longer, the
 * more of the log's gaps are spun, as in fio on the same machine). */
void replay_cursor_start(struct replay_cursor *c, const struct replay_log *log,
			 uint64_t now);
/* The engine took an I/O of the log at @now: for a queue, when it was
 * submitted (fio's libaio and io_uring stamp their commit), for a
 * synchronous engine, when it was handed over. */
void replay_cursor_issued(struct replay_cursor *c, uint64_t now);
/*
 * Waits out the next entries' delays (until @deadline_ns, 0: none, or the
 * worker's stop) and fills @u's ddir, offset, len, file and fd from the
 * next read or write: 1.  A sync on the way is @sync(@arg, file,
 * datasync)'s, which completes the I/O in flight first, as fio's engines
 * hold a sync back until their queue is empty.  0: the log is done or the
 * job stopped; -errno: a sync failed.
 */
int replay_cursor_next(struct replay_cursor *c, const struct worker *w,
		       uint64_t deadline_ns, struct io_unit *u,
		       int (*sync)(void *arg, unsigned int file, bool datasync),
		       void *arg);

#endif /* IODIG_REPLAY_RUN_H */
