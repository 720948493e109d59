/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Non-uniform random offsets, fio 3.33's algorithms (lib/zipf.c,
 * lib/gauss.c, io_u.c's zoned distributions): zipf and pareto over the
 * region's blocks with fio's hash spreading the hot ones, normal as fio's
 * sum of twelve draws, zoned and zoned_abs as a zone picked by access
 * percentage and a uniform block in it.  The draws come from fio's
 * generator but not from fio's seed (fio hashes the file name into it),
 * so the distribution is fio's and the exact sequence is not.  sequence
 * (fio after 3.33) is no draw at all: the job's Nth I/O of a direction
 * goes to the pattern's (N mod length)th block, with random_sequence_stride
 * plus the length times the rounds done.
 */
#ifndef IODIG_RANDOM_DIST_H
#define IODIG_RANDOM_DIST_H

#include <stdint.h>

#include "workload/fio_rand.h"
#include "workload/job.h"

struct random_dist {
	const struct rand_dist_opts *opts;
	struct frand rand;      /* zipf, pareto, normal: their own draws */
	struct frand zone;      /* zoned: which zone */
	uint64_t nranges;       /* blocks of the smallest block size */
	uint64_t rand_off;
	double zetan, zeta2, pareto_pow;
	uint64_t stddev;
	bool stride;            /* sequence: random_sequence_stride */
};

void random_dist_init(struct random_dist *r, const struct job *job,
		      uint64_t region_len, struct frand_base seed_base,
		      unsigned int thread_number);

/* zipf, pareto, normal: the next block (of nranges); zoned: the first
 * block and the count of blocks of the zone picked, of @lastb blocks of
 * direction @d's alignment @align. */
uint64_t random_dist_block(struct random_dist *r);
void random_dist_zone(struct random_dist *r, enum ddir d, uint64_t lastb,
		      uint32_t align, uint64_t *first, uint64_t *count);

/* sequence: the block of the I/O numbered @nth (from 0) in its direction,
 * of @max_blocks; 0, 1 when past the end (the job is done), -EINVAL when the
 * pattern itself names a block past the end (fio's error). */
int random_dist_sequence(const struct random_dist *r, uint64_t nth,
			 uint64_t max_blocks, uint64_t *block);

#endif /* IODIG_RANDOM_DIST_H */
