// SPDX-License-Identifier: GPL-2.0
/* The interval series' storage, its rates and the --steady rule. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "workload/series.h"

#define FIELD(f, r) { #f, offsetof(struct series_point, f), r }
const struct series_field series_fields[SERIES_NR_FIELDS] = {
	FIELD(end_ns, false), FIELD(dur_ns, false), FIELD(ios, false), FIELD(bytes, false),
	FIELD(clat_p50_ns, false), FIELD(clat_p99_ns, false), FIELD(lat_mean_ns, true),
};
#undef FIELD

int series_append(struct series *s, const struct series_point *p)
{
	struct series_point *pts = grow_for_one(s->pts, &s->cap, s->n, sizeof(*pts), 64);

	if (!pts)
		return -ENOMEM;
	s->pts = pts;
	s->pts[s->n++] = *p;
	return 0;
}

struct series *series_set_add(struct series_set *set)
{
	struct series *s = grow_for_one(set->s, &set->cap, set->n, sizeof(*s), 4);

	if (!s)
		return NULL;
	set->s = s;
	memset(&s[set->n], 0, sizeof(*s));
	return &s[set->n++];
}

void series_set_free(struct series_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		free(set->s[i].pts);
	free(set->s);
	memset(set, 0, sizeof(*set));
}

int series_set_copy(struct series_set *dst, const struct series_set *src, unsigned int repeat)
{
	for (size_t i = 0; i < src->n; i++) {
		struct series *s = series_set_add(dst);

		if (!s)
			return -ENOMEM;
		*s = src->s[i];
		s->repeat = repeat;
		s->cap = s->n;
		s->pts = malloc((s->n ? s->n : 1) * sizeof(*s->pts));
		if (!s->pts) {
			s->n = s->cap = 0;
			return -ENOMEM;
		}
		if (s->n)
			memcpy(s->pts, src->s[i].pts, s->n * sizeof(*s->pts));
	}
	return 0;
}

double series_iops(const struct series_point *p)
{
	return p->dur_ns ? (double)p->ios * 1e9 / (double)p->dur_ns : 0;
}

double series_bw_kib(const struct series_point *p)
{
	return p->dur_ns ? (double)p->bytes / 1024.0 * 1e9 / (double)p->dur_ns : 0;
}

/* Mean IOPS of intervals [from, to): I/Os over time, so that a short
 * last interval weighs by its length. */
static double mean_iops(const struct series *s, size_t from, size_t to)
{
	uint64_t ios = 0, ns = 0;

	for (size_t i = from; i < to; i++) {
		ios += s->pts[i].ios;
		ns += s->pts[i].dur_ns;
	}
	return ns ? (double)ios * 1e9 / (double)ns : 0;
}

size_t series_steady_start(const struct series *s)
{
	if (s->n < 2 * SERIES_STEADY_WINDOW)
		return 0;
	for (size_t i = 0; i + SERIES_STEADY_WINDOW <= s->n; i++) {
		double win = mean_iops(s, i, i + SERIES_STEADY_WINDOW);
		double rest = mean_iops(s, i, s->n);

		if (rest > 0 && fabs(win - rest) <= rest * SERIES_STEADY_PCT / 100.0)
			return i;
	}
	return 0;
}
