// SPDX-License-Identifier: GPL-2.0
/* fio's steady-state window and its criteria (workload/steady.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/steady.h"

unsigned int steady_window(const struct steady_opts *o)
{
	uint64_t n = o->interval_ns ? o->dur_ns / o->interval_ns : 0;

	return n > 1000000 ? 1000000 : (unsigned int)n;
}

int steady_init(struct steady_state *s, const struct steady_opts *o)
{
	memset(s, 0, sizeof(*s));
	s->o = *o;
	s->n = steady_window(o);
	if (!s->n)
		return -EINVAL;
	s->iops = calloc(s->n, sizeof(*s->iops));
	s->bw = calloc(s->n, sizeof(*s->bw));
	s->lat = calloc(s->n, sizeof(*s->lat));
	if (!s->iops || !s->bw || !s->lat) {
		steady_free(s);
		return -ENOMEM;
	}
	return 0;
}

void steady_free(struct steady_state *s)
{
	uint64_t **rings[] = { &s->iops, &s->bw, &s->lat };

	for (size_t i = 0; i < sizeof(rings) / sizeof(rings[0]); i++) {
		free(*rings[i]);
		*rings[i] = NULL;
	}
}

double steady_slope(const uint64_t *y, unsigned int n, unsigned int start)
{
	/* fio keeps these as integers and divides in double */
	uint64_t sum_x = (uint64_t)n * (n - 1) / 2;
	uint64_t sum_xx = (uint64_t)(n - 1) * n * (2ull * n - 1) / 6;
	uint64_t sum_y = 0, sum_xy = 0;

	for (unsigned int k = 0; k < n; k++) {
		uint64_t v = y[(start + k) % n];

		sum_y += v;
		sum_xy += (uint64_t)k * v;
	}
	return ((double)sum_xy - (double)sum_x * (double)sum_y / n) /
	       ((double)sum_xx - (double)sum_x * (double)sum_x / n);
}

double steady_max_deviation(const uint64_t *y, unsigned int n, double *mean)
{
	uint64_t sum = 0;
	double dev = 0;

	for (unsigned int k = 0; k < n; k++)
		sum += y[k];
	*mean = (double)sum / n;
	for (unsigned int k = 0; k < n; k++)
		dev = fmax(dev, fabs((double)y[k] - *mean));
	return dev;
}

static const uint64_t *steady_series(const struct steady_state *s)
{
	return s->o.metric == STEADY_IOPS ? s->iops : s->o.metric == STEADY_BW ? s->bw : s->lat;
}

/* The window is full: its criterion, compared with the limit. */
static bool window_holds(struct steady_state *s)
{
	const uint64_t *y = steady_series(s);
	unsigned int oldest = (unsigned int)(s->taken % s->n);
	double mean;

	if (s->o.slope) {
		uint64_t sum = 0;

		for (unsigned int k = 0; k < s->n; k++)
			sum += y[k];
		s->slope = steady_slope(y, s->n, oldest);
		/* fio divides by the mean in integers here */
		s->criterion = s->o.pct ? 100.0 * s->slope / (double)(sum / s->n) : s->slope;
		return fabs(s->criterion) < s->o.limit;
	}
	s->deviation = steady_max_deviation(y, s->n, &mean);
	s->criterion = s->o.pct ? 100.0 * s->deviation / mean : s->deviation;
	return s->criterion < s->o.limit;
}

bool steady_add(struct steady_state *s, uint64_t iops, uint64_t bw, uint64_t lat)
{
	unsigned int at = (unsigned int)(s->taken % s->n);

	s->iops[at] = iops;
	s->bw[at] = bw;
	s->lat[at] = lat;
	s->taken++;
	if (s->taken >= s->n && window_holds(s))
		s->attained = true;
	return s->attained;
}

static uint64_t sample_at(const struct steady_state *s, const uint64_t *ring, unsigned int k)
{
	unsigned int oldest = s->taken >= s->n ? (unsigned int)(s->taken % s->n) : 0;

	return k < s->n ? ring[(oldest + k) % s->n] : 0;
}

uint64_t steady_iops_at(const struct steady_state *s, unsigned int k)
{
	return sample_at(s, s->iops, k);
}

uint64_t steady_bw_at(const struct steady_state *s, unsigned int k)
{
	return sample_at(s, s->bw, k);
}

uint64_t steady_lat_at(const struct steady_state *s, unsigned int k)
{
	return sample_at(s, s->lat, k);
}

static uint64_t ring_mean(const struct steady_state *s, const uint64_t *ring)
{
	uint64_t sum = 0;

	for (unsigned int k = 0; k < s->n; k++)
		sum += ring[k];
	return s->n ? sum / s->n : 0;
}

uint64_t steady_iops_mean(const struct steady_state *s)
{
	return ring_mean(s, s->iops);
}

uint64_t steady_bw_mean(const struct steady_state *s)
{
	return ring_mean(s, s->bw);
}

uint64_t steady_lat_mean(const struct steady_state *s)
{
	return ring_mean(s, s->lat);
}

void steady_describe(const struct steady_opts *o, char *buf, unsigned int len)
{
	/* fio narrows the limit to float before printing it */
	static const char *const names[] = { "iops", "bw", "lat" };

	snprintf(buf, len, "%s%s:%f%s", names[o->metric],
		 o->slope ? "_slope" : "", (double)(float)o->limit, o->pct ? "%" : "");
}
