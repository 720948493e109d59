// SPDX-License-Identifier: GPL-2.0
/* fio 3.33's non-uniform offset distributions (workload/random_dist.h). */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "workload/random_dist.h"

#define FRAND32_MAX 4294967295.0
#define GOLDEN_RATIO_64 0x61c8864680b583ebull /* fio's __hash_u64 */
#define JHASH_START 0x61c88647u               /* fio's JHASH_INITVAL */
#define ZIPF_MAX_GEN 10000000ull
#define GAUSS_ITERS 12

static uint32_t rol32(uint32_t w, unsigned int s)
{
	return (w << s) | (w >> (32 - s));
}

/* Bob Jenkins' lookup3 mix of (a, b, c), as Linux's jhash does it: step
 * i changes v[i % 3] by the one before it and adds the one after to that
 * one before. */
static void jhash_mix(uint32_t v[3])
{
	static const unsigned int rot[6] = { 4, 6, 8, 16, 19, 4 };

	for (int i = 0; i < 6; i++) {
		uint32_t *x = &v[i % 3], *prev = &v[(i + 2) % 3];

		*x -= *prev;
		*x ^= rol32(*prev, rot[i]);
		*prev += v[(i + 1) % 3];
	}
}

/* lookup3's final mix: c, a, b, c, ... each from the one before it. */
static void jhash_final(uint32_t v[3])
{
	static const unsigned int rot[7] = { 14, 11, 25, 16, 4, 14, 24 };

	for (int i = 0; i < 7; i++) {
		uint32_t *x = &v[(i + 2) % 3], prev = v[(i + 1) % 3];

		*x ^= prev;
		*x -= rol32(prev, rot[i]);
	}
}

/* fio's jhash of a file name.  Its whole 12-byte rounds add the first
 * byte of each 4-byte word, not the word (fio reads them through a byte
 * pointer); the last, partial or whole, adds its bytes little-endian. */
static uint32_t fio_jhash(const char *key, uint32_t len)
{
	const uint8_t *k = (const uint8_t *)key;
	uint32_t v[3];

	v[0] = v[1] = v[2] = JHASH_START + len;
	for (; len > 12; len -= 12, k += 12) {
		v[0] += k[0];
		v[1] += k[4];
		v[2] += k[8];
		jhash_mix(v);
	}
	if (!len)
		return v[2];
	for (uint32_t i = 0; i < len; i++)
		v[i / 4] += (uint32_t)k[i] << (8 * (i % 4));
	jhash_final(v);
	return v[2];
}

/* fio converts a negative double to its unsigned offset: it wraps. */
static uint64_t wrapped(double v)
{
	return v < 0 ? (uint64_t)(int64_t)v : (uint64_t)v;
}

void random_dist_init(struct random_dist *r, const struct job *job,
		      uint64_t region_len, struct frand_base seed_base,
		      unsigned int thread_number, uint64_t block_seed)
{
	const struct rand_dist_opts *o = &job->random_distribution;
	uint32_t range = job->bs_min[DDIR_READ] < job->bs_min[DDIR_WRITE] ?
			 job->bs_min[DDIR_READ] : job->bs_min[DDIR_WRITE];
	uint64_t to_gen;

	memset(r, 0, sizeof(*r));
	r->opts = o;
	r->stride = job->random_sequence_stride;
	r->nranges = (region_len + range - 1) / range;
	/* fio 3.33 turns randrepeat off when randseed is given: after it
	 * seeds its blocks (from its constant, with randrepeat), before it
	 * seeds the files' distributions, which then take the block seed */
	r->repeatable = job->randrepeat && !job->randseed_set;
	r->job_seed = block_seed;
	frand_seed(&r->zone, frand_job_seed(seed_base, thread_number,
					    FRAND_ZONE), false);
	random_dist_seed_file(r, "", thread_number);
	if (o->kind == DIST_ZIPF) {
		r->zeta2 = pow(1.0, o->value) + pow(0.5, o->value);
		to_gen = r->nranges < ZIPF_MAX_GEN ? r->nranges : ZIPF_MAX_GEN;
		for (uint64_t i = 0; i < to_gen; i++)
			r->zetan += pow(1.0 / (double)(i + 1), o->value);
	} else if (o->kind == DIST_PARETO) {
		r->pareto_pow = log(o->value) / log(1.0 - o->value);
	} else if (o->kind == DIST_NORMAL && o->value != 0) {
		r->stddev = (unsigned int)ceil((double)r->nranges * o->value / 100.0);
		if (r->stddev > r->nranges / 2)
			r->stddev = (unsigned int)(r->nranges / 2);
	}
}

void random_dist_seed_file(struct random_dist *r, const char *fio_name,
			   unsigned int thread_number)
{
	const struct rand_dist_opts *o = r->opts;
	uint32_t seed = r->repeatable ?
			fio_jhash(fio_name, (uint32_t)strlen(fio_name)) * thread_number :
			(uint32_t)r->job_seed;

	frand_seed(&r->rand, seed, false);
	if (o->kind == DIST_NORMAL) {
		/* fio's bell is on the region's middle unless centred */
		r->rand_off = o->centered ?
			      wrapped((double)r->nranges * (o->center - 0.5)) : 0;
		return;
	}
	/* zipf, pareto: the draw is made even when a center replaces it */
	r->rand_off = frand_next(&r->rand);
	if (o->centered)
		r->rand_off = wrapped((double)r->nranges * o->center);
}

static uint64_t zipf_next(struct random_dist *r)
{
	double theta = r->opts->value, n = (double)r->nranges;
	double alpha = 1.0 / (1.0 - theta);
	double eta = (1.0 - pow(2.0 / n, 1.0 - theta)) / (1.0 - r->zeta2 / r->zetan);
	double uni = (double)frand_next(&r->rand) / FRAND32_MAX;
	double z = uni * r->zetan;
	uint64_t val;

	if (z < 1.0)
		val = 1;
	else if (z < 1.0 + pow(0.5, theta))
		val = 2;
	else
		val = 1 + (uint64_t)(n * pow(eta * uni - eta + 1.0, alpha));
	return ((val - 1) * GOLDEN_RATIO_64 + r->rand_off) % r->nranges;
}

static uint64_t pareto_next(struct random_dist *r)
{
	double uni = (double)frand_next(&r->rand) / FRAND32_MAX;
	uint64_t n = (uint64_t)((double)(r->nranges - 1) * pow(uni, r->pareto_pow));

	return (n * GOLDEN_RATIO_64 + r->rand_off) % r->nranges;
}

/* fio's gauss_next in its types: the deviation an int added to the
 * unsigned sum, so one below -sum wraps, and is halved until it fits. */
static uint64_t gauss_next(struct random_dist *r)
{
	uint64_t sum = 0;

	for (int i = 0; i < GAUSS_ITERS; i++)
		sum += frand_next(&r->rand) % (r->nranges + 1);
	sum = (sum + GAUSS_ITERS - 1) / GAUSS_ITERS;
	if (r->stddev) {
		double unit = (double)frand_next(&r->rand) / (FRAND32_MAX + 1.0);
		int dev = (int)(r->stddev * unit) - (int)(r->stddev / 2);

		while ((uint64_t)(int64_t)dev + sum >= r->nranges)
			dev /= 2;
		sum += (uint64_t)(int64_t)dev;
	}
	return (sum * GOLDEN_RATIO_64 + r->rand_off) % r->nranges;
}

uint64_t random_dist_block(struct random_dist *r)
{
	switch (r->opts->kind) {
	case DIST_ZIPF:
		return zipf_next(r);
	case DIST_PARETO:
		return pareto_next(r);
	case DIST_NORMAL:
		return gauss_next(r);
	default:
		return 0;
	}
}

void random_dist_zone(struct random_dist *r, enum ddir d, uint64_t lastb,
		      uint32_t align, uint64_t *first, uint64_t *count)
{
	const struct rand_dist_opts *o = r->opts;
	unsigned int v = frand_between(&r->zone, 1, 100), acc = 0, i;
	uint64_t start = 0;

	for (i = 0; i + 1 < o->nr[d]; i++) {
		acc += o->zones[d][i].access_perc;
		if (v <= acc)
			break;
		start += o->zones[d][i].size;
	}
	if (o->kind == DIST_ZONED) {
		uint64_t end = start + o->zones[d][i].size;

		*first = start * lastb / 100;
		*count = lastb * (end > 100 ? 100 - start : end - start) / 100;
	} else {
		*first = start / align;
		*count = o->zones[d][i].size / align;
		if (*first >= lastb)
			*first = 0;
		if (*first + *count > lastb)
			*count = lastb - *first;
	}
	if (!*count)
		*count = 1;
}

int random_dist_sequence(const struct random_dist *r, uint64_t nth,
			 uint64_t max_blocks, uint64_t *block)
{
	const struct rand_dist_opts *o = r->opts;
	unsigned int idx = (unsigned int)(nth % o->seq_nr);

	*block = o->seq[idx];
	if (r->stride)
		*block += nth / o->seq_nr * o->seq_nr;
	if (*block < max_blocks)
		return 0;
	/* fio: a stride past the end ends the job; the pattern's own block
	 * past it is the job's error */
	return o->seq[idx] >= max_blocks ? -EINVAL : 1;
}
