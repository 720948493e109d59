/* SPDX-License-Identifier: GPL-2.0 */
/* Deterministic random numbers and the offset sequence of a worker. */
#ifndef IODIG_RNG_H
#define IODIG_RNG_H

#include <stdbool.h>
#include <stdint.h>

struct rng {
	uint64_t s[4]; /* xoshiro256** state */
};

void rng_seed(struct rng *r, uint64_t seed);
uint64_t rng_next(struct rng *r);
/* Uniform in [0, bound), bound > 0, without modulo bias. */
uint64_t rng_below(struct rng *r, uint64_t bound);

/*
 * Offsets of one worker's region in blocks of @block bytes.  Sequential
 * wraps around; random with a map visits every block once per pass (fio's
 * default), norandommap draws blocks independently.
 */
struct offset_gen {
	bool random;
	bool use_map;
	uint64_t nblocks;
	uint64_t next;          /* sequential cursor */
	uint64_t *map;          /* one bit per block, set = used this pass */
	uint64_t used;          /* blocks used this pass */
};

int offset_gen_init(struct offset_gen *g, uint64_t nblocks, bool random,
		    bool use_map);
/* Next block index; never fails (a new pass starts when all are used). */
uint64_t offset_gen_next(struct offset_gen *g, struct rng *r);
void offset_gen_free(struct offset_gen *g);

#endif /* IODIG_RNG_H */
