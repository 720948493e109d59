/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Non-uniform random offsets, fio 3.33's algorithms (lib/zipf.c,
 * lib/gauss.c, io_u.c's zoned distributions): zipf and pareto over the
 * region's blocks with fio's hash spreading the hot ones, normal as fio's
 * sum of twelve draws, zoned and zoned_abs as a zone picked by access
 * percentage and a uniform block in it.  zipf, pareto and normal draw
 * from a generator of each file's own, seeded as fio 3.33 seeds it: from
 * the hash of fio's name of the file times the job's number, or with
 * randrepeat off (or randseed given) from the random offsets' seed, so
 * the blocks come in fio's order.  sequence
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
	uint64_t rand_off;      /* where the hot blocks start */
	double zetan, zeta2, pareto_pow;
	unsigned int stddev;
	bool stride;            /* sequence: random_sequence_stride */
	uint64_t job_seed;      /* randrepeat off: every file's seed, fio's
				 * block seed (the random offsets') */
	bool repeatable;        /* else: seeded from the file's name */
};

void random_dist_init(struct random_dist *r, const struct job *job,
		      uint64_t region_len, struct frand_base seed_base,
		      unsigned int thread_number, uint64_t block_seed);

/* zipf, pareto, normal: seeds @r for the file fio names @fio_name (fio's
 * f->file_name: "j.0.0", "dir/j.0.0", filename= as given under
 * directory=), as fio's __init_rand_distribution does per file. */
void random_dist_seed_file(struct random_dist *r, const char *fio_name,
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
