// SPDX-License-Identifier: GPL-2.0
/*
 * Generators after P. L'Ecuyer, "Maximally Equidistributed Combined
 * Tausworthe Generators" (Math. Comp. 65, 1996) and "Tables of Maximally
 * Equidistributed Combined LFSR Generators" (Math. Comp. 68, 1999): taus88
 * and the 64-bit taus258, with fio's seeding (an LCG, then six discarded
 * draws).  The constants are the papers'; the seeding quirks are fio's and
 * matter, since the first draws become the rand_seed fio writes in each
 * block header.
 */
#include <string.h>

#include "workload/fio_rand.h"

#define SEED_STEP 0x9e370001ull            /* fio's seed multiplier */
#define GOLDEN_RATIO_64 0x61c8864680b583ebull /* fio's __hash_u64 */
/* fio writes (2^31) + (2^17) + (2^7) meaning powers; C reads XORs: 53. */
#define LCG_START 53u

uint64_t frand_job_seed(struct frand_base base, unsigned int thread_number,
			enum frand_purpose purpose)
{
	uint64_t seed = base.randseed;

	if (base.allrand)
		return FIO_RANDSEED * thread_number + (unsigned int)purpose;

	for (int i = 0; i < 4; i++)
		seed *= SEED_STEP;
	for (unsigned int i = 0; i < (unsigned int)purpose; i++)
		seed *= SEED_STEP;
	return seed * thread_number + (unsigned int)purpose;
}

static uint32_t above32(uint32_t x, uint32_t m)
{
	return x < m ? x + m : x;
}

static uint64_t above64(uint64_t x, uint64_t m)
{
	return x < m ? x + m : x;
}

static uint32_t taus88(uint32_t *s)
{
	s[0] = ((s[0] & 0xfffffffeu) << 12) ^ (((s[0] << 13) ^ s[0]) >> 19);
	s[1] = ((s[1] & 0xfffffff8u) << 4) ^ (((s[1] << 2) ^ s[1]) >> 25);
	s[2] = ((s[2] & 0xfffffff0u) << 17) ^ (((s[2] << 3) ^ s[2]) >> 11);
	return s[0] ^ s[1] ^ s[2];
}

static uint64_t taus258(uint64_t *s)
{
	s[0] = ((s[0] & 0xfffffffffffffffeull) << 10) ^ (((s[0] << 1) ^ s[0]) >> 53);
	s[1] = ((s[1] & 0xfffffffffffffe00ull) << 5) ^ (((s[1] << 24) ^ s[1]) >> 50);
	s[2] = ((s[2] & 0xfffffffffffff000ull) << 29) ^ (((s[2] << 3) ^ s[2]) >> 23);
	s[3] = ((s[3] & 0xfffffffffffe0000ull) << 23) ^ (((s[3] << 5) ^ s[3]) >> 24);
	s[4] = ((s[4] & 0xffffffffff800000ull) << 8) ^ (((s[4] << 3) ^ s[4]) >> 33);
	return s[0] ^ s[1] ^ s[2] ^ s[3] ^ s[4];
}

void frand_seed(struct frand *r, uint64_t seed, bool use64)
{
	static const uint64_t min64[5] = { 1, 7, 15, 33, 49 };
	static const uint32_t min32[3] = { 1, 7, 15 };

	memset(r, 0, sizeof(*r));
	r->use64 = use64;
	if (use64) {
		uint64_t x = LCG_START;

		for (int i = 0; i < 5; i++)
			x = r->s64[i] = above64(x * 6906969069ull ^ seed, min64[i]);
	} else {
		uint32_t x = LCG_START, s = (uint32_t)seed;

		for (int i = 0; i < 3; i++)
			x = r->s32[i] = above32(x * 69069u ^ s, min32[i]);
	}
	for (int i = 0; i < 6; i++)
		frand_next(r);
}

uint64_t frand_next(struct frand *r)
{
	return r->use64 ? taus258(r->s64) : taus88(r->s32);
}

uint64_t frand_buf_seed(struct frand *r)
{
	uint64_t a = frand_next(r);

	return a * frand_next(r);
}

unsigned int frand_between(struct frand *r, unsigned int lo, unsigned int hi)
{
	double span = (double)(hi - lo) + 1.0;
	double unit = r->use64 ? (double)frand_next(r) / 18446744073709551616.0 :
				 (double)frand_next(r) / 4294967296.0;

	return lo + (unsigned int)(span * unit);
}

/* fio's hash chain: each 8 bytes the previous times the golden ratio. */
static void fill_chain(uint8_t *b, size_t len, uint64_t seed)
{
	for (; len >= 8; b += 8, len -= 8) {
		memcpy(b, &seed, 8);
		seed *= GOLDEN_RATIO_64;
	}
	memcpy(b, &seed, len);
}

void frand_fill(void *buf, size_t len, uint64_t seed)
{
	/* Four chains side by side, seeded seed*1, *2, *3, *5; what is left
	 * after the last whole group of four words continues chain 0.  Four
	 * scalars, not an array, so that the compiler keeps them in registers
	 * and the four multiplications overlap. */
	uint64_t s0 = seed, s1 = seed * 2, s2 = seed * 3, s3 = seed * 5;
	size_t groups = len / 32;
	uint8_t *b = buf;

	for (size_t g = 0; g < groups; g++, b += 32) {
		memcpy(b, &s0, 8);
		memcpy(b + 8, &s1, 8);
		memcpy(b + 16, &s2, 8);
		memcpy(b + 24, &s3, 8);
		s0 *= GOLDEN_RATIO_64;
		s1 *= GOLDEN_RATIO_64;
		s2 *= GOLDEN_RATIO_64;
		s3 *= GOLDEN_RATIO_64;
	}
	fill_chain(b, len - groups * 32, s0);
}

static void fill_fixed(uint8_t *b, size_t len, const struct pattern *p)
{
	if (p && p->len)
		pattern_spread(p, b, len, 0);
	else
		memset(b, 0, len);
}

void frand_fill_compressible(void *buf, size_t len, uint64_t seed,
			     unsigned int pct, size_t segment,
			     const struct pattern *p)
{
	uint8_t *b = buf;

	if (pct >= 100) {
		fill_fixed(b, len, p);
		return;
	}
	if (!segment || segment > len)
		segment = len;
	while (len) {
		size_t random = segment * (100 - pct) / 100, fixed;

		if (random > len)
			random = len;
		frand_fill(b, random, seed);
		b += random;
		len -= random;
		if (!len)
			break;
		fixed = segment - random;
		/* fio folds a last sliver of at most 8 bytes into the fixed
		 * part rather than start another segment. */
		if (fixed > len || len - fixed <= sizeof(long))
			fixed = len;
		fill_fixed(b, fixed, p);
		b += fixed;
		len -= fixed;
	}
}
