// The random map's next free block (fio's axmap_next_free): for maps on and off multiples of 64 and of 4096 blocks, filled in a random order, each answer is the first unset block at or after the start, wrapping, as a plain scan finds it; BLOCK_MAP_FULL once all are set; a cleared map starts over.
#include <stdlib.h>

#include "tests/lib/check.h"
#include "workload/block_map.h"

/* The answer by brute force. */
static uint64_t scan(const unsigned char *set, uint64_t blocks, uint64_t start)
{
	for (uint64_t n = 0; n < blocks; n++)
		if (!set[(start + n) % blocks])
			return (start + n) % blocks;
	return BLOCK_MAP_FULL;
}

static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void check_map(uint64_t blocks)
{
	unsigned char *set = calloc(blocks, 1);
	uint64_t seed = 0x9e3779b97f4a7c15ull ^ blocks, bad = 0;
	struct block_map m;

	CHECK(block_map_init(&m, blocks) == 0);
	for (int pass = 0; pass < 2; pass++) {
		for (uint64_t n = 0; n < blocks; n++) {
			uint64_t start = next_rand(&seed) % blocks;
			uint64_t b = block_map_next_free(&m, start);

			bad += b != scan(set, blocks, start);
			if (b >= blocks)
				break;
			CHECK(!block_map_isset(&m, b));
			block_map_set(&m, b);
			set[b] = 1;
		}
		CHECK(bad == 0);
		CHECK(block_map_next_free(&m, 0) == BLOCK_MAP_FULL);
		block_map_clear(&m);
		for (uint64_t b = 0; b < blocks; b++)
			set[b] = 0;
		CHECK(block_map_next_free(&m, blocks - 1) == blocks - 1);
	}
	block_map_free(&m);
	free(set);
}

int main(void)
{
	static const uint64_t counts[] = { 1, 2, 63, 64, 65, 127, 4095, 4096, 4097,
					   64 * 64 * 3 + 5, 262144 };

	for (unsigned int i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		check_map(counts[i]);
	return CHECK_DONE();
}
