// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "workload/offset_map.h"

int offset_gen_init(struct offset_gen *g, uint64_t nblocks, bool random,
		    bool use_map)
{
	memset(g, 0, sizeof(*g));
	if (nblocks == 0)
		return -EINVAL;
	g->random = random;
	g->use_map = random && use_map;
	g->nblocks = nblocks;
	if (g->use_map) {
		g->map = calloc((nblocks + 63) / 64, sizeof(uint64_t));
		if (!g->map)
			return -ENOMEM;
	}
	return 0;
}

/* First unused block at or after @start, wrapping; the caller guarantees
 * one exists.  Whole words are skipped, so a nearly full map stays fast. */
static uint64_t map_find_free(const struct offset_gen *g, uint64_t start)
{
	uint64_t words = (g->nblocks + 63) / 64;
	uint64_t w = start / 64;
	uint64_t bits = ~g->map[w] & (~0ull << (start % 64));

	for (uint64_t n = 0; n <= words; n++) {
		if (bits) {
			uint64_t b = w * 64 + (uint64_t)__builtin_ctzll(bits);

			if (b < g->nblocks)
				return b;
		}
		w = (w + 1) % words;
		bits = ~g->map[w];
	}
	return 0;
}

uint64_t offset_gen_next(struct offset_gen *g, struct rng *r)
{
	uint64_t b;

	if (!g->random) {
		b = g->next;
		g->next = (g->next + 1) % g->nblocks;
		return b;
	}
	b = rng_below(r, g->nblocks);
	if (!g->use_map)
		return b;
	if (g->used == g->nblocks) {
		memset(g->map, 0, (g->nblocks + 63) / 64 * sizeof(uint64_t));
		g->used = 0;
	}
	if (g->map[b / 64] & (1ull << (b % 64)))
		b = map_find_free(g, b);
	g->map[b / 64] |= 1ull << (b % 64);
	g->used++;
	return b;
}

void offset_gen_free(struct offset_gen *g)
{
	if (!g)
		return;
	free(g->map);
	g->map = NULL;
}
