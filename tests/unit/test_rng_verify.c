// Offsets as fio 3.33 draws them: its first random blocks for a 256-block region, a map that covers each block once per pass, norandommap repeats, holes and backwards steps, rw=randread:N runs; seeds repeat.
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/check.h"
#include "base/rng.h"
#include "job/options.h"
#include "workload/offsets.h"

#define KIB 4096ull

static struct job make_job(const char *rw)
{
	struct job job;
	struct errbuf err = { { 0 } };

	job_set_defaults(&job);
	CHECK(job_option_set(&job, "rw", rw, "test", &err) == 0);
	return job;
}

static uint64_t next_block(struct offsets *o, bool *ok)
{
	uint64_t rel = 0;
	bool random;

	*ok = offsets_next(o, DDIR_READ, &rel, &random);
	if (*ok)
		offsets_take(o, DDIR_READ, rel, 4096, random);
	return rel / KIB;
}

/* fio 3.33 --rw=randread --size=1m --bs=4k, first job: blocks 15, 189,
 * 215, 120, 102, then 215 is taken and the map gives 216. */
static void test_fio_first_blocks(void)
{
	static const uint64_t want[] = { 15, 189, 215, 120, 102, 216, 97, 90 };
	struct job job = make_job("randread");
	struct offsets o;
	bool ok;

	CHECK(offsets_init(&o, &job, 256 * KIB, 256 * KIB, false, FRAND_BASE(0x89), 1) == 0);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		uint64_t b = next_block(&o, &ok);

		CHECK_MSG(ok && b == want[i], "I/O %zu at block %llu, fio: %llu",
			  i, (unsigned long long)b, (unsigned long long)want[i]);
	}
	offsets_free(&o);
}

static void test_map_covers_each_block_once(void)
{
	struct job job = make_job("randread");
	unsigned char seen[1000];
	struct offsets o;
	bool ok;

	/* time_based: fio resets a full map in place for another pass */
	job.time_based = true;
	CHECK(offsets_init(&o, &job, 1000 * KIB, 1000 * KIB, true, FRAND_BASE(0x89), 1) == 0);
	for (int pass = 0; pass < 3; pass++) {
		memset(seen, 0, sizeof(seen));
		for (int i = 0; i < 1000; i++) {
			uint64_t b = next_block(&o, &ok);

			CHECK(ok && b < 1000);
			if (ok && b < 1000) {
				CHECK_MSG(!seen[b], "block %llu twice in pass %d",
					  (unsigned long long)b, pass);
				seen[b] = 1;
			}
		}
	}
	offsets_free(&o);
	/* otherwise a full map ends the pass, as fio's files done */
	job.time_based = false;
	CHECK(offsets_init(&o, &job, 4 * KIB, 4 * KIB, false, FRAND_BASE(0x89), 1) == 0);
	for (int i = 0; i < 4; i++)
		next_block(&o, &ok);
	next_block(&o, &ok);
	CHECK(!ok);
	offsets_free(&o);
}

static void test_norandommap_repeats(void)
{
	struct job job = make_job("randread");
	unsigned char seen[1000] = { 0 };
	struct offsets o;
	uint64_t dup = 0;
	bool ok;

	job.norandommap = true;
	CHECK(offsets_init(&o, &job, 1000 * KIB, 1000 * KIB, false, FRAND_BASE(0x89), 1) == 0);
	for (int i = 0; i < 1000; i++) {
		uint64_t b = next_block(&o, &ok);

		CHECK(ok && b < 1000);
		dup += seen[b % 1000];
		seen[b % 1000] = 1;
	}
	/* Independent draws of n from n collide about n/e times. */
	CHECK_MSG(dup > 300 && dup < 440, "%llu repeats", (unsigned long long)dup);
	offsets_free(&o);
}

/* rw=read:4k skips a block after each I/O and ends at the region's end
 * (a larger file); rw=read:-8k steps back from the end; randread:4 runs
 * three sequential blocks after each random one. */
static void test_modifiers(void)
{
	struct job job = make_job("read:4k");
	struct offsets o;
	uint64_t b[4];
	bool ok;
	int n = 0;

	CHECK(offsets_init(&o, &job, 16 * KIB, 64 * KIB, false, FRAND_BASE(0x89), 1) == 0);
	while (next_block(&o, &ok), ok)
		n++;
	CHECK_MSG(n == 8, "%d I/Os with 4k holes in 16 blocks", n);
	offsets_free(&o);

	job = make_job("read:-8k");
	CHECK(offsets_init(&o, &job, 16 * KIB, 16 * KIB, false, FRAND_BASE(0x89), 1) == 0);
	for (int i = 0; i < 4; i++)
		b[i] = next_block(&o, &ok);
	CHECK(b[0] == 0 && b[1] == 14 && b[2] == 13 && b[3] == 12);
	offsets_free(&o);

	job = make_job("randread:4");
	CHECK(offsets_init(&o, &job, 256 * KIB, 256 * KIB, false, FRAND_BASE(0x89), 1) == 0);
	for (int i = 0; i < 4; i++)
		b[i] = next_block(&o, &ok);
	CHECK(b[0] == 15 && b[1] == 16 && b[2] == 17 && b[3] == 18);
	CHECK(next_block(&o, &ok) == 189);
	offsets_free(&o);
}

static void test_seed(void)
{
	struct rng a, b;

	rng_seed(&a, 0x89);
	rng_seed(&b, 0x89);
	for (int i = 0; i < 100; i++)
		CHECK(rng_next(&a) == rng_next(&b));
	for (int i = 0; i < 10000; i++)
		CHECK(rng_below(&a, 7) < 7);
}

int main(void)
{
	test_fio_first_blocks();
	test_map_covers_each_block_once();
	test_norandommap_repeats();
	test_modifiers();
	test_seed();
	return CHECK_DONE();
}
