// SPDX-License-Identifier: GPL-2.0
/*
 * fio 3.33's block lifetime records (io_u.c's trim_block_info,
 * iolog.c's unlog_io_piece, stat.c's calc_block_percentiles).  fio 3.33
 * itself aborts in its sort (it reads each 32-bit record as 64 bits), so
 * the order here is the one its code means: unwritten blocks first, then
 * by category (trimmed or written, then failed), trims and state.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "workload/block_life.h"

const char *const block_state_names[BLOCK_STATES] = {
	[BLOCK_UNWRITTEN] = "unwritten",
	[BLOCK_TRIMMED] = "trimmed",
	[BLOCK_WRITTEN] = "written",
	[BLOCK_TRIM_FAILURE] = "trim failure",
	[BLOCK_WRITE_FAILURE] = "write failure",
};

int block_life_init(struct block_life *bl, uint64_t region_len, uint32_t trim_bs)
{
	uint64_t n = trim_bs ? region_len / trim_bs : 0;

	if (!n || n > BLOCK_LIFE_MAX)
		return -EINVAL;
	memset(bl->trims, 0, sizeof(bl->trims));
	memset(bl->state, 0, sizeof(bl->state));
	bl->nr = (uint32_t)n;
	return 0;
}

/* The block of @rel, or -1 past the kept ones. */
static int64_t block_of(const struct block_life *bl, uint64_t rel, uint32_t trim_bs)
{
	uint64_t i = trim_bs ? rel / trim_bs : 0;

	return trim_bs && i < bl->nr ? (int64_t)i : -1;
}

void block_life_trimmed(struct block_life *bl, uint64_t rel, uint32_t trim_bs)
{
	int64_t i = block_of(bl, rel, trim_bs);

	if (i < 0 || bl->state[i] >= BLOCK_TRIM_FAILURE)
		return;
	bl->state[i] = BLOCK_TRIMMED;
	bl->trims[i]++;
}

void block_life_failed(struct block_life *bl, uint64_t rel, uint32_t trim_bs,
		       enum ddir d)
{
	int64_t i = block_of(bl, rel, trim_bs);

	if (i < 0 || bl->state[i] >= BLOCK_TRIM_FAILURE || d == DDIR_READ)
		return;
	bl->state[i] = d == DDIR_TRIM ? BLOCK_TRIM_FAILURE : BLOCK_WRITE_FAILURE;
}

/* fio's block_state_category: unwritten, then done, then failed. */
static int category(uint8_t state)
{
	return state == BLOCK_UNWRITTEN ? 0 : state < BLOCK_TRIM_FAILURE ? 1 : 2;
}

/* A block as one sortable key: category, then trims, then state. */
static uint64_t sort_key(const struct block_life *bl, uint32_t i)
{
	return (uint64_t)category(bl->state[i]) << 40 |
	       (uint64_t)bl->trims[i] << 8 | bl->state[i];
}

static int key_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

unsigned int block_life_percentiles(const struct block_life *bl,
				    const double *plist, unsigned int nr,
				    uint32_t *out, uint32_t counts[BLOCK_STATES])
{
	uint64_t *keys = calloc(bl->nr ? bl->nr : 1, sizeof(*keys));
	uint32_t unwritten = 0;

	memset(counts, 0, sizeof(*counts) * BLOCK_STATES);
	for (uint32_t i = 0; keys && i < bl->nr; i++) {
		keys[i] = sort_key(bl, i);
		counts[bl->state[i]]++;
	}
	unwritten = counts[BLOCK_UNWRITTEN];
	if (!keys || unwritten == bl->nr) {
		free(keys);
		return 0;
	}
	qsort(keys, bl->nr, sizeof(*keys), key_cmp);
	for (unsigned int k = 0; k < nr; k++) {
		uint64_t idx = (uint64_t)(plist[k] * (bl->nr - unwritten) / 100) + unwritten;

		out[k] = (uint32_t)(keys[idx < bl->nr ? idx : bl->nr - 1] >> 8);
	}
	free(keys);
	return nr;
}
