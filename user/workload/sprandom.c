// SPDX-License-Identifier: GPL-2.0
/*
 * fio's sprandom (workload/sprandom.h), after its sprandom.c: the same
 * curve computed in the same order of floating-point steps, the same
 * draws from fio's sprandom seed, so the same offsets in the same order.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "workload/sprandom.h"

uint64_t sprandom_physical_size(double op, uint64_t logical, uint32_t bs)
{
	uint64_t size = (uint64_t)((double)logical + ceil((double)logical * op));

	return (size + bs - 1) & ~((uint64_t)bs - 1);
}

/* fio's linspace: @n values from @a to @b, both included. */
static double spaced(double a, double b, unsigned int n, unsigned int i)
{
	return n == 1 ? a : a + (double)i * ((b - a) / ((double)n - 1.0));
}

/* fio's linear_interp over increasing @x, flat beyond the ends. */
static double interp(double at, const double *x, const double *y,
		     unsigned int n)
{
	if (n == 1 || at <= x[0])
		return y[0];
	if (at >= x[n - 1])
		return y[n - 1];
	for (unsigned int i = 0; i + 1 < n; i++) {
		if (at < x[i] || at > x[i + 1])
			continue;
		if (fabs(x[i + 1] - x[i]) < 1e-9)
			return y[i];
		return y[i] + (y[i + 1] - y[i]) * ((at - x[i]) / (x[i + 1] - x[i]));
	}
	return 0.0;
}

int sprandom_invalid_shares(unsigned int regions, double op, uint32_t *out)
{
	double gc_valid = 1.0 - 1.0 / (0.5 / op + 0.7);
	double *valid = calloc(regions, sizeof(*valid));
	double *space = calloc(regions, sizeof(*space));
	double acc = 0.0, at, v;
	int ret = -ENOMEM;

	if (!valid || !space)
		goto cleanup;
	/* validity equally spaced from full to the reclaimed block's, and
	 * the space such blocks take, accumulated */
	for (unsigned int i = 0; i < regions; i++) {
		valid[i] = spaced(1.0, gc_valid, regions, i);
		acc += 1.0 / valid[i];
		space[i] = acc;
	}
	/* resampled at equal space, then the least valid first */
	for (unsigned int i = 0; i < regions; i++) {
		at = spaced(space[0], space[regions - 1], regions, i);
		v = interp(at, space, valid, regions);
		out[regions - 1 - i] = (uint32_t)round((1.0 - v) * SPR_SCALE);
	}
	ret = 0;
cleanup:
	free(valid);
	free(space);
	return ret;
}

/* fio sizes its buffer by rewrites_expected and aborts past it; growing
 * gives the same offsets wherever fio runs on. */
static int list_push(struct spr_list *l, uint64_t block)
{
	uint64_t *grown;

	if (l->len == l->cap) {
		grown = realloc(l->block, (l->cap * 2 + 1) * sizeof(*grown));
		if (!grown)
			return -ENOMEM;
		l->block = grown;
		l->cap = l->cap * 2 + 1;
	}
	l->block[l->len++] = block;
	return 0;
}

/* fio's estimate_inv_capacity: a region's rewrites plus six sigma. */
static uint64_t rewrites_expected(uint64_t writes, double invalid)
{
	double sigma = sqrt((double)writes * invalid * (1.0 - invalid));

	return (uint64_t)ceil((double)writes * invalid + 6.0 * sigma);
}

int sprandom_init(struct sprandom *s, const struct job *job,
		  uint64_t logical, uint64_t seed)
{
	const struct sprandom_opts *o = &job->sprandom;
	uint32_t bs = job->bs[DDIR_WRITE];
	uint64_t cap;

	memset(s, 0, sizeof(*s));
	s->io_size = sprandom_physical_size(o->op, logical, bs);
	s->region_writes = s->io_size / o->regions / bs;
	if (!s->region_writes)
		return -ERANGE;
	s->invalid = calloc(o->regions, sizeof(*s->invalid));
	if (!s->invalid)
		return -ENOMEM;
	s->regions = o->regions;
	if (sprandom_invalid_shares(o->regions, o->op, s->invalid))
		return -ENOMEM;
	cap = rewrites_expected(s->region_writes,
				(double)s->invalid[0] / SPR_SCALE) + 1;
	s->rewrite.block = calloc(cap, sizeof(uint64_t));
	s->drawn.block = calloc(cap, sizeof(uint64_t));
	if (!s->rewrite.block || !s->drawn.block)
		return -ENOMEM;
	s->rewrite.cap = s->drawn.cap = cap;
	s->writes_left = s->region_writes;
	frand_seed(&s->rand, seed, false);
	return 0;
}

/* fio's sprandom_add_with_probability: @block is drawn for the next
 * region with the current one's share of invalid data (writes past the
 * last region, which fio reads past its table for, with the last's: 0). */
static int draw(struct sprandom *s, uint64_t block)
{
	uint32_t share = s->region < s->regions ? s->invalid[s->region] : 0;

	if (frand_between(&s->rand, 0, SPR_SCALE) > share)
		return 0;
	return list_push(&s->drawn, block);
}

/* The next region: this one's draws become its rewrites, and its new
 * blocks what is left of the region after them. */
static void next_region(struct sprandom *s)
{
	struct spr_list done = s->rewrite;

	s->region++;
	s->rewrite = s->drawn;
	s->drawn = done;
	s->drawn.len = s->drawn.next = 0;
	s->writes_left = s->rewrite.len < s->region_writes ?
			 s->region_writes - s->rewrite.len : 0;
}

int sprandom_next(struct sprandom *s, struct lfsr *lfsr, uint64_t *block)
{
	struct spr_list *r = &s->rewrite;
	int ret;

	if (r->next < r->len) {
		*block = r->block[r->next++];
		ret = draw(s, *block);
		return ret ? ret : 1;
	}
	if (!s->writes_left) {
		if (s->region >= s->regions)
			return 0;
		next_region(s);
	}
	if (!lfsr_next(lfsr, block))
		return 0;
	if (s->writes_left)
		s->writes_left--;
	ret = draw(s, *block);
	return ret ? ret : 1;
}

void sprandom_free(struct sprandom *s)
{
	if (!s)
		return;
	FREE_AND_NULL(s->invalid);
	FREE_AND_NULL(s->rewrite.block);
	FREE_AND_NULL(s->drawn.block);
	s->regions = 0;
}
