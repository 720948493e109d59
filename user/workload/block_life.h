/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's block_error_percentiles (its block_error_hist, stat.c's "block
 * lifetime percentiles"): the job's region in blocks of the trim block
 * size, each with the trims it took and its state, for flash whose blocks
 * wear out: how many erase cycles did the blocks last.
 */
#ifndef IODIG_BLOCK_LIFE_H
#define IODIG_BLOCK_LIFE_H

#include <stdint.h>

#include "workload/job.h"

#define BLOCK_LIFE_MAX 8192u /* fio's MAX_NR_BLOCK_INFOS */

/* fio's enum block_info_state, in its order (the report's too). */
enum block_life_state {
	BLOCK_UNWRITTEN,
	BLOCK_TRIMMED,
	BLOCK_WRITTEN,
	BLOCK_TRIM_FAILURE,
	BLOCK_WRITE_FAILURE,
	BLOCK_STATES,
};

/* fio's names of the states, "unwritten" ... "write failure". */
extern const char *const block_state_names[BLOCK_STATES];

struct block_life {
	uint32_t nr;                     /* 0: not kept */
	uint32_t trims[BLOCK_LIFE_MAX];
	uint8_t state[BLOCK_LIFE_MAX];   /* enum block_life_state */
};

/* Keeps @region_len bytes in blocks of @trim_bs; -EINVAL when that is
 * no block or more than BLOCK_LIFE_MAX, as fio refuses the job. */
int block_life_init(struct block_life *bl, uint64_t region_len, uint32_t trim_bs);
/* A trim of the block at @rel bytes into the region completed, counted;
 * a failed block stays failed. */
void block_life_trimmed(struct block_life *bl, uint64_t rel, uint32_t trim_bs);
/* A write or trim at @rel failed. */
void block_life_failed(struct block_life *bl, uint64_t rel, uint32_t trim_bs,
		       enum ddir d);

/* fio's calc_block_percentiles: the trims of the blocks at each of the
 * @nr percentiles @plist (ascending) over the blocks ever trimmed or
 * failed, failed ones last, in @out; the blocks of each state in
 * @counts.  Returns @nr, or 0 when every block is still unwritten. */
unsigned int block_life_percentiles(const struct block_life *bl,
				    const double *plist, unsigned int nr,
				    uint32_t *out, uint32_t counts[BLOCK_STATES]);

#endif /* IODIG_BLOCK_LIFE_H */
