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

static uint64_t summary_words_of(const struct block_map *m)
{
	return (words_of(m) + 63) / 64;
}

/* The last word's bits past the map's end count as set, so that a word
 * with every block set is all ones and no search returns them. */
static void set_padding(struct block_map *m)
{
	if (m->blocks % 64)
		m->bits[m->blocks / 64] |= ~0ull << (m->blocks % 64);
}

int block_map_init(struct block_map *m, uint64_t blocks)
{
	memset(m, 0, sizeof(*m));
	if (!blocks)
		return -EINVAL;
	m->blocks = blocks;
	m->bits = calloc(words_of(m), sizeof(uint64_t));
	m->full = calloc(summary_words_of(m), sizeof(uint64_t));
	if (!m->bits || !m->full) {
		block_map_free(m);
		return -ENOMEM;
	}
	set_padding(m);
	return 0;
}

bool block_map_isset(const struct block_map *m, uint64_t b)
{
	return m->bits[b / 64] >> (b % 64) & 1;
}

void block_map_set(struct block_map *m, uint64_t b)
{
	uint64_t w = b / 64;

	m->bits[w] |= 1ull << (b % 64);
	if (m->bits[w] == ~0ull)
		m->full[w / 64] |= 1ull << (w % 64);
	m->used++;
}

void block_map_clear(struct block_map *m)
{
	memset(m->bits, 0, words_of(m) * sizeof(uint64_t));
	memset(m->full, 0, summary_words_of(m) * sizeof(uint64_t));
	set_padding(m);
	m->used = 0;
}

/* The first word at or after word @from, wrapping, with a block not set
 * (one exists); the summary skips 64 full words at a time. */
static uint64_t next_open_word(const struct block_map *m, uint64_t from)
{
	uint64_t words = words_of(m), sw = summary_words_of(m), i = from / 64;
	uint64_t open = ~m->full[i] & (~0ull << (from % 64));

	/* n == sw comes back to the first summary word, for its words below from */
	for (uint64_t n = 0; n <= sw; n++) {
		if (open && i * 64 + (uint64_t)__builtin_ctzll(open) < words)
			return i * 64 + (uint64_t)__builtin_ctzll(open);
		i = (i + 1) % sw;
		open = ~m->full[i];
	}
	return BLOCK_MAP_FULL;
}

uint64_t block_map_next_free(const struct block_map *m, uint64_t start)
{
	uint64_t w = start / 64;
	uint64_t free_bits = ~m->bits[w] & (~0ull << (start % 64));

	if (m->used >= m->blocks)
		return BLOCK_MAP_FULL;
	if (free_bits)
		return w * 64 + (uint64_t)__builtin_ctzll(free_bits);
	/* word w again last, for its blocks below start */
	w = next_open_word(m, (w + 1) % words_of(m));
	return w == BLOCK_MAP_FULL ? w : w * 64 + (uint64_t)__builtin_ctzll(~m->bits[w]);
}

void block_map_free(struct block_map *m)
{
	if (m) {
		FREE_AND_NULL(m->bits);
		FREE_AND_NULL(m->full);
	}
}
