/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The length of each I/O, after fio 3.33's get_next_buflen: a fixed block
 * size, a bsrange drawn from fio's generator and rounded down to the
 * smallest size, or bssplit's sizes by their percentages.
 */
#ifndef IODIG_BUFLEN_H
#define IODIG_BUFLEN_H

#include <stdint.h>

#include "workload/fio_rand.h"
#include "workload/job.h"

struct buflen_gen {
	const struct job *job;
	struct frand state[DDIR_COUNT]; /* fio's bsrange_state */
};

void buflen_init(struct buflen_gen *g, const struct job *job,
		 struct frand_base seed_base, unsigned int thread_number);

/* A length for an I/O of direction @d with @room bytes left before the
 * region's end, @random when its offset was drawn at random (what
 * bs_is_seq_rand goes by); 0 when not even the smallest size fits. */
uint32_t buflen_next(struct buflen_gen *g, enum ddir d, uint64_t room,
		     bool random);

#endif /* IODIG_BUFLEN_H */
