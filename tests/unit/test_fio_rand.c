// fio's seeds and buffer bytes: the rand_seed values fio 3.33 wrote in its verify headers, and the data bytes that followed them.
#include <stdint.h>
#include <string.h>

#include "tests/lib/check.h"
#include "workload/fio_rand.h"

static uint64_t first_block_seed(uint64_t randseed, unsigned int thread,
				 bool use64, unsigned int nth)
{
	struct frand r;
	uint64_t s = 0;

	frand_seed(&r, frand_job_seed(FRAND_BASE(randseed), thread, FRAND_VERIFY), use64);
	for (unsigned int i = 0; i <= nth; i++)
		s = frand_buf_seed(&r);
	return s;
}

/* Seeds read back from the headers of blocks fio 3.33 wrote with
 * verify=crc32c, rw=write, bs=4k: randseed 0x89 (the default) for the
 * jobs numbered 1 and 3 of a file, randseed 1234, and
 * random_generator=tausworthe64. */
static void test_seeds_match_fio(void)
{
	CHECK(first_block_seed(0x89, 1, false, 0) == 0x00a4cc01c509543cull);
	CHECK(first_block_seed(0x89, 1, false, 1) == 0x88bb0a8cf6db562eull);
	CHECK(first_block_seed(0x89, 1, false, 2) == 0x419814f3ac0492d0ull);
	CHECK(first_block_seed(0x89, 1, false, 3) == 0x187a339a93949434ull);
	CHECK(first_block_seed(0x89, 3, false, 0) == 0x4afc1258111dd6c6ull);
	CHECK(first_block_seed(0x89, 3, false, 1) == 0x2224043361a1ab60ull);
	CHECK(first_block_seed(1234, 1, false, 0) == 0x4e70264829f1ec98ull);
	CHECK(first_block_seed(0x89, 1, true, 0) == 0x131a7e28a61c4b7aull);
	CHECK(first_block_seed(0x89, 1, true, 1) == 0xf4a8c4db4b342411ull);
}

/* The first and last 16 bytes of the 4 KiB block fio filled from seed
 * 0x00a4cc01c509543c (before the header went over its start). */
static void test_fill_matches_fio(void)
{
	static const uint8_t head[16] = {
		0x3c, 0x54, 0x09, 0xc5, 0x01, 0xcc, 0xa4, 0x00,
		0x78, 0xa8, 0x12, 0x8a, 0x03, 0x98, 0x49, 0x01 };
	static const uint8_t tail[16] = {
		0x1c, 0x15, 0x01, 0xba, 0x9d, 0x31, 0x0a, 0x35,
		0x84, 0x78, 0xac, 0xe0, 0x06, 0xa8, 0xbb, 0xad };
	static uint8_t buf[4096];
	uint8_t small[13];

	frand_fill(buf, sizeof(buf), 0x00a4cc01c509543cull);
	CHECK(!memcmp(buf, head, 16));
	CHECK(!memcmp(buf + 4080, tail, 16));
	/* shorter than a group of four words: chain 0 alone, then the tail */
	frand_fill(small, sizeof(small), 0x00a4cc01c509543cull);
	CHECK(!memcmp(small, head, 8));
}

static void test_compressible(void)
{
	static uint8_t buf[4096];
	struct pattern p = { .len = 2, .bytes = { 0xaa, 0xbb } };
	size_t zeros = 0;

	frand_fill_compressible(buf, sizeof(buf), 0x00a4cc01c509543cull, 50, 512,
				NULL);
	for (size_t i = 0; i < sizeof(buf); i++)
		zeros += !buf[i];
	CHECK_MSG(zeros >= 2048 && zeros < 2100, "%zu zero bytes", zeros);
	/* each 512-byte segment: 256 random then 256 fixed */
	CHECK(!buf[300] && !buf[511] && !memcmp(buf, buf + 512, 256));
	frand_fill_compressible(buf, 1024, 42, 75, 1024, &p);
	CHECK(buf[256] == 0xaa && buf[257] == 0xbb && buf[1023] == 0xbb);
	frand_fill_compressible(buf, 100, 42, 100, 100, &p);
	CHECK(buf[0] == 0xaa && buf[99] == 0xbb);
}

static void test_between(void)
{
	struct frand r;
	unsigned int hist[5] = { 0 };

	frand_seed(&r, 7, false);
	for (int i = 0; i < 10000; i++) {
		unsigned int v = frand_between(&r, 1, 5);

		CHECK(v >= 1 && v <= 5);
		if (v >= 1 && v <= 5)
			hist[v - 1]++;
	}
	for (int i = 0; i < 5; i++)
		CHECK_MSG(hist[i] > 1800 && hist[i] < 2200, "%u of %d", hist[i], i + 1);
}

int main(void)
{
	test_seeds_match_fio();
	test_fill_matches_fio();
	test_compressible();
	test_between();
	return CHECK_DONE();
}
