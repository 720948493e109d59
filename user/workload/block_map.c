// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "workload/block_map.h"

static uint64_t words_of(const struct block_map *m)
{
	return (m->blocks + 63) / 64;
}

int block_map_init(struct block_map *m, uint64_t blocks)
{
	memset(m, 0, sizeof(*m));
	if (!blocks)
		return -EINVAL;
	m->blocks = blocks;
	m->bits = calloc(words_of(m), sizeof(uint64_t));
	return m->bits ? 0 : -ENOMEM;
}

bool block_map_isset(const struct block_map *m, uint64_t b)
{
	return m->bits[b / 64] >> (b % 64) & 1;
}

void block_map_set(struct block_map *m, uint64_t b)
{
	m->bits[b / 64] |= 1ull << (b % 64);
	m->used++;
}

void block_map_clear(struct block_map *m)
{
	memset(m->bits, 0, words_of(m) * sizeof(uint64_t));
	m->used = 0;
}

uint64_t block_map_next_free(const struct block_map *m, uint64_t start)
{
	uint64_t words = words_of(m), w = start / 64;
	uint64_t free_bits = ~m->bits[w] & (~0ull << (start % 64));

	if (m->used >= m->blocks)
		return BLOCK_MAP_FULL;
	/* n == words comes back to the first word, for its bits below start */
	for (uint64_t n = 0; n <= words; n++) {
		if (free_bits) {
			uint64_t b = w * 64 + (uint64_t)__builtin_ctzll(free_bits);

			if (b < m->blocks)
				return b;
		}
		w = (w + 1) % words;
		free_bits = ~m->bits[w];
	}
	return BLOCK_MAP_FULL;
}

void block_map_free(struct block_map *m)
{
	if (m)
		FREE_AND_NULL(m->bits);
}
