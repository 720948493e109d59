/* Checks the branch-free msb and histogram slot math, fio-style percentiles, Welford/Chan moments, fio's depth/batch buckets, 500 ms bw/iops sampling and worker merging. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "workload/stats.h"
#include "tests/lib/check.h"

/* Deterministic values so a failure reproduces. */
static uint64_t lcg(uint64_t *state)
{
	*state = *state * 6364136223846793005ull + 1442695040888963407ull;
	return *state >> 33;
}

static bool near(double a, double b, double rel)
{
	double scale = fabs(b) > 1.0 ? fabs(b) : 1.0;

	return fabs(a - b) <= rel * scale;
}

/* The branch-free msb against the compiler's count of leading zeros: at
 * and around every power of two, and at random. */
static void test_msb(void)
{
	uint64_t seed = 7;
	int bad = 0;

	CHECK(iodig_msb64(0) == 0);
	for (int k = 0; k < 64; k++) {
		uint64_t p = 1ull << k;
		uint64_t vs[] = { p, p - 1, p + 1, p | (p >> 1), p | (p - 1) };

		for (size_t i = 0; i < sizeof(vs) / sizeof(vs[0]); i++) {
			uint64_t v = vs[i];

			if (v && iodig_msb64(v) != (uint32_t)(63 - __builtin_clzll(v)) && bad++ < 5)
				CHECK_MSG(false, "msb of %llu: %u", (unsigned long long)v,
					  iodig_msb64(v));
		}
	}
	for (int i = 0; i < 1000000; i++) {
		uint64_t v = (lcg(&seed) << 31 ^ lcg(&seed)) >> (lcg(&seed) % 64);

		if (v && iodig_msb64(v) != (uint32_t)(63 - __builtin_clzll(v)) && bad++ < 5)
			CHECK_MSG(false, "msb of %llu: %u", (unsigned long long)v, iodig_msb64(v));
	}
}

static void test_slot_math(void)
{
	uint32_t prev = 0;
	uint64_t v;
	int bad = 0;

	for (v = 0; v <= 1000000 && bad < 5; v++) {
		uint32_t s = iodig_hist_slot(v);
		uint64_t low = iodig_hist_slot_low(s);
		uint64_t width = iodig_hist_slot_width(s);
		uint64_t mid = iodig_hist_slot_mid(s);
		double err = fabs((double)mid - (double)v);

		if (s < prev || low > v || v >= low + width ||
		    (v && err * 128.0 > (double)v) || (!v && mid)) {
			fprintf(stderr, "%s:%d: value %llu: slot %u low %llu width %llu mid %llu (prev slot %u)\n",
				__FILE__, __LINE__, (unsigned long long)v, s,
				(unsigned long long)low, (unsigned long long)width,
				(unsigned long long)mid, prev);
			check_failures++;
			bad++;
		}
		prev = s;
	}
	/* Large values up to the top group keep the same precision. */
	for (v = 1000000; v < (1ull << 41); v = v * 3 / 2 + 7) {
		uint32_t s = iodig_hist_slot(v);
		uint64_t low = iodig_hist_slot_low(s);

		CHECK_MSG(low <= v && v < low + iodig_hist_slot_width(s),
			  "value %llu outside slot %u", (unsigned long long)v, s);
		CHECK_MSG(fabs((double)iodig_hist_slot_mid(s) - (double)v) * 128.0 <= (double)v,
			  "midpoint of slot %u too far from %llu", s, (unsigned long long)v);
	}
	CHECK(iodig_hist_slot(UINT64_MAX) == IODIG_HIST_SLOTS - 1);
}

static void test_percentiles(void)
{
	struct hist h;
	unsigned int i;
	uint64_t v;

	memset(&h, 0, sizeof(h));
	CHECK(hist_percentile(&h, 50.0) == 0);

	/* Uniform 1..100000: the ceil(p% * N)-th sample is the value itself. */
	for (v = 1; v <= 100000; v++)
		hist_add(&h, v);
	CHECK(h.total == 100000);
	for (i = 0; i < FIO_PERCENTILES_NR; i++) {
		double want = ceil(fio_percentiles[i] / 100.0 * 100000.0);
		uint64_t got = hist_percentile(&h, fio_percentiles[i]);

		CHECK_MSG(fabs((double)got - want) <= want * 0.008,
			  "p%.2f of uniform 1..100000 = %llu, want %.0f +-0.8%%",
			  fio_percentiles[i], (unsigned long long)got, want);
	}
	CHECK(hist_count_below(&h, 100) == 99);
	CHECK(hist_count_below(&h, 1) == 0);
	{
		uint64_t below = hist_count_below(&h, 50000);

		CHECK_MSG(below >= 49500 && below <= 50500,
			  "count below 50000 = %llu", (unsigned long long)below);
	}

	/* A constant: every percentile is that value's slot. */
	memset(&h, 0, sizeof(h));
	for (i = 0; i < 1000; i++)
		hist_add(&h, 12345);
	for (i = 0; i < FIO_PERCENTILES_NR; i++)
		CHECK(hist_percentile(&h, fio_percentiles[i]) ==
		      iodig_hist_slot_mid(iodig_hist_slot(12345)));
	CHECK(fabs((double)hist_percentile(&h, 50) - 12345.0) <= 12345.0 / 128.0);

	/* Two points, 900 x 100 ns and 100 x 1 ms: p90 is exactly the 900th
	 * sample (still 100), p90.1 already the second point. */
	memset(&h, 0, sizeof(h));
	for (i = 0; i < 900; i++)
		hist_add(&h, 100);
	for (i = 0; i < 100; i++)
		hist_add(&h, 1000000);
	CHECK(hist_percentile(&h, 50.0) == 100);
	CHECK(hist_percentile(&h, 90.0) == 100);
	CHECK(hist_percentile(&h, 90.1) == iodig_hist_slot_mid(iodig_hist_slot(1000000)));
	CHECK(hist_percentile(&h, 99.99) == iodig_hist_slot_mid(iodig_hist_slot(1000000)));
	CHECK(hist_count_below(&h, 101) == 900);
	CHECK(hist_count_below(&h, 100) == 0);

	/* Three samples: p50 is the 2nd (ceil 1.5), p1 the 1st, p99.99 the 3rd. */
	memset(&h, 0, sizeof(h));
	hist_add(&h, 10);
	hist_add(&h, 20);
	hist_add(&h, 30);
	CHECK(hist_percentile(&h, 1.0) == 10);
	CHECK(hist_percentile(&h, 50.0) == 20);
	CHECK(hist_percentile(&h, 66.0) == 20);
	CHECK(hist_percentile(&h, 67.0) == 30);
	CHECK(hist_percentile(&h, 99.99) == 30);
}

static void test_welford(void)
{
	static uint64_t vals[20000];
	struct lat_acc a, parts[3], merged;
	uint64_t state = 42, min = UINT64_MAX, max = 0;
	double sum = 0.0, mean, ss = 0.0, stdev;
	unsigned int i;

	memset(&a, 0, sizeof(a));
	memset(parts, 0, sizeof(parts));
	memset(&merged, 0, sizeof(merged));
	for (i = 0; i < 20000; i++) {
		/* latency-like: 10 us base plus a long tail */
		vals[i] = 10000 + lcg(&state) % 50000 +
			  (i % 97 == 0 ? lcg(&state) % 5000000 : 0);
		sum += (double)vals[i];
		if (vals[i] < min)
			min = vals[i];
		if (vals[i] > max)
			max = vals[i];
	}
	mean = sum / 20000.0;
	for (i = 0; i < 20000; i++)
		ss += ((double)vals[i] - mean) * ((double)vals[i] - mean);
	stdev = sqrt(ss / 19999.0);

	for (i = 0; i < 20000; i++) {
		lat_acc_add(&a, vals[i]);
		/* uneven parts; part 2 gets the tail */
		lat_acc_add(&parts[i < 7 ? 0 : i < 12000 ? 1 : 2], vals[i]);
	}
	CHECK(a.n == 20000 && a.min == min && a.max == max);
	CHECK_MSG(near(a.mean, mean, 1e-12), "mean %f vs two-pass %f", a.mean, mean);
	CHECK_MSG(near(lat_acc_stdev(&a), stdev, 1e-9), "stdev %f vs two-pass %f",
		  lat_acc_stdev(&a), stdev);

	{
		struct lat_acc empty;

		memset(&empty, 0, sizeof(empty));
		lat_acc_merge(&merged, &empty);     /* empty into empty */
		for (i = 0; i < 3; i++)
			lat_acc_merge(&merged, &parts[i]);
		lat_acc_merge(&merged, &empty);     /* empty into full */
	}
	CHECK(merged.n == a.n && merged.min == a.min && merged.max == a.max);
	CHECK_MSG(near(merged.mean, a.mean, 1e-12), "merged mean %f vs %f",
		  merged.mean, a.mean);
	CHECK_MSG(near(merged.m2, a.m2, 1e-9), "merged m2 %f vs %f", merged.m2, a.m2);

	/* One sample has no spread; two samples use n-1 (sample stdev). */
	memset(&a, 0, sizeof(a));
	lat_acc_add(&a, 7);
	CHECK(lat_acc_stdev(&a) == 0.0 && a.min == 7 && a.max == 7 && a.mean == 7.0);
	lat_acc_add(&a, 9);
	CHECK(near(lat_acc_stdev(&a), sqrt(2.0), 1e-12));
}

static void test_hist_merge(void)
{
	static struct hist all, a, b;
	uint64_t state = 7;
	unsigned int i;

	memset(&all, 0, sizeof(all));
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	for (i = 0; i < 5000; i++) {
		uint64_t v = lcg(&state) % 3000000;

		hist_add(&all, v);
		hist_add(i & 1 ? &a : &b, v);
	}
	hist_merge(&a, &b);
	CHECK(a.total == all.total);
	CHECK(memcmp(a.slot, all.slot, sizeof(a.slot)) == 0);
	CHECK(hist_percentile(&a, 99.9) == hist_percentile(&all, 99.9));
}

static void test_buckets(void)
{
	static const struct { unsigned int v, depth, batch; } t[] = {
		{ 0, 0, 0 }, { 1, 0, 1 }, { 2, 1, 1 }, { 3, 1, 1 }, { 4, 2, 1 },
		{ 5, 2, 2 }, { 7, 2, 2 }, { 8, 3, 2 }, { 9, 3, 3 }, { 15, 3, 3 },
		{ 16, 4, 3 }, { 17, 4, 4 }, { 31, 4, 4 }, { 32, 5, 4 },
		{ 33, 5, 5 }, { 63, 5, 5 }, { 64, 6, 5 }, { 65, 6, 6 },
		{ 4096, 6, 6 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		CHECK_MSG(depth_bucket(t[i].v) == t[i].depth, "depth_bucket(%u) = %u, want %u",
			  t[i].v, depth_bucket(t[i].v), t[i].depth);
		CHECK_MSG(batch_bucket(t[i].v) == t[i].batch, "batch_bucket(%u) = %u, want %u",
			  t[i].v, batch_bucket(t[i].v), t[i].batch);
	}
}

static void account(struct worker_stats *s, enum ddir d, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		stats_account_io(s, d, 4096, 4096, 2000, 50000, 52000, true);
}

static void test_intervals(void)
{
	static struct worker_stats s;
	const uint64_t t0 = 5000000000ull, ms = 1000000ull;
	const struct ddir_stats *r = &s.dir[DDIR_READ], *w = &s.dir[DDIR_WRITE];

	worker_stats_init(&s);
	stats_configure(&s, &(struct job_stat_opts){ .bw_avg_msec = 500, .iops_avg_msec = 500 });
	stats_tick(&s, t0);                 /* opens the first interval */
	CHECK(s.bw_iv_start_ns == t0 && s.iops_iv_start_ns == t0);

	account(&s, DDIR_READ, 100);
	stats_tick(&s, t0 + 499 * ms);      /* not closed yet */
	CHECK(r->bw_kib.n == 0 && r->iv_ios == 100);
	stats_tick(&s, t0 + 500 * ms);      /* 100 x 4 KiB in 0.5 s */
	CHECK(r->bw_kib.n == 1 && r->bw_kib.min == 800 && r->iops.min == 200);
	CHECK(w->bw_kib.n == 0);            /* no writes: no write sample */

	account(&s, DDIR_READ, 50);
	account(&s, DDIR_WRITE, 10);
	stats_tick(&s, t0 + 1000 * ms);
	CHECK(r->bw_kib.n == 2 && r->bw_kib.min == 400);
	CHECK(w->bw_kib.n == 1 && w->bw_kib.min == 80 && w->iops.min == 20);

	stats_tick(&s, t0 + 1500 * ms);     /* idle interval: fio takes no sample */
	CHECK(r->bw_kib.n == 2 && w->bw_kib.n == 1);
	CHECK(s.bw_iv_start_ns == t0 + 1500 * ms);

	account(&s, DDIR_READ, 25);
	stats_tick(&s, t0 + 2000 * ms);
	CHECK(r->bw_kib.n == 3 && r->bw_kib.min == 200 && r->bw_kib.max == 800);
	CHECK(near(r->bw_kib.mean, (800.0 + 400.0 + 200.0) / 3.0, 1e-12));
	CHECK(near(r->iops.mean, (200.0 + 100.0 + 50.0) / 3.0, 1e-12));

	/* A late tick: the rate is over the time that really passed. */
	account(&s, DDIR_READ, 100);
	stats_tick(&s, t0 + 3000 * ms);
	CHECK(r->bw_kib.n == 4 && r->bw_kib.min == 200);
	CHECK(r->iops.n == 4 && r->iops.max == 200 && r->iv_ios == 0);

	CHECK(r->ios == 275 && r->bytes == 275 * 4096ull && w->ios == 10);
	CHECK(r->clat.n == 275 && r->slat.n == 275 && r->clat_h.total == 275);
}

/* bwavgtime and iopsavgtime: each sample kind its own window. */
static void test_separate_windows(void)
{
	static struct worker_stats s;
	const uint64_t t0 = 5000000000ull, ms = 1000000ull;
	const struct ddir_stats *r = &s.dir[DDIR_READ];

	worker_stats_init(&s);
	stats_configure(&s, &(struct job_stat_opts){ .bw_avg_msec = 1000, .iops_avg_msec = 250 });
	stats_start_windows(&s, t0);
	for (unsigned int q = 1; q <= 8; q++) {   /* 10 reads each 250 ms */
		account(&s, DDIR_READ, 10);
		stats_tick(&s, t0 + q * 250 * ms);
	}
	CHECK_MSG(r->iops.n == 8 && r->iops.min == 40 && r->iops.max == 40,
		  "iops samples %llu (%llu-%llu), want 8 of 40",
		  (unsigned long long)r->iops.n, (unsigned long long)r->iops.min,
		  (unsigned long long)r->iops.max);
	CHECK_MSG(r->bw_kib.n == 2 && r->bw_kib.min == 160 && r->bw_kib.max == 160,
		  "bw samples %llu, want 2 of 160 KiB/s", (unsigned long long)r->bw_kib.n);
}

/* An unaveraged write_bw_log/write_iops_log: fio samples every I/O. */
static void test_per_io_samples(void)
{
	static struct worker_stats s;
	const struct ddir_stats *r = &s.dir[DDIR_READ];

	worker_stats_init(&s);
	stats_configure(&s, &(struct job_stat_opts){ .bw_avg_msec = 500, .iops_avg_msec = 500,
						      .bw_per_io = true, .iops_per_io = true });
	stats_start_windows(&s, 1000);
	account(&s, DDIR_READ, 3);                 /* 4096 B, clat 50 us each */
	stats_tick(&s, 1000 + 2000000000ull);      /* windows: none taken */
	CHECK(r->bw_kib.n == 3 && r->bw_kib.min == 4096ull * 1000000 / 50000);
	CHECK(r->iops.n == 3 && r->iops.min == 1 && r->iops.max == 1);
}

static void test_account_and_merge(void)
{
	static struct worker_stats a, b, sum;

	worker_stats_init(&a);
	worker_stats_init(&b);
	worker_stats_init(&sum);

	/* sync engine: no slat; a short read */
	stats_account_io(&a, DDIR_READ, 4096, 4096, 0, 1500, 1600, false);
	stats_account_io(&a, DDIR_READ, 512, 4096, 0, 2500, 2600, false);
	CHECK(a.dir[DDIR_READ].slat.n == 0 && a.dir[DDIR_READ].slat_h.total == 0);
	CHECK(a.dir[DDIR_READ].clat.n == 2 && a.dir[DDIR_READ].lat.min == 1600);
	CHECK(a.dir[DDIR_READ].short_ios == 1 && a.dir[DDIR_READ].bytes == 4608);

	stats_account_io(&b, DDIR_READ, 4096, 4096, 100, 900, 1000, true);
	a.pid = 100, a.tid = 100, a.start_ns = 2000, a.end_ns = 9000;
	b.pid = 200, b.tid = 201, b.start_ns = 1000, b.end_ns = 8000;
	a.runtime_ns = 7000, b.runtime_ns = 6000;
	a.usr_ns = 10, b.usr_ns = 20;
	a.issued[DDIR_READ] = 2, b.issued[DDIR_READ] = 1;
	a.depth_dist[0] = 2, b.depth_dist[3] = 1;
	b.error = -EIO;
	snprintf(b.errmsg, sizeof(b.errmsg), "read failed");
	/* bw samples add up across members (fio's group_reporting sum) */
	lat_acc_add(&a.dir[DDIR_READ].bw_kib, 100);
	lat_acc_add(&a.dir[DDIR_READ].bw_kib, 300);
	lat_acc_add(&b.dir[DDIR_READ].bw_kib, 1000);
	lat_acc_add(&b.dir[DDIR_READ].bw_kib, 1000);
	a.done = true, b.done = true;

	worker_stats_merge(&sum, &a);
	worker_stats_merge(&sum, &b);
	CHECK(sum.dir[DDIR_READ].ios == 3 && sum.issued[DDIR_READ] == 3);
	CHECK(sum.dir[DDIR_READ].clat.n == 3 && sum.dir[DDIR_READ].clat.min == 900);
	CHECK(sum.dir[DDIR_READ].slat.n == 1 && sum.dir[DDIR_READ].clat_h.total == 3);
	CHECK(sum.start_ns == 1000 && sum.end_ns == 9000 && sum.runtime_ns == 7000);
	CHECK(sum.usr_ns == 30 && sum.depth_dist[0] == 2 && sum.depth_dist[3] == 1);
	CHECK(sum.pid == 100 && sum.error == -EIO && strcmp(sum.errmsg, "read failed") == 0);
	CHECK(sum.done);
	CHECK(sum.dir[DDIR_READ].bw_kib.n == 4 && sum.dir[DDIR_READ].bw_kib.min == 1100 &&
	      sum.dir[DDIR_READ].bw_kib.max == 1300);
	CHECK(near(sum.dir[DDIR_READ].bw_kib.mean, 1200.0, 1e-12));

	/* the first error stays */
	a.error = -ENOSPC;
	worker_stats_merge(&sum, &a);
	CHECK(sum.error == -EIO);
	b.done = false;
	worker_stats_merge(&sum, &b);
	CHECK(!sum.done);
}

/* fio's runtime[ddir]: phases add up per direction in whole µs; a group
 * takes each direction's longest member; reads of the verify log count
 * in the totals but in no bw/iops sample. */
static void test_ddir_time(void)
{
	static struct worker_stats a, b, sum;
	const uint64_t t0 = 5000000000ull, ms = 1000000ull;

	worker_stats_init(&a);
	worker_stats_init(&b);
	worker_stats_init(&sum);
	stats_add_ddir_time(&a, DDIR_WRITE, 700 * ms + 999);
	stats_add_ddir_time(&a, DDIR_READ, 300 * ms);
	stats_add_ddir_time(&a, DDIR_READ, 1999);
	CHECK(a.ddir_run_us[DDIR_WRITE] == 700000 && a.ddir_run_us[DDIR_READ] == 300001);
	stats_add_ddir_time(&b, DDIR_READ, 200 * ms);
	stats_add_ddir_time(&b, DDIR_WRITE, 900 * ms);
	worker_stats_merge(&sum, &a);
	worker_stats_merge(&sum, &b);
	CHECK(sum.ddir_run_us[DDIR_READ] == 300001 && sum.ddir_run_us[DDIR_WRITE] == 900000);
	CHECK(sum.ddir_run_us[DDIR_TRIM] == 0);

	stats_tick(&a, t0);
	account(&a, DDIR_READ, 10);
	stats_unsample_io(&a, DDIR_READ, 4096);
	stats_unsample_io(&a, DDIR_READ, 4096);
	CHECK(a.dir[DDIR_READ].ios == 10 && a.dir[DDIR_READ].iv_ios == 8);
	CHECK(a.dir[DDIR_READ].iv_bytes == 8 * 4096ull);
	stats_tick(&a, t0 + 500 * ms);
	CHECK(a.dir[DDIR_READ].iops.n == 1 && a.dir[DDIR_READ].iops.min == 16);
	/* an interval of verify reads alone takes no sample */
	account(&a, DDIR_READ, 1);
	stats_unsample_io(&a, DDIR_READ, 4096);
	stats_tick(&a, t0 + 1000 * ms);
	CHECK(a.dir[DDIR_READ].iops.n == 1 && a.dir[DDIR_READ].ios == 11);
	stats_reset_io(&a);
	CHECK(a.ddir_run_us[DDIR_READ] == 0 && a.ddir_run_us[DDIR_WRITE] == 0);
}

int main(void)
{
	test_msb();
	test_slot_math();
	test_percentiles();
	test_welford();
	test_hist_merge();
	test_buckets();
	test_intervals();
	test_separate_windows();
	test_per_io_samples();
	test_account_and_merge();
	test_ddir_time();
	return CHECK_DONE();
}
