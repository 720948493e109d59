/* SPDX-License-Identifier: GPL-2.0 */
/* Deterministic random numbers (offsets follow fio's: workload/offsets.h). */
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

#endif /* IODIG_RNG_H */
