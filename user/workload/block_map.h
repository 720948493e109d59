/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bit per block of a region: which blocks a random pass has done, so
 * that each is visited once a pass (fio's axmap, flat).  Used by the
 * offsets of a job, or of each of its files (workload/offsets.h).
 */
#ifndef IODIG_BLOCK_MAP_H
#define IODIG_BLOCK_MAP_H

#include <stdbool.h>
#include <stdint.h>

#define BLOCK_MAP_FULL UINT64_MAX

struct block_map {
	uint64_t *bits;     /* NULL: no map */
	uint64_t *full;     /* a bit per word of bits: all its blocks set */
	uint64_t blocks;
	uint64_t used;      /* blocks set this pass */
};

/* A map of @blocks blocks, none set: 0, -EINVAL for none, -ENOMEM. */
int block_map_init(struct block_map *m, uint64_t blocks);
bool block_map_isset(const struct block_map *m, uint64_t b);
/* Sets block @b, which is not set yet. */
void block_map_set(struct block_map *m, uint64_t b);
/* A new pass: no block set. */
void block_map_clear(struct block_map *m);
/* The first block not set at or after @start, wrapping to the start of
 * the map; BLOCK_MAP_FULL when every block is set.  Full words are
 * skipped 64 at a time (fio's axmap has levels too), so a nearly full map
 * stays fast. */
uint64_t block_map_next_free(const struct block_map *m, uint64_t start);
void block_map_free(struct block_map *m);

#endif /* IODIG_BLOCK_MAP_H */
