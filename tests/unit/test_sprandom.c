// sprandom's model: the curve's ends (the least valid region invalid by 1/WA of 0.5/op + 0.7, the last all valid), shares that never grow, one region all valid, the physical size rounded up to the block; each region's writes, rewrites of the blocks the previous one drew in order, every new block of the lfsr cycle once.
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/check.h"
#include "job/options.h"
#include "workload/sprandom.h"

static void test_curve(double op, unsigned int n)
{
	uint32_t *s = calloc(n, sizeof(*s));
	long first = lround(SPR_SCALE / (0.5 / op + 0.7));

	CHECK(s && sprandom_invalid_shares(n, op, s) == 0);
	CHECK_MSG(s[0] == first, "op %.2f: first %u, 1/WA %ld", op, s[0], first);
	CHECK(s[n - 1] == 0);
	for (unsigned int i = 1; i < n; i++)
		CHECK_MSG(s[i] <= s[i - 1], "op %.2f region %u: %u after %u", op,
			  i, s[i], s[i - 1]);
	free(s);
}

static void test_sizes(void)
{
	uint32_t one = 1;

	CHECK(sprandom_invalid_shares(1, 0.15, &one) == 0 && one == 0);
	/* 1 MiB + 15% = 1205862.4 bytes, up to 4k blocks */
	CHECK(sprandom_physical_size(0.15, 1 << 20, 4096) == 295 * 4096);
	CHECK(sprandom_physical_size(0.25, 1 << 20, 4096) == 320 * 4096);
}

/* A 256-block file in 4 regions: region r > 0 starts with one new
 * block, then rewrites in order what region r - 1 drew. */
static void test_regions(void)
{
	struct job job;
	struct errbuf err = { { 0 } };
	struct sprandom s;
	struct lfsr l;
	uint64_t b, n = 0, last = 0, rewrites = 0;
	uint64_t first[256]; /* index of each block's first write */
	int ret;

	memset(first, 0xff, sizeof(first));
	job_set_defaults(&job);
	CHECK(job_option_set(&job, "sprandom", "1", "test", &err) == 0);
	CHECK(job_option_set(&job, "spr_op", "0.25", "test", &err) == 0);
	CHECK(job_option_set(&job, "spr_num_regions", "4", "test", &err) == 0);
	CHECK(sprandom_init(&s, &job, 256 * 4096, 0x1234) == 0);
	CHECK(s.region_writes == 80 && s.io_size == 320 * 4096);
	lfsr_init(&l, 256, 7);
	while (n < 400 && (ret = sprandom_next(&s, &l, &b)) == 1) {
		CHECK(b < 256);
		if (first[b] == UINT64_MAX) {
			first[b] = n++;
			continue;
		}
		/* region 1 (writes 80-159): after its first write, region 0's
		 * draws again, in the order region 0 wrote them */
		if (n >= 81 && n < 160) {
			CHECK_MSG(n == 81 + rewrites && first[b] < 80 &&
				  (!rewrites || first[b] > last),
				  "write %llu: block %llu is not region 0's next draw",
				  (unsigned long long)n, (unsigned long long)b);
			last = first[b];
			rewrites++;
		}
		n++;
	}
	CHECK(ret == 0);
	for (unsigned int i = 0; i < 256; i++)
		CHECK_MSG(first[i] != UINT64_MAX, "block %u never written", i);
	CHECK(rewrites > 0);
	CHECK(n > 256);
	sprandom_free(&s);
}

int main(void)
{
	test_curve(0.15, 100);
	test_curve(0.07, 10);
	test_curve(0.5, 3);
	test_sizes();
	test_regions();
	return CHECK_DONE();
}
