/* SPDX-License-Identifier: GPL-2.0 */
/*
 * When a worker may issue its next I/O, after fio 3.33: rate and
 * rate_iops per direction (linear, or poisson arrivals), the rate_min /
 * rate_iops_min check each rate_cycle, and thinktime every
 * thinktime_blocks issued or completed I/Os or thinktime_iotime of I/O.
 */
#ifndef IODIG_PACING_H
#define IODIG_PACING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/fio_rand.h"
#include "workload/job.h"

struct pacing {
	const struct job *job;
	uint64_t bps[DDIR_COUNT];       /* rate, or rate_iops * min bs */
	uint64_t start_ns;
	uint64_t issued[DDIR_COUNT];    /* bytes since start */
	uint64_t next_ns[DDIR_COUNT];   /* poisson: the next arrival */
	struct frand poisson[DDIR_COUNT];
	uint64_t cycle_ns;              /* start of the rate_min cycle */
	uint64_t cycle_bytes[DDIR_COUNT], cycle_ios[DDIR_COUNT];
	uint64_t think_count;           /* I/Os toward thinktime_blocks */
	uint64_t think_last;            /* think_count at the last think */
	uint64_t last_think_ns;         /* start of the last think, or of the job */
	enum ddir last_ddir;            /* of the last I/O issued */
	uint64_t granularity_ns;        /* nanosleep's, measured when thinktime is set */
};

void pacing_init(struct pacing *p, const struct job *job, struct frand_base seed_base,
		 unsigned int thread_number);
void pacing_start(struct pacing *p, uint64_t now);
bool pacing_active(const struct job *job);

/* Nanoseconds to wait before an I/O of @d may be issued at @now. */
uint64_t pacing_delay(struct pacing *p, enum ddir d, uint64_t now);
void pacing_issued(struct pacing *p, enum ddir d, uint32_t len);
/* A rate is set for reads or writes. */
bool pacing_rated(const struct pacing *p);
/* The direction a mixed job's I/O takes at @now for rate= (fio's
 * rate_ddir): @d while it is within its rate, else the other one if
 * that is due sooner; the caller waits for the one returned. */
enum ddir pacing_pick_ddir(struct pacing *p, enum ddir d, uint64_t now);
/* An I/O completed; with rate_min, false (reason in @why) when a cycle
 * ended below the minimum. */
bool pacing_completed(struct pacing *p, enum ddir d, uint32_t len,
		      uint64_t now, char *why, size_t len_why);
/* thinktime_blocks' count: an I/O was issued (@on_issue) or completed;
 * only the kind thinktime_blocks_type names counts. */
void pacing_think_count(struct pacing *p, bool on_issue);
/* thinktime, asked where fio 3.33's do_io asks it: after each I/O is
 * issued and whatever reap a full queue needed.  True when
 * thinktime_iotime has passed or thinktime_blocks were counted since the
 * last think.  The count is taken now, before the caller reaps what is
 * in flight for the think (fio's last_thinktime_blocks), so those
 * completions count toward the next one: at depth 8 with thinktime_blocks
 * 1, fio thinks after every I/O once the queue first filled. */
bool pacing_think_due(struct pacing *p);
/* The pause, fio's: spin thinktime_spin, then wait the rest of thinktime
 * as fio's usec_sleep (base/fine_sleep.h), so a thinktime shorter than
 * nanosleep's granularity is spun, not overrun by the timer slack; the
 * wait ends early when @stopped(@arg).  With rate_ignore_thinktime, what
 * the rate would have issued meanwhile in the last I/O's direction
 * counts as issued. */
void pacing_think(struct pacing *p, bool (*stopped)(const void *arg), const void *arg);

#endif /* IODIG_PACING_H */
