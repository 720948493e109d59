// SPDX-License-Identifier: GPL-2.0
/* fio's status line: "Jobs: 2 (f=2): [r(2)][40.0%][r=812MiB/s][r=208k IOPS][eta 00m:03s]" */
#include <stdio.h>
#include <string.h>

#include "base/scale.h"
#include "run/progress.h"
#include "run/run.h"

#define KIB 1024.0
static const struct scale_step scale_bytes[] = {
	{ KIB * KIB * KIB * KIB, KIB * KIB * KIB * KIB, "TiB" },
	{ KIB * KIB * KIB, KIB * KIB * KIB, "GiB" },
	{ KIB * KIB, KIB * KIB, "MiB" },
	{ KIB, KIB, "KiB" },
	{ 0, 1, "B" },
};

static const struct scale_step scale_iops[] = {
	{ 1e6, 1e6, "M" },
	{ 1e3, 1e3, "k" },
	{ 0, 1, "" },
};

static void human_rate(char *buf, size_t len, double bytes_per_s)
{
	const struct scale_step *s = scale_find(scale_bytes, bytes_per_s);
	double v = bytes_per_s / s->div;

	snprintf(buf, len, "%.*f%s/s", v < 10 ? 1 : 0, v, s->name);
}

static void human_count(char *buf, size_t len, double v)
{
	const struct scale_step *s = scale_find(scale_iops, v);

	snprintf(buf, len, "%.*f%s", s->div > 1 ? 1 : 0, v / s->div, s->name);
}

/* fio's per-worker state letters: r/R random/sequential read, w/W write
 * (trimwrite too), m/M mixed, d/D trim, _ finished; "r(4)" when all four show the same. */
static const char *status_letters(const struct run_ctx *ctx, unsigned int first,
				  unsigned int count, char *buf, size_t len)
{
	static const char letter[] = { [RW_READ] = 'R', [RW_WRITE] = 'W',
		[RW_RANDREAD] = 'r', [RW_RANDWRITE] = 'w', [RW_RW] = 'M',
		[RW_RANDRW] = 'm', [RW_TRIM] = 'D', [RW_RANDTRIM] = 'd',
		[RW_TRIMWRITE] = 'W', [RW_RANDTRIMWRITE] = 'w' };
	size_t off = 0;
	char prev = 0;
	unsigned int run = 0;

	buf[0] = 0;
	for (unsigned int i = first; i <= first + count; i++) {
		char c = 0;

		if (i < first + count)
			c = ctx->shared->stats[i].done ? '_' : letter[ctx->workers[i].job->rw];
		if (c == prev) {
			run++;
			continue;
		}
		if (prev && off < len)
			off += (size_t)snprintf(buf + off, len - off,
						run > 1 ? "%c(%u)" : "%c", prev, run);
		prev = c;
		run = 1;
	}
	return buf;
}

/* fio's "[r=..,w=..,t=..][r=..,w=..,t=.. IOPS]" over the directions the
 * jobs do (reads when none). */
static void print_rates(const bool has[DDIR_COUNT], char rate[][64],
			char iops[][32])
{
	static const char letter[DDIR_COUNT] = { 'r', 'w', 't' };
	bool any = has[DDIR_READ] || has[DDIR_WRITE] || has[DDIR_TRIM];

	for (int pass = 0; pass < 2; pass++) {
		const char *sep = "[";

		for (int d = 0; d < DDIR_COUNT; d++) {
			if (!has[d] && (any || d != DDIR_READ))
				continue;
			fprintf(stderr, "%s%c=%s", sep, letter[d],
				pass ? iops[d] : rate[d]);
			sep = ",";
		}
		fputs(pass ? " IOPS]" : "]", stderr);
	}
}

void progress_print(struct progress *p, const struct run_ctx *ctx,
		    unsigned int first, unsigned int count, uint64_t elapsed_ns,
		    uint64_t total_ns)
{
	uint64_t bytes[DDIR_COUNT] = { 0 }, ios[DDIR_COUNT] = { 0 };
	unsigned int running = 0;
	char pct[16] = "", eta[32] = "", rate[DDIR_COUNT][64];
	char iops[DDIR_COUNT][32], letters[64];
	bool has[DDIR_COUNT] = { false, false, false };
	double dt;

	for (unsigned int i = first; i < first + count; i++) {
		const struct worker_stats *s = &ctx->shared->stats[i];

		running += !s->done;
		for (int d = 0; d < DDIR_COUNT; d++) {
			has[d] |= rw_has_dir(ctx->workers[i].job->rw, (enum ddir)d);
			bytes[d] += s->dir[d].bytes;
			ios[d] += s->dir[d].ios;
		}
	}
	dt = p->last_ns && elapsed_ns > p->last_ns ?
	     (double)(elapsed_ns - p->last_ns) / 1e9 : (double)elapsed_ns / 1e9;
	for (int d = 0; d < DDIR_COUNT; d++) {
		human_rate(rate[d], sizeof(rate[d]),
			   dt > 0 ? (double)(bytes[d] - p->last_bytes[d]) / dt : 0);
		human_count(iops[d], sizeof(iops[d]),
			    dt > 0 ? (double)(ios[d] - p->last_ios[d]) / dt : 0);
		p->last_bytes[d] = bytes[d];
		p->last_ios[d] = ios[d];
	}
	p->last_ns = elapsed_ns;
	if (total_ns) {
		uint64_t left = total_ns > elapsed_ns ? (total_ns - elapsed_ns) / 1000000000ull : 0;

		snprintf(pct, sizeof(pct), "[%.1f%%]",
			 elapsed_ns >= total_ns ? 100.0 : 100.0 * (double)elapsed_ns / (double)total_ns);
		snprintf(eta, sizeof(eta), "[eta %02llum:%02llus]",
			 (unsigned long long)(left / 60), (unsigned long long)(left % 60));
	}
	fprintf(stderr, "\rJobs: %u (f=%u): [%s]%s", running, running,
		status_letters(ctx, first, count, letters, sizeof(letters)), pct);
	print_rates(has, rate, iops);
	fprintf(stderr, "%s\033[K", eta);
	fflush(stderr);
	p->shown = true;
}

void progress_clear(struct progress *p)
{
	if (!p->shown)
		return;
	fprintf(stderr, "\r\033[K");
	fflush(stderr);
	p->shown = false;
}
