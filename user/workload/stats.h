/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-worker accumulators (written only by their worker, so no locks) and
 * the math that turns them into fio's figures.  Worker stats live in shared
 * memory so that process workers (fio's default) report like threads.
 */
#ifndef IODIG_STATS_H
#define IODIG_STATS_H

#include <stdbool.h>
#include <signal.h>
#include <stdint.h>

#include "iodig/hist.h"
#include "workload/block_life.h"
#include "workload/counters.h"
#include "workload/job.h"

/* Running min/max/mean/variance (Welford), mergeable across workers. */
struct lat_acc {
	uint64_t n;
	uint64_t min;
	uint64_t max;
	double mean;
	double m2;
};

void lat_acc_add(struct lat_acc *a, uint64_t v);
void lat_acc_merge(struct lat_acc *dst, const struct lat_acc *src);
double lat_acc_stdev(const struct lat_acc *a);

struct hist {
	uint64_t total;
	uint64_t slot[IODIG_HIST_SLOTS];
};

void hist_add(struct hist *h, uint64_t v);
void hist_merge(struct hist *dst, const struct hist *src);
/* Value at percentile @pct (0 < pct <= 100), as fio computes it: the
 * midpoint of the slot holding the ceil(pct% * total)-th sample; 0 when
 * empty. */
uint64_t hist_percentile(const struct hist *h, double pct);
/* Number of samples with value < @limit (slot granularity). */
uint64_t hist_count_below(const struct hist *h, uint64_t limit);

/* fio's latency histogram has 29 groups of 64 bins (FIO_IO_U_PLAT_NR);
 * ours has the same bins and more groups, which fio folds into its last
 * bin.  Bin i's value is iodig_hist_slot_mid(i), fio's plat_idx_to_val. */
#define FIO_PLAT_NR 1856
/* @h's counts in fio's bins. */
void hist_fio_bins(const struct hist *h, uint64_t bins[FIO_PLAT_NR]);

/* fio's default percentile list. */
#define FIO_PERCENTILES_NR 17
extern const double fio_percentiles[FIO_PERCENTILES_NR];

/* fio's IO depth / submit / complete distributions have 7 buckets:
 * depth 1,2,4,8,16,32,>=64; submit/complete 0,4,8,16,32,64,>=64. */
#define DIST_BUCKETS 7
unsigned int depth_bucket(unsigned int depth);
unsigned int batch_bucket(unsigned int n);

struct ddir_stats {
	uint64_t ios;          /* completed I/Os (after ramp) */
	uint64_t bytes;
	uint64_t short_ios;    /* completed with fewer bytes than asked */
	uint64_t errors;
	struct lat_acc slat, clat, lat;
	struct hist slat_h, clat_h, lat_h;
	struct lat_acc bw_kib;  /* KiB/s of each interval */
	struct lat_acc iops;    /* IOPS of each interval */
	/* interval bookkeeping */
	uint64_t iv_bytes, iv_ios;
};

struct worker_stats {
	struct ddir_stats dir[DDIR_COUNT];
	uint64_t issued[DDIR_COUNT];      /* fio "issued rwts" total */
	uint64_t depth_dist[DIST_BUCKETS];
	uint64_t submit_dist[DIST_BUCKETS];
	uint64_t complete_dist[DIST_BUCKETS];
	uint64_t submit_calls, complete_calls;
	uint64_t usr_ns, sys_ns;          /* CPU time of the worker */
	uint64_t ctx_vol, ctx_invol;
	uint64_t majf, minf;
	struct counter_values counters;   /* the same window as the above */
	uint64_t start_ns, end_ns;        /* after ramp_time, monotonic */
	uint64_t runtime_ns;
	/* fio's elapsed_us[ddir]: the µs each direction ran.  A phase counts
	 * for a direction the job does and did I/O in; a verify phase counts
	 * for the reads alone (fio's update_runtime). */
	uint64_t ddir_run_us[DDIR_COUNT];
	/* The bandwidth and IOPS samples' windows (bwavgtime, iopsavgtime),
	 * each its own: where the current one started, and how long it is */
	uint64_t bw_iv_start_ns, iops_iv_start_ns;
	uint64_t bw_window_ns, iops_window_ns;
	/* a sample per I/O, not per window (an unaveraged write_*_log) */
	bool bw_per_io, iops_per_io;
	uint64_t nowait_eagain;           /* RWF_NOWAIT answered -EAGAIN */
	uint64_t verify_errors;
	uint64_t verified_blocks;
	uint32_t latency_depth;           /* latency_target's depth; 0: none */
	uint64_t zone_resets;             /* zonemode=zbd's, as fio counts */
	/* fsync=/fdatasync='s syncs: fio's total_io_u[DDIR_SYNC] counts the
	 * fsyncs alone, its sync latencies both */
	uint64_t fsyncs;
	struct lat_acc sync_lat;
	struct hist sync_h;
	struct block_life block_life;     /* block_error_percentiles */
	/* What the job does not measure (gtod_reduce, disable_*) */
	bool no_slat, no_clat, no_lat, no_bw;
	int32_t tid;                      /* the worker's kernel thread id */
	int32_t pid;                      /* its process id (tgid) */
	int error;                        /* first error, -errno, 0 = none */
	/* The first I/O error counted in dir[].errors, ended the job or not
	 * (fio's first_error), -errno; 0 = none. */
	int first_io_error;
	char errmsg[256];
	/* exec_prerun's wait status, or -errno when it could not start; not
	 * 0: as in fio, the worker did no I/O and that is no error */
	int prerun_status;
	/* The log files (write_*_log) that could not be created, the first
	 * one's -errno and name: fio 3.33 says "fopen log" and goes on */
	unsigned int logs_unwritten;
	int log_error;
	char log_unwritten[128];
	/* Clones whose setup failed without an error of their own (fio's
	 * "blocksize is larger than data set range"): no I/O, error 0, but
	 * fio's exit status counts each. */
	unsigned int setup_failures;
	/* of those, clones started past their files' size (fio's "you
	 * need to specify valid offset=") */
	unsigned int bad_offsets;
	bool done;
	/* exitall of a job of its reporting group (exit_what=group): this
	 * worker stops, the others of its stonewall group go on */
	volatile sig_atomic_t stop;
};

void worker_stats_init(struct worker_stats *s);
/* Turns off the figures @o disables (fio's disable_* and gtod_reduce)
 * and sets the windows of the bandwidth and IOPS samples. */
void stats_configure(struct worker_stats *s, const struct job_stat_opts *o);
/* Folds a completed I/O in; @now_ns is the reap time. */
void stats_account_io(struct worker_stats *s, enum ddir d, uint64_t bytes,
		      uint64_t requested, uint64_t slat_ns, uint64_t clat_ns,
		      uint64_t lat_ns, bool has_slat);
/* An I/O counted (bytes, I/Os, bw and iops) but not timed: fio's
 * FIO_NOSTATS engines, whose latencies are their operations on files. */
void stats_account_untimed_io(struct worker_stats *s, enum ddir d,
			      uint64_t bytes, uint64_t requested);
/* One completion latency sample alone (no slat, no lat), as fio's
 * add_clat_sample from an engine. */
void stats_add_clat(struct worker_stats *s, enum ddir d, uint64_t clat_ns);
/* Takes one I/O of @bytes back out of the current bw/iops interval: fio
 * counts the reads of its verify log in the totals, not in the rate
 * samples (they never enter its this_io_bytes). */
/* One sync of fsync=/fdatasync= that took @ns (@is_fsync: fsync(2)). */
void stats_account_sync(struct worker_stats *s, bool is_fsync, uint64_t ns);
void stats_unsample_io(struct worker_stats *s, enum ddir d, uint64_t bytes);
/* Adds @ns of a phase to direction @d's running time (fio's
 * update_runtime, in whole µs as fio's utime_since_now). */
void stats_add_ddir_time(struct worker_stats *s, enum ddir d, uint64_t ns);
/* Starts the bandwidth and IOPS windows at @now_ns. */
void stats_start_windows(struct worker_stats *s, uint64_t now_ns);
/* Closes windows that ended before @now_ns (bw/iops samples). */
void stats_tick(struct worker_stats *s, uint64_t now_ns);
void worker_stats_merge(struct worker_stats *dst, const struct worker_stats *src);
/* Counts an I/O of direction @d that failed with @err (-errno). */
void stats_count_io_error(struct worker_stats *s, enum ddir d, int err);
/* The I/O errors of every direction: the "total_err" fio reports. */
uint64_t stats_io_errors(const struct worker_stats *s);
/* Zeroes the I/O figures (counts, latencies, depths), as fio's
 * reset_all_stats when latency_target's final window begins. */
void stats_reset_io(struct worker_stats *s);
/* Adds one direction's counters, latencies and histograms of @src to @dst. */
void ddir_stats_merge(struct ddir_stats *dst, const struct ddir_stats *src);

#endif /* IODIG_STATS_H */
