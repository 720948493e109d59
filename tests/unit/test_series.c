// Latency over time: the supervisor's interval sums add up exactly to the workers' totals and follow the interval grid, the --steady rule finds a known transient, trace files with iodig.series read back, 1.3's per repeat in iodig.repeats.runs[].series and 1.2's as the last repeat's (older ones without it still load, bad series are refused naming the file and key), and the chart has its panels, earlier repeats thin without a legend line of their own.
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

/* 1.3: two repeats, each its series in its run; iodig.series (the last
 * one's again, for 1.2 readers) is not read. */
#define SERIES_OF(ios) \
"[ { \"job\": \"j\", \"ddir\": \"read\", \"interval_ns\": 100000000, \"ramp_ns\": 0,\n" \
"  \"end_ns\": [ 100000000 ], \"dur_ns\": [ 100000000 ], \"ios\": [ " ios " ], \"bytes\": [ 4096 ],\n" \
"  \"clat_p50_ns\": [ 900 ], \"clat_p99_ns\": [ 2000 ], \"lat_mean_ns\": [ 1200 ] } ]"
static const char per_repeat[] =
"{ \"iodig_trace_version\": \"1.3\", \"jobs\": [],\n"
"  \"iodig\": { \"environment\": {}, \"figure_definitions\": [], \"series\": " SERIES_OF("99") ",\n"
"    \"repeats\": { \"runs\": [ { \"figures\": { \"iops\": 7 }, \"series\": " SERIES_OF("7") " },\n"
"      { \"figures\": { \"iops\": 8 }, \"series\": " SERIES_OF("8") " } ] } } }\n";

static void expect_refused_in(const char *base, const char *from, const char *to,
			      const char *what)
{
	char *doc = malloc(strlen(base) + 1 + strlen(to));
	const char *p = strstr(base, from);
	struct tracefile *tf = NULL;
	struct errbuf err = { "" };

	if (!doc || !p) {
		CHECK(doc && p);
		free(doc);
		return;
	}
	sprintf(doc, "%.*s%s%s", (int)(p - base), base, to, p + strlen(from));
	CHECK_MSG(tracefile_parse_buffer("s.json", doc, strlen(doc), &tf, &err) != 0 &&
		  strstr(err.msg, "s.json") && strstr(err.msg, what), "%s -> %s: %s", from, to, err.msg);
	tracefile_free(tf);
	free(doc);
}

static void expect_refused(const char *from, const char *to, const char *what)
{
	expect_refused_in(with_series, from, to, what);
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

static void test_read_repeats(void)
{
	struct tracefile *tf = NULL;
	struct errbuf err = { "" };

	CHECK_MSG(tracefile_parse_buffer("r.json", per_repeat, strlen(per_repeat), &tf, &err) == 0,
		  "%s", err.msg);
	CHECK(tf && tf->series.n == 2);
	for (size_t i = 0; tf && i < tf->series.n && i < 2; i++)
		CHECK_MSG(tf->series.s[i].repeat == i && tf->series.s[i].pts[0].ios == 7 + i,
			  "series %zu: repeat %u, %llu I/Os", i, tf->series.s[i].repeat,
			  (unsigned long long)tf->series.s[i].pts[0].ios);
	tracefile_free(tf);
	expect_refused_in(per_repeat, "\"series\": [ { \"job\": \"j\", \"ddir\": \"read\", \"interval_ns\": 100000000, \"ramp_ns\": 0,\n  \"end_ns\": [ 100000000 ], \"dur_ns\": [ 100000000 ], \"ios\": [ 8",
			  "\"x\": [ { \"job\": \"j\", \"ddir\": \"read\", \"interval_ns\": 100000000, \"ramp_ns\": 0,\n  \"end_ns\": [ 100000000 ], \"dur_ns\": [ 100000000 ], \"ios\": [ 8",
			  "iodig.repeats.runs[1].series is missing");
	expect_refused_in(per_repeat, "\"ios\": [ 8 ]", "\"ios\": [ -8 ]",
			  "iodig.repeats.runs[1].series[0].ios");
}

/* A 1.2 file's series are its last repeat's. */
static void test_read_last_repeat(void)
{
	static const char *const from = "{ \"figures\": { \"iops\": 93 } }";
	static const char *const to = "{ \"figures\": { \"iops\": 90 } }, { \"figures\": { \"iops\": 93 } }";
	char *doc = malloc(sizeof(with_series) + strlen(to));
	const char *p = strstr(with_series, from);
	struct tracefile *tf = NULL;
	struct errbuf err = { "" };

	CHECK(doc && p);
	if (doc && p) {
		sprintf(doc, "%.*s%s%s", (int)(p - with_series), with_series, to, p + strlen(from));
		CHECK_MSG(tracefile_parse_buffer("l.json", doc, strlen(doc), &tf, &err) == 0, "%s", err.msg);
		CHECK(tf && tf->nr_repeats == 2 && tf->series.n == 1 && tf->series.s[0].repeat == 1);
	}
	tracefile_free(tf);
	free(doc);
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

/* A real --repeat=2 run's file (a fuzzing seed): each run's series. */
static void test_real_repeats(void)
{
	struct tracefile *tf = NULL;
	struct errbuf err = { "" };
	size_t per_repeat[2] = { 0, 0 };

	CHECK_MSG(tracefile_load("tests/fuzz/seeds/tracefile/series_repeats_v1_3.json", &tf, &err) == 0,
		  "%s", err.msg);
	for (size_t i = 0; tf && i < tf->series.n; i++)
		if (tf->series.s[i].repeat < 2)
			per_repeat[tf->series.s[i].repeat]++;
	CHECK(tf && tf->minor == 3 && tf->nr_repeats == 2 && tf->series.n == 4);
	CHECK_MSG(per_repeat[0] == 2 && per_repeat[1] == 2, "%zu, %zu", per_repeat[0], per_repeat[1]);
	tracefile_free(tf);
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
	struct series earlier = s;
	struct ts_line l[2] = { { .s = &s, .name = s.job, .steady_from = 1, .nr_thin = 1 },
				{ .s = &earlier, .name = s.job, .thin = true } };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	s.repeat = 1;
	CHECK(f && timeseries_plot_write(f, "t", l, 2) == 0);
	if (f)
		fclose(f);
	CHECK(text && strstr(text, "id=\"panel-iops\"") && strstr(text, "id=\"panel-clat\""));
	CHECK(text && strstr(text, "class=\"ramp\"") && strstr(text, "class=\"transient\""));
	CHECK(text && strstr(text, "j&lt;&amp;&gt;") && !strstr(text, "j<&>"));
	/* the earlier repeat thin and without a legend line of its own */
	CHECK(text && strstr(text, "stroke-width=\"0.8\" data-repeat=\"1\""));
	CHECK(text && strstr(text, "stroke-width=\"1.6\" data-repeat=\"2\""));
	CHECK(text && strstr(text, "bold: repeat 2, the last; thin: 1 earlier repeat)"));
	CHECK(text && strstr(text, "class=\"legend\"") &&
	      !strstr(strstr(text, "class=\"legend\"") + 1, "class=\"legend\""));
	free(text);
}

int main(void)
{
	test_collect();
	test_steady();
	test_read();
	test_read_repeats();
	test_read_last_repeat();
	test_old_files();
	test_real_repeats();
	test_chart();
	return CHECK_DONE();
}
