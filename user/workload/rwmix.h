/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The direction of each I/O of a mixed job (rw, readwrite, randrw), as
 * fio 3.33's get_rw_ddir picks it: in runs, not I/O by I/O.  A new
 * direction is drawn (1-100 against rwmixread, from the job's mix
 * generator) only once the current one has issued as many I/Os as the
 * run allows; a change of direction sets that allowance to the old
 * direction's issued I/Os times the new one's share.  Counting issues,
 * not bytes, is fio's choice: buffered writes are issued faster than
 * they complete.
 */
#ifndef IODIG_RWMIX_H
#define IODIG_RWMIX_H

#include <stdbool.h>
#include <stdint.h>

#include "workload/fio_rand.h"
#include "workload/job.h"

struct rwmix {
	struct frand state;      /* fio's rwmix_state, always taus88 */
	uint64_t seed;
	unsigned int read_pct;
	enum ddir ddir;          /* fio's rwmix_ddir: reads at first */
	uint64_t run_until;      /* fio's rwmix_issues */
	uint64_t issued[2];      /* fio's io_issues of reads and writes */
};

void rwmix_init(struct rwmix *m, const struct job *job, struct frand_base seed_base,
		unsigned int thread_number);

/* The direction of the next I/O. */
enum ddir rwmix_next(struct rwmix *m);

/* A direction's share of the mix in percent (fio's rwmix[]). */
static inline unsigned int rwmix_share(const struct rwmix *m, enum ddir d)
{
	return d == DDIR_READ ? m->read_pct : 100 - m->read_pct;
}

/* The rate sent the I/O the other way (fio's rate_ddir): the run goes
 * on in direction @d. */
static inline void rwmix_redirect(struct rwmix *m, enum ddir d)
{
	m->ddir = d;
}

/* An I/O of @d went to the engine (fio counts it when queued). */
static inline void rwmix_issued(struct rwmix *m, enum ddir d)
{
	if (d <= DDIR_WRITE)
		m->issued[d]++;
}

/* A new loop over the job (fio's clear_io_state): the run ends, and
 * with @reseed (randrepeat) the draws start over; the issue counts go on. */
void rwmix_new_loop(struct rwmix *m, bool reseed);

/* The end of ramp_time, or latency_target's final window (fio's
 * reset_all_stats): the issue counts start again from zero. */
void rwmix_reset_counts(struct rwmix *m);

#endif /* IODIG_RWMIX_H */
