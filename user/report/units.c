// SPDX-License-Identifier: GPL-2.0
/* fio's number formatting and the figures both reports derive from stats. */
#include <stdio.h>
#include <string.h>

#include "report/units.h"

#define PREFIX_NR 6

static unsigned int digits(uint64_t v)
{
	unsigned int n = 1;

	while (v >= 10) {
		v /= 10;
		n++;
	}
	return n;
}

/*
 * Same rules as fio's num2str, including its quirk that a remainder which
 * rounds up to a whole unit prints as ".0" of the lower value (fio calls
 * it "carry rounding error"): matching it keeps our lines diffable
 * against fio's.
 */
char *fio_num2str(char *buf, size_t len, uint64_t num, int maxlen,
		  unsigned int base, bool pow2, enum n2s_unit unit)
{
	static const char *const si[PREFIX_NR] = { "", "k", "M", "G", "T", "P" };
	static const char *const iec[PREFIX_NR] = { "", "Ki", "Mi", "Gi", "Ti", "Pi" };
	static const char *const unit_str[] = {
		[N2S_NONE] = "", [N2S_BYTE] = "B", [N2S_BYTEPERSEC] = "B/s",
	};
	const char *const *prefix = pow2 ? iec : si;
	const unsigned int k = pow2 ? 1024 : 1000;
	unsigned int idx = 0, rem = 0;
	bool divided = false, carry = false;
	int room;
	char frac[32];

	for (; base > 1 && idx < PREFIX_NR - 1; idx++)
		base /= k;

	while (idx < PREFIX_NR - 1 && (int)digits(num) > maxlen) {
		rem = (unsigned int)(num % k);
		num /= k;
		carry = rem >= k / 2;
		divided = true;
		idx++;
	}

	room = maxlen - (int)digits(num);
	if (!divided || room <= 1) {
		if (divided && carry)
			num++;
		snprintf(buf, len, "%llu%s%s", (unsigned long long)num,
			 prefix[idx], unit_str[unit]);
		return buf;
	}
	/* "%.Nf" of a fraction in [0, 1) prints "0.xx" (or "1.00"); keep
	 * the digits after the point. */
	snprintf(frac, sizeof(frac), "%.*f", room - 1, (double)rem / (double)k);
	snprintf(buf, len, "%llu.%s%s%s", (unsigned long long)num, frac + 2,
		 prefix[idx], unit_str[unit]);
	return buf;
}

char *size_to_str(char *buf, size_t len, uint64_t bytes)
{
	static const char suffix[] = { 'p', 't', 'g', 'm', 'k' };
	unsigned int i;

	for (i = 0; i < sizeof(suffix) && bytes; i++) {
		unsigned int shift = 10 * (unsigned int)(sizeof(suffix) - i);
		uint64_t unit = 1ull << shift;

		if (bytes % unit == 0) {
			snprintf(buf, len, "%llu%c",
				 (unsigned long long)(bytes >> shift), suffix[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)bytes);
	return buf;
}

char *time_to_str(char *buf, size_t len, uint64_t ns)
{
	if (ns % 1000000000ull == 0)
		snprintf(buf, len, "%llu", (unsigned long long)(ns / 1000000000ull));
	else if (ns % 1000000ull == 0)
		snprintf(buf, len, "%llums", (unsigned long long)(ns / 1000000ull));
	else if (ns % 1000ull == 0)
		snprintf(buf, len, "%lluus", (unsigned long long)(ns / 1000ull));
	else
		snprintf(buf, len, "%lluns", (unsigned long long)ns);
	return buf;
}

uint64_t stats_runtime_ms(const struct worker_stats *st)
{
	return st->runtime_ns / 1000000ull;
}

uint64_t stats_ddir_runtime_ms(const struct worker_stats *st, enum ddir d)
{
	return (st->ddir_run_us[d] + 999) / 1000;
}

uint64_t stats_total_run_ms(const struct worker_stats *st, unsigned int nr_workers)
{
	return stats_runtime_ms(st) * (nr_workers ? nr_workers : 1);
}

/* fio divides whole CPU ms by total_run_time ms. */
double stats_cpu_pct(uint64_t cpu_ns, const struct worker_stats *st,
		     unsigned int nr_workers)
{
	uint64_t run_ms = stats_total_run_ms(st, nr_workers);

	if (!run_ms)
		return 0.0;
	return (double)(cpu_ns / 1000000ull) * 100.0 / (double)run_ms;
}

const char *const dist_depth_labels[DIST_BUCKETS] = {
	"1", "2", "4", "8", "16", "32", ">=64" };
const char *const dist_batch_labels[DIST_BUCKETS] = {
	"0", "4", "8", "16", "32", "64", ">=64" };

void dist_pct(const uint64_t map[DIST_BUCKETS], double out[DIST_BUCKETS])
{
	uint64_t total = 0;
	unsigned int i;

	for (i = 0; i < DIST_BUCKETS; i++)
		total += map[i];
	for (i = 0; i < DIST_BUCKETS; i++) {
		out[i] = 0.0;
		if (!total)
			continue;
		out[i] = (double)map[i] * 100.0 / (double)total;
		if (map[i] && out[i] < 0.1)
			out[i] = 0.1;
	}
}

const char *const lat_bucket_labels[LAT_M_NR] = {
	"2", "4", "10", "20", "50", "100", "250", "500", "750", "1000",
	"2000", ">=2000",
};

/* Upper ends of the first ten buckets of each unit, in that unit. */
static const uint64_t lat_bucket_upper[LAT_U_NR] = {
	2, 4, 10, 20, 50, 100, 250, 500, 750, 1000,
};

static uint64_t clat_below(const struct worker_stats *st, uint64_t limit_ns)
{
	uint64_t n = 0;
	unsigned int d;

	for (d = 0; d < DDIR_COUNT; d++)
		n += hist_count_below(&st->dir[d].clat_h, limit_ns);
	return n;
}

static double lat_pct(uint64_t count, uint64_t total)
{
	double p;

	if (!total || !count)
		return 0.0;
	p = (double)count * 100.0 / (double)total;
	return p < 0.01 ? 0.01 : p;
}

/*
 * fio files each completion by its clat: below 1 us by nsec, below 1 ms by
 * usec, else by msec, each bucket named by its upper end.  The buckets
 * are contiguous, so each one is below(upper) - below(lower).
 */
void lat_buckets_pct(const struct worker_stats *st, double n[LAT_N_NR],
		     double u[LAT_U_NR], double m[LAT_M_NR])
{
	uint64_t total = 0, prev = 0, cur;
	unsigned int d, i;

	for (d = 0; d < DDIR_COUNT; d++)
		total += st->dir[d].clat_h.total;

	for (i = 0; i < LAT_N_NR; i++) {
		cur = clat_below(st, lat_bucket_upper[i]);
		n[i] = lat_pct(cur - prev, total);
		prev = cur;
	}
	for (i = 0; i < LAT_U_NR; i++) {
		cur = clat_below(st, lat_bucket_upper[i] * 1000ull);
		u[i] = lat_pct(cur - prev, total);
		prev = cur;
	}
	for (i = 0; i < LAT_M_NR - 1; i++) {
		uint64_t upper_ms = i < LAT_U_NR ? lat_bucket_upper[i] : 2000;

		cur = clat_below(st, upper_ms * 1000000ull);
		m[i] = lat_pct(cur - prev, total);
		prev = cur;
	}
	m[LAT_M_NR - 1] = lat_pct(total - prev, total);
}

double bw_share_pct(double mean_kib, uint64_t group_agg_bytes)
{
	double p;

	if (group_agg_bytes <= 1024)
		return 100.0;
	p = (double)(int64_t)mean_kib * 100.0 / ((double)group_agg_bytes / 1024.0);
	return p > 100.0 ? 100.0 : p;
}
