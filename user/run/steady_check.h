/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The supervisor's side of fio's steady-state detection: every check
 * interval it takes each watched window's IOPS and bandwidth from its
 * workers' cumulative counters and, once the criterion holds
 * (workload/steady.h), stops those workers; the job then ends as at its
 * runtime.  As in fio, a window is a worker's own, or under
 * group_reporting its reporting group's, held by the group's last worker.
 */
#ifndef IODIG_STEADY_CHECK_H
#define IODIG_STEADY_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include "base/errbuf.h"
#include "workload/steady.h"
#include "workload/worker.h"

/* A worker's counters at its last sample. */
struct steady_member {
	uint64_t prev_ns, prev_ios, prev_bytes;
	double prev_clat_ns;            /* the sum of every I/O's clat */
	uint64_t prev_clat_n;
};

struct steady_check {
	unsigned int nr;                /* workers of the run */
	struct steady_state *state;     /* per worker; n = 0: holds no window */
	struct steady_member *member;   /* per worker */
	uint64_t *next_ns;              /* per window holder: its next sample */
};

/* Windows for the run's workers @w (@nr): 0, or -ENOMEM in @err. */
int steady_check_begin(struct steady_check *c, const struct worker *w, unsigned int nr,
		       struct errbuf *err);
/* Samples the windows of the group's workers @w (@nr, the run's from
 * @w[0].index on) that are due at @now. */
void steady_check_tick(struct steady_check *c, const struct worker *w, unsigned int nr,
		       uint64_t now);
/* When the group's next sample is due (0: none). */
uint64_t steady_check_due(const struct steady_check *c, const struct worker *w,
			  unsigned int nr);
/* The window worker @index holds, NULL when none. */
const struct steady_state *steady_check_window(const struct steady_check *c,
					       unsigned int index);
void steady_check_free(struct steady_check *c);

#endif /* IODIG_STEADY_CHECK_H */
