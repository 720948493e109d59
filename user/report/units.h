/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's number formatting and the derived figures both reports print
 * (runtime, CPU %, distribution and latency-bucket percentages), so the
 * text and JSON reports can never disagree.
 */
#ifndef IODIG_UNITS_H
#define IODIG_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/stats.h"

enum n2s_unit { N2S_NONE, N2S_BYTE, N2S_BYTEPERSEC };

#define NUM2STR_LEN 48

/*
 * fio's num2str: scales @num (given in units of @base, 1 or 1024/1000)
 * by 1000 or 1024 (@pow2) until it has at most @maxlen digits, then fills
 * the remaining width with decimals: 4057612 with maxlen 6 is "4057.6k",
 * 806354944 bytes with maxlen 4 and pow2 is "769MiB".  Returns @buf.
 */
char *fio_num2str(char *buf, size_t len, uint64_t num, int maxlen,
		  unsigned int base, bool pow2, enum n2s_unit unit);

/* A byte count the way a job file would say it: "4k", "64m", "1g", or a
 * plain number when no suffix divides it exactly. */
char *size_to_str(char *buf, size_t len, uint64_t bytes);
/* A duration the way a job file would say it: "2" (seconds), "500ms",
 * "250us" or "10ns". */
char *time_to_str(char *buf, size_t len, uint64_t ns);

/* fio's runtime[ddir] in ms: the (longest merged) worker's runtime. */
uint64_t stats_runtime_ms(const struct worker_stats *st);

/* fio's runtime[@d] in ms: the time direction @d ran, rounded up (0 for
 * a direction that did not run, as the reads of a write job whose
 * verify_backlog reads ended with its runtime). */
uint64_t stats_ddir_runtime_ms(const struct worker_stats *st, enum ddir d);

/* fio's total_run_time in ms, the sum over the @nr_workers members; each
 * member ran about as long as the longest one. */
uint64_t stats_total_run_ms(const struct worker_stats *st, unsigned int nr_workers);

/* usr/sys % as fio computes it: CPU time (summed over members) over the
 * summed runtime, i.e. the average member's share of one CPU. */
double stats_cpu_pct(uint64_t cpu_ns, const struct worker_stats *st,
		     unsigned int nr_workers);

/* Percentages of a 7-bucket distribution; a non-empty bucket below 0.1%
 * shows as 0.1% (fio's stat_calc_dist). */
void dist_pct(const uint64_t map[DIST_BUCKETS], double out[DIST_BUCKETS]);
/* The buckets' labels: of the depth distribution, and of the submit and
 * complete batch distributions. */
extern const char *const dist_depth_labels[DIST_BUCKETS];
extern const char *const dist_batch_labels[DIST_BUCKETS];

/*
 * fio's completion-latency buckets ("lat (usec)   : 250=..."), built from
 * the clat histograms of both directions: 10 nsec buckets (<2, <4, ...
 * <1000 ns), 10 usec buckets, 12 msec buckets (the last is >=2000 ms).
 * A non-empty bucket below 0.01% shows as 0.01%.
 */
#define LAT_N_NR 10
#define LAT_U_NR 10
#define LAT_M_NR 12
extern const char *const lat_bucket_labels[LAT_M_NR];

void lat_buckets_pct(const struct worker_stats *st, double n[LAT_N_NR],
		     double u[LAT_U_NR], double m[LAT_M_NR]);

/* fio's "per=": a job's mean bandwidth (KiB/s, truncated to an integer
 * like fio) as a share of its group's aggregate bytes/s, capped at 100. */
double bw_share_pct(double mean_kib, uint64_t group_agg_bytes);

#endif /* IODIG_UNITS_H */
