/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's random_generator=lfsr (its lib/lfsr.c, spin 0): a maximal-length
 * Galois register in XNOR form over the fewest bits (3 to 63) whose
 * states outnumber the blocks, its states past the last block skipped,
 * so that each block comes exactly once per cycle, in the order fio's
 * comes, with no map of the blocks done.
 */
#ifndef IODIG_LFSR_H
#define IODIG_LFSR_H

#include <stdbool.h>
#include <stdint.h>

struct lfsr {
	uint64_t blocks;     /* values are 0 .. blocks - 1 */
	uint64_t mask;       /* the register's bits; all ones is no state */
	uint64_t top;        /* the bit shifted in at the top */
	uint64_t taps;       /* the bits flipped when a 0 is shifted out */
	uint64_t start;      /* the state the seed gives */
	uint64_t state;
	uint64_t left;       /* values still to come this cycle */
	bool first_twice;    /* the first value after lfsr_init steps twice */
};

/* Up to 2^63 - 1 blocks; @seed's low bits are the first state, as fio
 * takes them: -EINVAL for no blocks, too many, or a seed whose bits are
 * all ones (fio: "failed initializing LFSR"). */
int lfsr_init(struct lfsr *l, uint64_t blocks, uint64_t seed);
/* The next block; false once every block came (lfsr_reset starts the
 * cycle again from the seed's state). */
bool lfsr_next(struct lfsr *l, uint64_t *block);
void lfsr_reset(struct lfsr *l);

/* The register's width for @blocks (0: none fits) and the period it has:
 * for tests. */
unsigned int lfsr_width(uint64_t blocks);
uint64_t lfsr_period(unsigned int width, uint64_t limit);

#endif /* IODIG_LFSR_H */
