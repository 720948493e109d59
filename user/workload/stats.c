// SPDX-License-Identifier: GPL-2.0
/*
 * Per-worker statistics: running latency moments, log-linear histograms,
 * fio's depth/batch distributions and the bandwidth/IOPS samples.
 * Everything here is plain arithmetic on memory the worker owns, so the
 * same code serves threads and processes (stats live in shared memory).
 */
#include <math.h>
#include <string.h>

#include "workload/stats.h"

const double fio_percentiles[FIO_PERCENTILES_NR] = {
	1.0, 5.0, 10.0, 20.0, 30.0, 40.0, 50.0, 60.0, 70.0, 80.0,
	90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99,
};

/* Welford's update: numerically stable mean and sum of squared deviations. */
void lat_acc_add(struct lat_acc *a, uint64_t v)
{
	double x = (double)v;
	double delta;

	if (a->n == 0) {
		a->min = v;
		a->max = v;
	} else {
		if (v < a->min)
			a->min = v;
		if (v > a->max)
			a->max = v;
	}
	a->n++;
	delta = x - a->mean;
	a->mean += delta / (double)a->n;
	a->m2 += delta * (x - a->mean);
}

/* Chan et al.'s parallel combination of two (n, mean, m2) triples. */
void lat_acc_merge(struct lat_acc *dst, const struct lat_acc *src)
{
	double na, nb, n, delta;

	if (src->n == 0)
		return;
	if (dst->n == 0) {
		*dst = *src;
		return;
	}
	na = (double)dst->n;
	nb = (double)src->n;
	n = na + nb;
	delta = src->mean - dst->mean;
	dst->mean += delta * nb / n;
	dst->m2 += src->m2 + delta * delta * na * nb / n;
	dst->n += src->n;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

/* Sample standard deviation (n - 1), as fio prints it. */
double lat_acc_stdev(const struct lat_acc *a)
{
	if (a->n < 2 || a->m2 <= 0.0)
		return 0.0;
	return sqrt(a->m2 / (double)(a->n - 1));
}

/*
 * fio folds the bandwidth and IOPS samples of group_reporting members by
 * adding them up (min+min, mean+mean, samples+samples): the group's
 * figure is the sum of its members' rates, not their average.
 */
static void lat_acc_sum(struct lat_acc *dst, const struct lat_acc *src)
{
	if (src->n == 0)
		return;
	if (dst->n == 0) {
		*dst = *src;
		return;
	}
	dst->min += src->min;
	dst->max += src->max;
	dst->n += src->n;
	dst->mean += src->mean;
	dst->m2 += src->m2;
}

void hist_add(struct hist *h, uint64_t v)
{
	h->slot[iodig_hist_slot(v)]++;
	h->total++;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned int i;

	/* total is the sum of the slots: an empty histogram (a direction the
	 * job does not do) is left unread, since reading a worker's shared
	 * stats faults their pages into the reader */
	if (!src->total)
		return;
	for (i = 0; i < IODIG_HIST_SLOTS; i++)
		dst->slot[i] += src->slot[i];
	dst->total += src->total;
}

void hist_fio_bins(const struct hist *h, uint64_t bins[FIO_PLAT_NR])
{
	_Static_assert(IODIG_HIST_SLOTS >= FIO_PLAT_NR, "fio's bins are ours");
	memcpy(bins, h->slot, FIO_PLAT_NR * sizeof(bins[0]));
	for (unsigned int i = FIO_PLAT_NR; i < IODIG_HIST_SLOTS; i++)
		bins[FIO_PLAT_NR - 1] += h->slot[i];
}

/*
 * fio walks the slots until the running count reaches pct% of all samples
 * (compared in long double, as fio does) and reports that slot's value.
 */
uint64_t hist_percentile(const struct hist *h, double pct)
{
	long double want;
	uint64_t sum = 0;
	unsigned int i, last = 0;

	if (h->total == 0)
		return 0;
	want = (long double)pct / 100.0L * (long double)h->total;
	for (i = 0; i < IODIG_HIST_SLOTS; i++) {
		if (!h->slot[i])
			continue;
		sum += h->slot[i];
		last = i;
		if ((long double)sum >= want)
			return iodig_hist_slot_mid(i);
	}
	/* Only reachable through rounding with pct close to 100. */
	return iodig_hist_slot_mid(last);
}

/* A slot counts as below @limit when its reported value is; exact for
 * the one-value slots, within half a slot otherwise. */
uint64_t hist_count_below(const struct hist *h, uint64_t limit)
{
	uint64_t sum = 0;
	unsigned int i;

	for (i = 0; i < IODIG_HIST_SLOTS; i++) {
		if (iodig_hist_slot_mid(i) >= limit)
			break;
		sum += h->slot[i];
	}
	return sum;
}

/* Which of @nr buckets holds @n: the first those below @end, each next
 * one up to twice the last's end, the last all the rest. */
static unsigned int pow2_bucket(unsigned int n, unsigned int end, unsigned int nr)
{
	unsigned int b = 0;

	for (; b < nr - 1 && n >= end; end *= 2)
		b++;
	return b;
}

/* fio's io_u_map: 1, 2-3, 4-7, 8-15, 16-31, 32-63, >=64 in flight. */
unsigned int depth_bucket(unsigned int depth)
{
	return pow2_bucket(depth, 2, DIST_BUCKETS);
}

/* fio's submit/complete maps: 0, 1-4, 5-8, 9-16, 17-32, 33-64, >64 per
 * call; the labels name each bucket's upper end ("4" holds 1 to 4). */
unsigned int batch_bucket(unsigned int n)
{
	return n ? 1 + pow2_bucket(n - 1, 4, DIST_BUCKETS - 1) : 0;
}

void worker_stats_init(struct worker_stats *s)
{
	memset(s, 0, sizeof(*s));
}

void stats_reset_io(struct worker_stats *s)
{
	memset(s->dir, 0, sizeof(s->dir));
	s->first_io_error = 0; /* the first of the errors counted anew */
	memset(s->issued, 0, sizeof(s->issued));
	memset(s->ddir_run_us, 0, sizeof(s->ddir_run_us));
	memset(s->depth_dist, 0, sizeof(s->depth_dist));
	memset(s->submit_dist, 0, sizeof(s->submit_dist));
	memset(s->complete_dist, 0, sizeof(s->complete_dist));
	s->submit_calls = s->complete_calls = 0;
	s->fsyncs = 0;
	memset(&s->sync_lat, 0, sizeof(s->sync_lat));
	memset(&s->sync_h, 0, sizeof(s->sync_h));
}

void stats_account_sync(struct worker_stats *s, bool is_fsync, uint64_t ns)
{
	s->fsyncs += is_fsync;
	lat_acc_add(&s->sync_lat, ns);
	hist_add(&s->sync_h, ns);
}

void stats_configure(struct worker_stats *s, const struct job_stat_opts *o)
{
	s->no_slat = o->disable_slat;
	s->no_clat = o->disable_clat;
	s->no_lat = o->disable_lat;
	s->no_bw = o->disable_bw;
	s->bw_window_ns = o->bw_avg_msec * 1000000ull;
	s->iops_window_ns = o->iops_avg_msec * 1000000ull;
	s->bw_per_io = o->bw_per_io;
	s->iops_per_io = o->iops_per_io;
}

void stats_account_untimed_io(struct worker_stats *s, enum ddir d,
			      uint64_t bytes, uint64_t requested)
{
	struct ddir_stats *ds;

	if ((unsigned int)d >= DDIR_COUNT)
		return;
	ds = &s->dir[d];
	ds->ios++;
	ds->bytes += bytes;
	if (bytes < requested)
		ds->short_ios++;
	ds->iv_bytes += bytes;
	ds->iv_ios++;
}

void stats_unsample_io(struct worker_stats *s, enum ddir d, uint64_t bytes)
{
	struct ddir_stats *ds;

	if ((unsigned int)d >= DDIR_COUNT)
		return;
	ds = &s->dir[d];
	if (ds->iv_ios)
		ds->iv_ios--;
	ds->iv_bytes -= bytes < ds->iv_bytes ? bytes : ds->iv_bytes;
}

void stats_add_ddir_time(struct worker_stats *s, enum ddir d, uint64_t ns)
{
	if ((unsigned int)d < DDIR_COUNT)
		s->ddir_run_us[d] += ns / 1000;
}

void stats_add_clat(struct worker_stats *s, enum ddir d, uint64_t clat_ns)
{
	if ((unsigned int)d >= DDIR_COUNT || s->no_clat)
		return;
	lat_acc_add(&s->dir[d].clat, clat_ns);
	hist_add(&s->dir[d].clat_h, clat_ns);
}

void stats_account_io(struct worker_stats *s, enum ddir d, uint64_t bytes,
		      uint64_t requested, uint64_t slat_ns, uint64_t clat_ns,
		      uint64_t lat_ns, bool has_slat)
{
	struct ddir_stats *ds;

	if ((unsigned int)d >= DDIR_COUNT)
		return;
	ds = &s->dir[d];
	stats_account_untimed_io(s, d, bytes, requested);
	/* Sync engines submit and complete in one call: fio records no
	 * submission latency for them, so neither do we. */
	if (has_slat && !s->no_slat) {
		lat_acc_add(&ds->slat, slat_ns);
		hist_add(&ds->slat_h, slat_ns);
	}
	stats_add_clat(s, d, clat_ns);
	/* fio's add_bw_sample and add_iops_sample of an unaveraged log: the
	 * I/O's own rate (bytes * 10^6 / clat in ns), and 1 */
	if (!s->no_bw && s->bw_per_io)
		lat_acc_add(&ds->bw_kib, clat_ns ? bytes * 1000000ull / clat_ns : 0);
	if (!s->no_bw && s->iops_per_io)
		lat_acc_add(&ds->iops, 1);
	if (!s->no_lat) {
		lat_acc_add(&ds->lat, lat_ns);
		hist_add(&ds->lat_h, lat_ns);
	}
}

void stats_start_windows(struct worker_stats *s, uint64_t now_ns)
{
	s->bw_iv_start_ns = now_ns;
	s->iops_iv_start_ns = now_ns;
}

/*
 * Like fio's __add_samples for bwavgtime (@bw) or iopsavgtime: once the
 * window that began at *@start has passed, each direction that moved
 * bytes (I/Os) in it gets one sample, the rate over the time actually
 * elapsed; a direction without gets none (fio skips it too, so "min" is
 * the slowest window that did I/O).  The next window starts now, as fio
 * restarts its window at the time it takes the sample.
 */
static void take_samples(struct worker_stats *s, bool bw, uint64_t *start,
			 uint64_t window_ns, uint64_t now_ns)
{
	uint64_t spent;
	double secs;

	if (*start == 0 || now_ns < *start) {
		*start = now_ns;
		return;
	}
	spent = now_ns - *start;
	if (spent < window_ns || spent == 0)
		return;
	secs = (double)spent / 1e9;
	for (unsigned int d = 0; d < DDIR_COUNT; d++) {
		struct ddir_stats *ds = &s->dir[d];
		uint64_t *count = bw ? &ds->iv_bytes : &ds->iv_ios;

		if (!*count)
			continue;
		/* Integer rates, as fio stores them. */
		if (!s->no_bw)
			lat_acc_add(bw ? &ds->bw_kib : &ds->iops,
				    (uint64_t)((double)*count / (bw ? 1024.0 : 1.0) / secs));
		*count = 0;
	}
	*start = now_ns;
}

void stats_tick(struct worker_stats *s, uint64_t now_ns)
{
	if (!s->bw_per_io)
		take_samples(s, true, &s->bw_iv_start_ns, s->bw_window_ns, now_ns);
	if (!s->iops_per_io)
		take_samples(s, false, &s->iops_iv_start_ns, s->iops_window_ns, now_ns);
}

void ddir_stats_merge(struct ddir_stats *dst, const struct ddir_stats *src)
{
	dst->ios += src->ios;
	dst->bytes += src->bytes;
	dst->short_ios += src->short_ios;
	dst->errors += src->errors;
	lat_acc_merge(&dst->slat, &src->slat);
	lat_acc_merge(&dst->clat, &src->clat);
	lat_acc_merge(&dst->lat, &src->lat);
	hist_merge(&dst->slat_h, &src->slat_h);
	hist_merge(&dst->clat_h, &src->clat_h);
	hist_merge(&dst->lat_h, &src->lat_h);
	lat_acc_sum(&dst->bw_kib, &src->bw_kib);
	lat_acc_sum(&dst->iops, &src->iops);
	dst->iv_bytes += src->iv_bytes;
	dst->iv_ios += src->iv_ios;
}

/*
 * Folds one worker into a group total the way fio's sum_thread_stats does:
 * counters and CPU time add up, runtime_ns and each ddir_run_us are the
 * longest member's (fio's runtime[ddir], what bandwidth is divided by),
 * start/end span the members.  The first worker merged into an
 * initialised @dst provides pid, tid, error and done.
 */
void worker_stats_merge(struct worker_stats *dst, const struct worker_stats *src)
{
	bool first = dst->pid == 0 && dst->tid == 0;
	unsigned int i;

	for (i = 0; i < DDIR_COUNT; i++) {
		ddir_stats_merge(&dst->dir[i], &src->dir[i]);
		dst->issued[i] += src->issued[i];
		if (src->ddir_run_us[i] > dst->ddir_run_us[i])
			dst->ddir_run_us[i] = src->ddir_run_us[i];
	}
	for (i = 0; i < DIST_BUCKETS; i++) {
		dst->depth_dist[i] += src->depth_dist[i];
		dst->submit_dist[i] += src->submit_dist[i];
		dst->complete_dist[i] += src->complete_dist[i];
	}
	dst->submit_calls += src->submit_calls;
	dst->complete_calls += src->complete_calls;
	dst->usr_ns += src->usr_ns;
	dst->sys_ns += src->sys_ns;
	dst->ctx_vol += src->ctx_vol;
	dst->ctx_invol += src->ctx_invol;
	dst->majf += src->majf;
	dst->minf += src->minf;
	counter_values_merge(&dst->counters, &src->counters);
	if (src->runtime_ns > dst->runtime_ns)
		dst->runtime_ns = src->runtime_ns;
	dst->nowait_eagain += src->nowait_eagain;
	dst->zone_resets += src->zone_resets;
	dst->fsyncs += src->fsyncs;
	lat_acc_merge(&dst->sync_lat, &src->sync_lat);
	hist_merge(&dst->sync_h, &src->sync_h);
	dst->verify_errors += src->verify_errors;
	dst->verified_blocks += src->verified_blocks;
	/* fio reports the blocks of one worker, the first, for a group */
	if (!dst->block_life.nr && src->block_life.nr)
		dst->block_life = src->block_life;
	if (src->latency_depth > dst->latency_depth)
		dst->latency_depth = src->latency_depth;

	if (src->start_ns && (dst->start_ns == 0 || src->start_ns < dst->start_ns))
		dst->start_ns = src->start_ns;
	if (src->end_ns > dst->end_ns)
		dst->end_ns = src->end_ns;
	if (dst->bw_iv_start_ns == 0)
		dst->bw_iv_start_ns = src->bw_iv_start_ns;
	if (dst->iops_iv_start_ns == 0)
		dst->iops_iv_start_ns = src->iops_iv_start_ns;

	if (first) {
		dst->pid = src->pid;
		dst->tid = src->tid;
		dst->done = src->done;
	} else {
		dst->done = dst->done && src->done;
	}
	/* fio's group keeps its last member's first_error, 0 or not */
	dst->first_io_error = src->first_io_error;
	if (dst->error == 0 && src->error != 0) {
		dst->error = src->error;
		memcpy(dst->errmsg, src->errmsg, sizeof(dst->errmsg));
		dst->errmsg[sizeof(dst->errmsg) - 1] = '\0';
	}
	if (!dst->prerun_status)
		dst->prerun_status = src->prerun_status;
	if (!dst->logs_unwritten && src->logs_unwritten) {
		dst->log_error = src->log_error;
		memcpy(dst->log_unwritten, src->log_unwritten,
		       sizeof(dst->log_unwritten));
	}
	dst->logs_unwritten += src->logs_unwritten;
	dst->setup_failures += src->setup_failures;
	dst->bad_offsets += src->bad_offsets;
}

void stats_count_io_error(struct worker_stats *s, enum ddir d, int err)
{
	s->dir[d].errors++;
	if (!s->first_io_error)
		s->first_io_error = err;
}

uint64_t stats_io_errors(const struct worker_stats *s)
{
	uint64_t n = 0;

	for (int d = 0; d < DDIR_COUNT; d++)
		n += s->dir[d].errors;
	return n;
}
