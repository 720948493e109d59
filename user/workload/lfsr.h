/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's random_generator=lfsr: a maximal-length linear feedback shift
 * register over the fewest bits that number every block, its states
 * above the block count skipped, so that each block comes exactly once
 * per cycle, in an order that is not sequential, with no map of the
 * blocks done.
 */
#ifndef IODIG_LFSR_H
#define IODIG_LFSR_H

#include <stdbool.h>
#include <stdint.h>

struct lfsr {
	uint64_t blocks;     /* values are 0 .. blocks - 1 */
	uint64_t mask;       /* the register's bits */
	uint64_t taps;       /* feedback bits */
	uint64_t start;      /* the first state, 1 .. mask */
	uint64_t state;
	uint64_t left;       /* values still to come this cycle */
};

/* Up to 2^63 blocks; @seed picks where in the cycle it starts. */
void lfsr_init(struct lfsr *l, uint64_t blocks, uint64_t seed);
/* The next block; false once every block came (lfsr_reset starts the
 * same cycle again). */
bool lfsr_next(struct lfsr *l, uint64_t *block);
void lfsr_reset(struct lfsr *l);

/* The register's width for @blocks and the period it has: for tests. */
unsigned int lfsr_width(uint64_t blocks);
uint64_t lfsr_period(unsigned int width, uint64_t limit);

#endif /* IODIG_LFSR_H */
