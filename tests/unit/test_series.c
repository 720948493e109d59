// Latency over time: the supervisor's interval sums add up exactly to the workers' totals and follow the interval grid, the --steady rule finds a known transient, trace files with iodig.series read back (older ones without it still load, bad series are refused naming the file), and the chart has its panels.
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/check.h"
#include "analysis/tracefile.h"
#include "run/series_collect.h"
#include "svg/svg.h"

#define MS 1000000ull

/* Two clones of one randrw job: every I/O goes through stats_account_io,
 * as in a worker, and the supervisor ticks between them. */
static void test_collect(void)
{
	struct job job = { .name = "j", .rw = RW_RANDRW, .stats = true, .numjobs = 2 };
	struct worker_stats st[2];
	struct worker w[2] = { { .job = &job, .stats = &st[0] }, { .job = &job, .stats = &st[1] } };
	struct series_collector c = { 0 };
	struct errbuf err = { "" };
	uint64_t t0 = 1000 * MS, ios[DDIR_COUNT] = { 0 }, sum[DDIR_COUNT] = { 0 };

	memset(st, 0, sizeof(st));
	CHECK(series_collect_begin(&c, &job, 1, 100, &err) == 0);
	CHECK(c.set.n == 2 && c.set.s[0].ddir == DDIR_READ && c.set.s[1].ddir == DDIR_WRITE);
	/* nothing measured yet (ramp_time): no interval, no wake-up due */
	CHECK(series_collect_tick(&c, w, 2, t0, false) == 0 && c.set.s[0].n == 0);
	st[0].start_ns = st[1].start_ns = t0;
	for (unsigned int k = 1; k <= 2500; k++) {
		uint64_t now = t0 + k * MS / 2;   /* 1.25 s, an I/O every 0.5 ms */
		enum ddir d = k % 3 ? DDIR_READ : DDIR_WRITE;

		stats_account_io(&st[k % 2], d, 4096, 4096, 1000, 1000 + k % 7 * 1000, 3000, true);
		ios[d]++;
		if (k % 17 == 0)
			CHECK(series_collect_tick(&c, w, 2, now, false) == 0);
	}
	st[0].end_ns = st[1].end_ns = t0 + 1250 * MS;
	st[0].done = st[1].done = true;
	CHECK(series_collect_tick(&c, w, 2, t0 + 1300 * MS, true) == 0);
	CHECK(series_collect_due(&c, w, 2, t0) == 0);
	for (int d = 0; d <= DDIR_WRITE; d++) { /* randrw: no trims */
		const struct series *s = &c.set.s[d];

		/* 12 whole intervals and the quarter one to the end */
		CHECK_MSG(s->n == 13, "%zu intervals", s->n);
		for (size_t i = 0; i < s->n; i++) {
			sum[d] += s->pts[i].ios;
			CHECK(s->pts[i].clat_p99_ns >= s->pts[i].clat_p50_ns);
			CHECK(s->pts[i].dur_ns > 0 && s->pts[i].lat_mean_ns == 3000);
		}
		CHECK(s->n && s->pts[s->n - 1].end_ns == 1250 * MS);
		CHECK_MSG(sum[d] == ios[d], "direction %d: %llu in intervals, %llu done", d,
			  (unsigned long long)sum[d], (unsigned long long)ios[d]);
	}
	series_collect_free(&c);
}

/* 10 intervals at 100 IOPS, then 30 at 1000: steady from the 11th. */
static void test_steady(void)
{
	struct series s = { .interval_ns = 100 * MS };

	for (unsigned int i = 0; i < 40; i++) {
		struct series_point p = { .end_ns = (i + 1) * 100 * MS, .dur_ns = 100 * MS,
					  .ios = i < 10 ? 10 : 100 };

		CHECK(series_append(&s, &p) == 0);
	}
	CHECK_MSG(series_steady_start(&s) == 10, "%zu", series_steady_start(&s));
	s.n = 2 * SERIES_STEADY_WINDOW - 1;   /* too short to tell */
	CHECK(series_steady_start(&s) == 0);
	free(s.pts);
}

static const char with_series[] =
"{ \"iodig_trace_version\": \"1.2\", \"jobs\": [],\n"
"  \"iodig\": { \"environment\": {}, \"figure_definitions\": [],\n"
"    \"repeats\": { \"runs\": [ { \"figures\": { \"iops\": 93 } } ] },\n"
"    \"series\": [ { \"job\": \"j\", \"ddir\": \"write\", \"interval_ns\": 100000000, \"ramp_ns\": 0,\n"
"      \"end_ns\": [ 100000000, 150000000 ], \"dur_ns\": [ 100000000, 50000000 ],\n"
"      \"ios\": [ 10, 4 ], \"bytes\": [ 40960, 16384 ], \"clat_p50_ns\": [ 900, 1000 ],\n"
"      \"clat_p99_ns\": [ 2000, 3000 ], \"lat_mean_ns\": [ 1200, 1300 ] } ] } }\n";

static void expect_refused(const char *from, const char *to, const char *what)
{
	char *doc = malloc(sizeof(with_series) + strlen(to));
	const char *p = strstr(with_series, from);
	struct tracefile *tf = NULL;
	struct errbuf err = { "" };

	if (!doc || !p) {
		CHECK(doc && p);
		free(doc);
		return;
	}
	sprintf(doc, "%.*s%s%s", (int)(p - with_series), with_series, to, p + strlen(from));
	CHECK_MSG(tracefile_parse_buffer("s.json", doc, strlen(doc), &tf, &err) != 0 &&
		  strstr(err.msg, "s.json") && strstr(err.msg, what), "%s -> %s: %s", from, to, err.msg);
	tracefile_free(tf);
	free(doc);
}

static void test_read(void)
{
	struct tracefile *tf = NULL;
	struct errbuf err = { "" };

	CHECK_MSG(tracefile_parse_buffer("s.json", with_series, strlen(with_series), &tf, &err) == 0,
		  "%s", err.msg);
	if (tf) {
		const struct series *s = &tf->series.s[0];

		CHECK(tf->series.n == 1 && !strcmp(s->job, "j") && s->ddir == DDIR_WRITE);
		CHECK(s->n == 2 && s->pts[1].ios == 4 && s->pts[1].dur_ns == 50 * MS);
		CHECK(series_iops(&s->pts[1]) == 80 && s->pts[0].lat_mean_ns == 1200);
	}
	tracefile_free(tf);
	expect_refused("\"ios\": [ 10, 4 ]", "\"ios\": [ 10 ]", "iodig.series[0].ios");
	expect_refused("\"ios\": [ 10, 4 ]", "\"ios\": [ 10, -4 ]", "iodig.series[0].ios");
	expect_refused("\"dur_ns\": [ 100000000, 50000000 ]", "\"dur_ns\": [ 100000000, 60000000 ]",
		       "overlaps");
	expect_refused("\"ddir\": \"write\"", "\"ddir\": \"sync\"", "ddir");
	expect_refused("\"series\": [", "\"series\": 3, \"x\": [", "not an array");
}

/* Files written before 1.2 (the fuzzing seeds are real runs' files)
 * load with an empty series. */
static void test_old_files(void)
{
	static const char *const old[] = {
		"tests/fuzz/seeds/tracefile/trace_write.json",
		"tests/fuzz/seeds/tracefile/groups_v1_1.json",
	};

	for (size_t i = 0; i < 2; i++) {
		struct tracefile *tf = NULL;
		struct errbuf err = { "" };

		CHECK_MSG(tracefile_load(old[i], &tf, &err) == 0, "%s", err.msg);
		CHECK(tf && (tf->minor < 2 && tf->series.n == 0));
		tracefile_free(tf);
	}
}

static void test_chart(void)
{
	struct series_point p[3] = {
		{ 100 * MS, 100 * MS, 10, 40960, 900, 2000, 1200 },
		{ 200 * MS, 100 * MS, 12, 49152, 800, 2500, 1100 },
		{ 250 * MS, 50 * MS, 5, 20480, 700, 1500, 1000 },
	};
	struct series s = { .job = "j<&>", .interval_ns = 100 * MS, .ramp_ns = 500 * MS,
			    .pts = p, .n = 3 };
	struct ts_line l = { &s, s.job, 1 };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK(f && timeseries_plot_write(f, "t", &l, 1) == 0);
	if (f)
		fclose(f);
	CHECK(text && strstr(text, "id=\"panel-iops\"") && strstr(text, "id=\"panel-clat\""));
	CHECK(text && strstr(text, "class=\"ramp\"") && strstr(text, "class=\"transient\""));
	CHECK(text && strstr(text, "j&lt;&amp;&gt;") && !strstr(text, "j<&>"));
	free(text);
}

int main(void)
{
	test_collect();
	test_steady();
	test_read();
	test_old_files();
	test_chart();
	return CHECK_DONE();
}
