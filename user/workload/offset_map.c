// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include "workload/offset_map.h"

int offset_gen_init(struct offset_gen *g, uint64_t nblocks, bool random,
		    bool use_map)
{
	memset(g, 0, sizeof(*g));
	if (nblocks == 0)
		return -EINVAL;
	g->random = random;
	g->nblocks = nblocks;
	return random && use_map ? block_map_init(&g->map, nblocks) : 0;
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
	if (!g->map.bits)
		return b;
	if (g->map.used == g->nblocks)
		block_map_clear(&g->map);
	if (block_map_isset(&g->map, b))
		b = block_map_next_free(&g->map, b);
	block_map_set(&g->map, b);
	return b;
}

uint64_t offset_gen_cover(struct offset_gen *g, uint64_t b, uint64_t want)
{
	uint64_t n = 1;

	if (!g->map.bits)
		return want;
	while (n < want && b + n < g->nblocks && !block_map_isset(&g->map, b + n))
		block_map_set(&g->map, b + n++);
	return n;
}

void offset_gen_free(struct offset_gen *g)
{
	if (g)
		block_map_free(&g->map);
}
