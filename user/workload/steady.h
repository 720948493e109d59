/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's steady-state detection (HOWTO "Steady state", fio's steadystate.c):
 * every check interval the job's IOPS, bandwidth and mean completion
 * latency over that interval are kept in a window of ss_dur worth of
 * samples; once the window is full the job stops as soon as the criterion
 * holds over it:
 *   iops, bw, lat         the largest deviation from the window's mean
 *   iops_slope, ...       the least squares slope of the window
 * is below the limit, given as a value or (N%) as a percentage of the mean.
 * lat and lat_slope are fio's after 3.33.
 * The supervisor takes the samples (run/steady_check.c); the reports print
 * the window as fio does.
 */
#ifndef IODIG_STEADY_H
#define IODIG_STEADY_H

#include <stdbool.h>
#include <stdint.h>

enum steady_metric { STEADY_IOPS, STEADY_BW, STEADY_LAT };

/* The job's options, as parsed (job/steady_opts.c). */
struct steady_opts {
	uint64_t dur_ns;          /* ss_dur: the window; 0 = no detection */
	uint64_t ramp_ns;         /* ss_ramp: no samples before it */
	uint64_t interval_ns;     /* ss_interval: one sample each */
	double limit;             /* in IOPS, bytes/s, ns or percent */
	enum steady_metric metric;
	bool slope;               /* the slope, else the largest deviation */
	bool pct;                 /* limit is a percentage of the mean */
};

/* One window: a job's, or under group_reporting its reporting group's. */
struct steady_state {
	struct steady_opts o;
	unsigned int n;           /* samples in a full window */
	uint64_t *iops, *bw, *lat; /* rings of n: IOPS, bytes/s, clat ns */
	uint64_t taken;           /* samples taken so far */
	double slope;             /* of the last full window (slope criteria) */
	double deviation;         /* of the last full window (others) */
	double criterion;         /* slope or deviation, or its percentage */
	bool attained;
};

/* Samples in a window of @o (ss_dur / ss_interval, truncated as fio). */
unsigned int steady_window(const struct steady_opts *o);
/* 0 or -ENOMEM; @o->dur_ns must give a window of at least one sample. */
int steady_init(struct steady_state *s, const struct steady_opts *o);
void steady_free(struct steady_state *s);
/* Adds the next interval's rates and mean clat; true once the criterion
 * holds. */
bool steady_add(struct steady_state *s, uint64_t iops, uint64_t bw, uint64_t lat);
/* Sample @k of the window, oldest first, as fio lists it: a window not
 * yet full has its samples first and zeros after them. */
uint64_t steady_iops_at(const struct steady_state *s, unsigned int k);
uint64_t steady_bw_at(const struct steady_state *s, unsigned int k);
uint64_t steady_lat_at(const struct steady_state *s, unsigned int k);
/* fio's means: the window's sum over its length, in integers. */
uint64_t steady_iops_mean(const struct steady_state *s);
uint64_t steady_bw_mean(const struct steady_state *s);
uint64_t steady_lat_mean(const struct steady_state *s);
/* "iops_slope:0.010000%": fio's JSON "ss". */
void steady_describe(const struct steady_opts *o, char *buf, unsigned int len);

/*
 * The math, on @n samples @y[(start + k) % n] for k = 0 .. n-1 (x = k):
 * fio's least squares slope from integer sums, (Sxy - Sx Sy / n) /
 * (Sxx - Sx^2 / n), which needs n >= 2; and the largest distance of a
 * sample from the mean (into @mean).
 */
double steady_slope(const uint64_t *y, unsigned int n, unsigned int start);
double steady_max_deviation(const uint64_t *y, unsigned int n, double *mean);

#endif /* IODIG_STEADY_H */
