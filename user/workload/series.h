/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency over time: a job's I/O in one direction cut into intervals
 * (--interval, 100 ms by default).  The supervisor fills it from the
 * workers' cumulative counters and histograms (run/series_collect.c), the
 * report writes it to JSON and the trace file, and the pictures and diff
 * read it back: this is the one model all of them share.
 */
#ifndef IODIG_SERIES_H
#define IODIG_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SERIES_DEFAULT_INTERVAL_MS 100
/* --steady: a window of this many intervals ... */
#define SERIES_STEADY_WINDOW 5
/* ... whose mean IOPS is within this many percent of the rest's. */
#define SERIES_STEADY_PCT 5.0

/* One interval; rates are derived (series_iops), never stored. */
struct series_point {
	uint64_t end_ns;           /* interval end, from the start of measurement */
	uint64_t dur_ns;           /* > 0 */
	uint64_t ios;              /* completed in the interval */
	uint64_t bytes;
	uint64_t clat_p50_ns;      /* 0 when no completion was timed */
	uint64_t clat_p99_ns;
	double lat_mean_ns;        /* 0 when lat is not measured */
};

/* One job (its clones together) in one direction. */
struct series {
	char job[128];
	int ddir;                  /* enum ddir */
	uint64_t interval_ns;
	uint64_t ramp_ns;          /* the job's ramp_time, before end_ns 0 */
	unsigned int repeat;       /* which of the run's repeats, 0-based */
	struct series_point *pts;
	size_t n, cap;
};

struct series_set {
	struct series *s;
	size_t n, cap;
};

/* The point's fields by name, as the JSON and the trace file hold them
 * (one array per field); @real: a double, else a uint64_t. */
struct series_field {
	const char *name;
	size_t offset;
	bool real;
};
#define SERIES_NR_FIELDS 7
extern const struct series_field series_fields[SERIES_NR_FIELDS];

/* 0 or -ENOMEM. */
int series_append(struct series *s, const struct series_point *p);
/* A new empty series in @set, NULL when out of memory. */
struct series *series_set_add(struct series_set *set);
void series_set_free(struct series_set *set);
/* @src's series appended to @dst, their points copied, each marked as
 * repeat @repeat.  0 or -ENOMEM (@dst then holds what was copied). */
int series_set_copy(struct series_set *dst, const struct series_set *src, unsigned int repeat);

double series_iops(const struct series_point *p);
double series_bw_kib(const struct series_point *p);

/*
 * --steady: the index of the first interval of the steady state.  The
 * transient ends at the first interval i at which the mean IOPS of the
 * SERIES_STEADY_WINDOW intervals from i is within SERIES_STEADY_PCT
 * percent of the mean IOPS of all intervals from i to the end.  A series
 * shorter than two windows is taken as steady from its start.
 */
size_t series_steady_start(const struct series *s);

#endif /* IODIG_SERIES_H */
