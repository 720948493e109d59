/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's random sources for buffer contents and verify seeds: the combined
 * Tausworthe generators of L'Ecuyer (taus88, 32-bit, fio's default, and
 * taus258, 64-bit), seeded from randseed and the job's thread number as
 * fio 3.33 seeds them, and fio's way of turning one 64-bit seed into a
 * buffer of bytes.  With them a block iodig writes carries the seed, and
 * the bytes, fio would write for the same job.
 */
#ifndef IODIG_FIO_RAND_H
#define IODIG_FIO_RAND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/pattern.h"

struct frand {
	bool use64;
	uint32_t s32[3];
	uint64_t s64[5];
};

/* Indexes of fio 3.33's per-purpose seeds (its FIO_RAND_*_OFF). */
enum frand_purpose {
	FRAND_BS_READ = 0,
	FRAND_BS_WRITE = 1,
	FRAND_BS_TRIM = 2,
	FRAND_VERIFY = 3,
	FRAND_MIX = 4,
	FRAND_FILE = 5,
	FRAND_BLOCK = 6,
	FRAND_FILE_SIZE = 7,
	FRAND_SEQ_RAND_READ = 10,
	FRAND_START_DELAY = 13,
	FRAND_BUF = 9,
	FRAND_DEDUPE = 14,
	FRAND_POISSON = 15,
	FRAND_ZONE = 16,
	FRAND_DEDUPE_WORKING_SET = 20,
	FRAND_SPRANDOM = 22, /* fio after 3.33 */
};

/* fio's FIO_RANDSEED: allrandrepeat's seeds, and a randrepeat job's
 * offsets, come from it whatever randseed says. */
#define FIO_RANDSEED 0xb1899bedULL

/* Where a job's generators are seeded from, as fio 3.33's
 * setup_random_seeds: randseed (with randrepeat, fio's default, or when
 * randseed is given), a random one otherwise; allrandrepeat instead
 * seeds each generator from FIO_RANDSEED, whatever randseed says. */
struct frand_base {
	uint64_t randseed;
	bool allrand;
	/* A clone (numjobs) of a job given randseed: fio 3.33 seeds its
	 * offsets as with randrepeat=0 (from randseed, not FIO_RANDSEED). */
	bool seeded_clone;
};
#define FRAND_BASE(seed) ((struct frand_base){ .randseed = (seed) })

/* The seed fio gives generator @purpose of the job numbered
 * @thread_number (1 for the first job of the file, clones following
 * their job), from @base. */
uint64_t frand_job_seed(struct frand_base base, unsigned int thread_number,
			enum frand_purpose purpose);

void frand_seed(struct frand *r, uint64_t seed, bool use64);
uint64_t frand_next(struct frand *r);
/* A 64-bit buffer seed: two draws multiplied, as fio does on 64-bit. */
uint64_t frand_buf_seed(struct frand *r);
/* Uniform in [lo, hi], fio's rand_between(). */
unsigned int frand_between(struct frand *r, unsigned int lo, unsigned int hi);

/* @len bytes from @seed (fio's __fill_random_buf). */
void frand_fill(void *buf, size_t len, uint64_t seed);

/* fio's __fill_random_buf_percentage: per @segment bytes, the first
 * (100 - @pct)% random from @seed, the rest @p repeated (zeros without a
 * pattern); @pct 100 is all pattern or zeros. */
void frand_fill_compressible(void *buf, size_t len, uint64_t seed,
			     unsigned int pct, size_t segment,
			     const struct pattern *p);

#endif /* IODIG_FIO_RAND_H */
