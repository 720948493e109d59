/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's sprandom (SanDisk's random preconditioning, in fio after 3.33;
 * fio 3.41 has it): random writes that leave a flash device in the state of
 * its steady state, regions of it holding more or less valid data, in
 * one pass of about the device's physical size instead of many passes.
 *
 * The model (P. Desnoyers, "Analytic Models of SSD Write Performance",
 * ACM ToS 8(2), 2012): with over-provisioning op, greedy garbage
 * collection gives a write amplification of about 0.5 / op + 0.7, the
 * block it reclaims is 1 - 1 / WA valid, and validity times the space
 * of such blocks is constant.  That curve, resampled at equal-sized
 * regions, says how much of each region's data later writes invalidate.
 *
 * The writes: the logical size plus op, rounded up to the block size,
 * cut into spr_num_regions regions of equal writes.  Each region's
 * writes are new blocks of random_generator=lfsr's cycle, except that
 * the next region starts by writing again (so invalidating) each block
 * the previous region drew for it with the region's probability of
 * invalid data; rewritten blocks may be drawn again.
 */
#ifndef IODIG_SPRANDOM_H
#define IODIG_SPRANDOM_H

#include <stdint.h>

#include "workload/fio_rand.h"
#include "workload/job.h"
#include "workload/lfsr.h"

/* Blocks drawn for rewriting: one region's, popped in order, and the
 * next region's, appended to. */
struct spr_list {
	uint64_t *block;
	uint64_t len, cap, next;
};

struct sprandom {
	unsigned int regions;       /* 0: off */
	unsigned int region;        /* the current one; past the last the
				     * model's last (all valid) */
	uint32_t *invalid;          /* per region, of SPR_SCALE */
	uint64_t region_writes;     /* fio's region_write_count */
	uint64_t writes_left;       /* new blocks still due this region */
	uint64_t io_size;           /* bytes: the physical size */
	struct spr_list rewrite;    /* this region's rewrites */
	struct spr_list drawn;      /* the next region's */
	struct frand rand;
};

#define SPR_SCALE 10000u /* invalid shares in 1/10000 */

/* fio's physical size: @logical plus @op of it, rounded up to @bs. */
uint64_t sprandom_physical_size(double op, uint64_t logical, uint32_t bs);

/* Each region's share of invalid data, in SPR_SCALE, into @out[regions]
 * (fio's compute_validity_dist, reversed: the least valid first). */
int sprandom_invalid_shares(unsigned int regions, double op, uint32_t *out);

/* For @job's writes over @logical bytes; @seed: fio's sprandom seed. */
int sprandom_init(struct sprandom *s, const struct job *job,
		  uint64_t logical, uint64_t seed);

/* The next block to write, new ones from @lfsr: 1, or 0 once the
 * regions or the cycle are done, or -ENOMEM. */
int sprandom_next(struct sprandom *s, struct lfsr *lfsr, uint64_t *block);

void sprandom_free(struct sprandom *s);

#endif /* IODIG_SPRANDOM_H */
