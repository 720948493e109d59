// Offsets: random with a map covers every block once per pass, sequential wraps, seeds repeat (verify blocks: test_verify.c).
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/check.h"
#include "base/rng.h"

static void test_randommap_covers_each_block_once(void)
{
	struct offset_gen g;
	struct rng r;
	uint64_t n = 1000;
	unsigned char *seen = calloc(n, 1);

	rng_seed(&r, 42);
	CHECK(offset_gen_init(&g, n, true, true) == 0);
	for (int pass = 0; pass < 3; pass++) {
		memset(seen, 0, n);
		for (uint64_t i = 0; i < n; i++) {
			uint64_t b = offset_gen_next(&g, &r);

			CHECK_MSG(b < n, "block %llu out of range", (unsigned long long)b);
			if (b < n) {
				CHECK_MSG(!seen[b], "block %llu twice in pass %d",
					  (unsigned long long)b, pass);
				seen[b] = 1;
			}
		}
	}
	offset_gen_free(&g);
	free(seen);
}

static void test_norandommap_repeats(void)
{
	struct offset_gen g;
	struct rng r;
	uint64_t n = 1000, dup = 0;
	unsigned char seen[1000] = { 0 };

	rng_seed(&r, 7);
	CHECK(offset_gen_init(&g, n, true, false) == 0);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t b = offset_gen_next(&g, &r);

		CHECK(b < n);
		dup += seen[b % n];
		seen[b % n] = 1;
	}
	/* Independent draws of n from n collide about n/e times. */
	CHECK_MSG(dup > 300 && dup < 440, "%llu repeats", (unsigned long long)dup);
	offset_gen_free(&g);
}

static void test_sequential_and_seed(void)
{
	struct offset_gen g;
	struct rng a, b;

	rng_seed(&a, 3);
	CHECK(offset_gen_init(&g, 3, false, true) == 0);
	CHECK(offset_gen_next(&g, &a) == 0);
	CHECK(offset_gen_next(&g, &a) == 1);
	CHECK(offset_gen_next(&g, &a) == 2);
	CHECK(offset_gen_next(&g, &a) == 0);
	offset_gen_free(&g);
	CHECK(offset_gen_init(&g, 0, false, false) < 0);

	rng_seed(&a, 0x89);
	rng_seed(&b, 0x89);
	for (int i = 0; i < 100; i++)
		CHECK(rng_next(&a) == rng_next(&b));
	for (int i = 0; i < 10000; i++)
		CHECK(rng_below(&a, 7) < 7);
}

int main(void)
{
	test_randommap_covers_each_block_once();
	test_norandommap_repeats();
	test_sequential_and_seed();
	return CHECK_DONE();
}
