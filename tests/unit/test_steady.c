// fio's steady-state detection (iops, bw and, as fio after 3.33, lat): the least squares slope and the largest deviation on hand-made series (fio's integer sums, its integer mean under a percent slope), the window's order and means as fio lists them, the ss options and their checks, and the supervisor's sampling that stops a job (and under group_reporting its group) once the criterion holds.
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/check.h"
#include "job/options.h"
#include "run/steady_check.h"
#include "workload/steady.h"

#define SEC 1000000000ull

/* Textbook least squares with centred sums, to compare fio's form with. */
static double centred_slope(const double *y, unsigned int n)
{
	double mx = (n - 1) / 2.0, my = 0, sxy = 0, sxx = 0;

	for (unsigned int k = 0; k < n; k++)
		my += y[k] / n;
	for (unsigned int k = 0; k < n; k++) {
		sxy += (k - mx) * (y[k] - my);
		sxx += (k - mx) * (k - mx);
	}
	return sxy / sxx;
}

static void test_slope(void)
{
	const uint64_t line[5] = { 1000, 1007, 1014, 1021, 1028 };
	/* the same line in a ring whose oldest sample is at index 3 */
	const uint64_t ring[5] = { 1014, 1021, 1028, 1000, 1007 };
	const uint64_t three[3] = { 10, 20, 15 };
	const uint64_t noisy[8] = { 51234, 49876, 50011, 52345, 48765, 50500, 49999, 51000 };
	double y[8];

	CHECK(steady_slope(line, 5, 0) == 7.0);
	CHECK(steady_slope(ring, 5, 3) == 7.0);
	/* x 0..2, mean y 15: ((-1)(-5) + 0 + (1)(0)) / 2 */
	CHECK(steady_slope(three, 3, 0) == 2.5);
	for (int k = 0; k < 8; k++)
		y[k] = (double)noisy[k];
	CHECK_MSG(fabs(steady_slope(noisy, 8, 0) - centred_slope(y, 8)) < 1e-9,
		  "%f vs %f", steady_slope(noisy, 8, 0), centred_slope(y, 8));
}

static void test_deviation(void)
{
	const uint64_t y[4] = { 100, 110, 90, 100 };
	const uint64_t flat[3] = { 5, 5, 5 };
	double mean;

	CHECK(steady_max_deviation(y, 4, &mean) == 10.0 && mean == 100.0);
	CHECK(steady_max_deviation(flat, 3, &mean) == 0.0 && mean == 5.0);
}

static struct steady_opts opts(enum steady_metric m, bool slope, double limit, bool pct,
			       unsigned int window)
{
	struct steady_opts o = { .dur_ns = window * SEC, .interval_ns = SEC, .limit = limit,
				 .metric = m, .slope = slope, .pct = pct };
	return o;
}

static void test_window(void)
{
	struct steady_opts o = opts(STEADY_IOPS, true, 10.0, true, 3);
	struct steady_state s;

	/* a rising line, 1% of the mean per interval: holds once full */
	CHECK(steady_init(&s, &o) == 0 && s.n == 3);
	CHECK(!steady_add(&s, 1000, 1, 0));
	CHECK(!steady_add(&s, 1010, 1, 0));
	CHECK(s.criterion == 0.0);
	CHECK(steady_add(&s, 1020, 1, 0));
	CHECK(s.slope == 10.0 && fabs(s.criterion - 100.0 * 10 / 1010) < 1e-12);
	steady_free(&s);

	/* percent of fio's integer mean: y 1,2,2 has slope 0.5 and mean 5/3,
	 * which fio truncates to 1 before dividing */
	o = opts(STEADY_IOPS, true, 1.0, true, 3);
	CHECK(steady_init(&s, &o) == 0);
	steady_add(&s, 1, 0, 0);
	steady_add(&s, 2, 0, 0);
	CHECK(!steady_add(&s, 2, 0, 0) && s.slope == 0.5 && s.criterion == 50.0);
	steady_free(&s);

	/* deviation of bw in percent: strictly below the limit */
	o = opts(STEADY_BW, false, 10.0, true, 2);
	CHECK(steady_init(&s, &o) == 0);
	steady_add(&s, 0, 90, 0);
	CHECK(!steady_add(&s, 0, 110, 0) && s.deviation == 10.0 && s.criterion == 10.0);
	steady_free(&s);
	o.limit = 10.01;
	CHECK(steady_init(&s, &o) == 0);
	steady_add(&s, 0, 90, 0);
	CHECK(steady_add(&s, 0, 110, 0) && s.attained);
	steady_free(&s);
}

static void test_order(void)
{
	struct steady_opts o = opts(STEADY_IOPS, false, 0.0, false, 3);
	struct steady_state s;

	/* not full: the samples, then zeros; the mean counts the zeros */
	CHECK(steady_init(&s, &o) == 0);
	steady_add(&s, 4, 40, 0);
	steady_add(&s, 5, 50, 0);
	CHECK(steady_iops_at(&s, 0) == 4 && steady_iops_at(&s, 1) == 5 && steady_iops_at(&s, 2) == 0);
	CHECK(steady_iops_mean(&s) == 3 && steady_bw_mean(&s) == 30);
	/* a limit of 0 never holds: the last three, oldest first */
	for (uint64_t v = 6; v <= 9; v++)
		CHECK(!steady_add(&s, v, v * 10, 0));
	CHECK(steady_iops_at(&s, 0) == 7 && steady_iops_at(&s, 1) == 8 && steady_iops_at(&s, 2) == 9);
	CHECK(steady_bw_at(&s, 2) == 90 && steady_iops_mean(&s) == 8);
	steady_free(&s);
}

static void test_describe(void)
{
	struct steady_opts o = opts(STEADY_IOPS, true, 0.01, true, 1);
	char buf[64];

	steady_describe(&o, buf, sizeof(buf));
	CHECK(!strcmp(buf, "iops_slope:0.010000%"));
	o = opts(STEADY_BW, false, 1048576, false, 1);
	steady_describe(&o, buf, sizeof(buf));
	CHECK(!strcmp(buf, "bw:1048576.000000"));
	o = opts(STEADY_LAT, true, 0.1, true, 1);
	steady_describe(&o, buf, sizeof(buf));
	CHECK(!strcmp(buf, "lat_slope:0.100000%"));
}

static void test_options(void)
{
	struct job j = { .kb_base = 1024 };
	struct errbuf err = { "" };

	CHECK(job_option_set(&j, "ss", "iops:10%", "t", &err) == 0);
	CHECK(j.steady.metric == STEADY_IOPS && !j.steady.slope && j.steady.pct &&
	      j.steady.limit == 10.0);
	CHECK(job_option_set(&j, "steadystate", "bw_slope:1m", "t", &err) == 0);
	CHECK(j.steady.metric == STEADY_BW && j.steady.slope && !j.steady.pct &&
	      j.steady.limit == 1048576.0);
	CHECK(job_option_set(&j, "ss", "iops_slope:0.5", "t", &err) == 0 && j.steady.limit == 0.5);
	CHECK(job_option_set(&j, "ss_dur", "30s", "t", &err) == 0 && j.steady.dur_ns == 30 * SEC);
	CHECK(job_option_set(&j, "ss_ramp", "5", "t", &err) == 0 && j.steady.ramp_ns == 5 * SEC);
	CHECK(job_option_set(&j, "ss", "iops", "t.fio:3", &err) == -EINVAL);
	CHECK_MSG(strstr(err.msg, "t.fio:3") && strstr(err.msg, "limit"), "%s", err.msg);
	/* fio's after 3.33: the mean clat, in ns */
	CHECK(job_option_set(&j, "ss", "lat:5%", "t", &err) == 0);
	CHECK(j.steady.metric == STEADY_LAT && !j.steady.slope && j.steady.pct);
	CHECK(job_option_set(&j, "ss", "lat_slope:20000", "t", &err) == 0);
	CHECK(j.steady.slope && !j.steady.pct && j.steady.limit == 20000.0);
	CHECK(job_option_set(&j, "ss", "latency:5%", "t", &err) == -EINVAL);
	CHECK(job_option_set(&j, "ss", "iops:abc", "t", &err) == -EINVAL);
	CHECK(job_option_set(&j, "ss", "iops:-1", "t", &err) == -EINVAL);
	CHECK(job_option_set(&j, "ss", "iops:5%x", "t", &err) == -EINVAL);
}

/* Job files through the parser and the cross-option checks. */
static int finalize(const char *text, struct errbuf *err)
{
	struct job_list list = { 0 };
	int ret = jobfile_parse_buffer("s.fio", text, strlen(text), &list, err);

	if (!ret)
		ret = job_list_finalize(&list, err);
	job_list_free(&list);
	return ret;
}

static void test_checks(void)
{
	struct errbuf err = { "" };

	CHECK(finalize("[a]\nfilename=/dev/null\nss=iops:5%\nss_dur=3\n"
		       "[b]\nfilename=/dev/null\nss=iops:5%\nss_dur=3\n", &err) == 0);
	/* one reporting group, two criteria: fio rejects it */
	CHECK(finalize("[a]\nfilename=/dev/null\nss=iops:5%\nss_dur=3\n"
		       "[b]\nfilename=/dev/null\nss=bw:5%\nss_dur=3\n", &err) == -EINVAL);
	CHECK_MSG(strstr(err.msg, "s.fio:") && strstr(err.msg, "'b'"), "%s", err.msg);
	/* ... which new_group separates */
	CHECK(finalize("[a]\nfilename=/dev/null\nss=iops:5%\nss_dur=3\n"
		       "[b]\nnew_group\nfilename=/dev/null\n", &err) == 0);
	CHECK(finalize("[a]\nfilename=/dev/null\nss=iops_slope:5%\nss_dur=1\n", &err) == -EINVAL);
	CHECK_MSG(strstr(err.msg, "slope"), "%s", err.msg);
	CHECK(finalize("[a]\nfilename=/dev/null\nss=iops:5%\nss_dur=500ms\n", &err) == -EINVAL);
	CHECK(finalize("[a]\nfilename=/dev/null\nss_dur=2\nss_interval=10ms\n", &err) == -EINVAL);
}

/* The supervisor's samples: rates from the counters every interval. */
static void test_check_one(void)
{
	struct job job = { .name = "j", .numjobs = 1 };
	struct worker_stats st = { 0 };
	struct worker w = { .job = &job, .stats = &st };
	struct steady_check c = { 0 };
	struct errbuf err = { "" };
	uint64_t t0 = 5 * SEC;

	job.steady = opts(STEADY_IOPS, false, 5.0, true, 2);
	CHECK(steady_check_begin(&c, &w, 1, &err) == 0);
	CHECK(steady_check_due(&c, &w, 1) == 0);   /* not measuring yet */
	st.start_ns = t0;
	CHECK(steady_check_due(&c, &w, 1) == t0 + SEC);
	st.dir[DDIR_READ].ios = st.dir[DDIR_READ].clat.n = 1000;
	st.dir[DDIR_READ].bytes = 1000 * 4096;
	st.dir[DDIR_READ].clat.mean = 5000;
	steady_check_tick(&c, &w, 1, t0 + SEC / 2);  /* not due: nothing taken */
	steady_check_tick(&c, &w, 1, t0 + SEC);
	CHECK(steady_check_window(&c, 0)->taken == 1 && !st.stop);
	st.dir[DDIR_READ].ios = st.dir[DDIR_READ].clat.n = 2040;
	st.dir[DDIR_READ].bytes = 2040 * 4096;
	/* the second interval's 1040 I/Os took 6000 ns each */
	st.dir[DDIR_READ].clat.mean = (5000.0 * 1000 + 6000.0 * 1040) / 2040;
	steady_check_tick(&c, &w, 1, t0 + 2 * SEC);
	CHECK(steady_iops_at(steady_check_window(&c, 0), 1) == 1040);
	CHECK(steady_bw_at(steady_check_window(&c, 0), 0) == 1000 * 4096);
	CHECK(steady_lat_at(steady_check_window(&c, 0), 0) == 5000);
	CHECK_MSG(llabs((long long)steady_lat_at(steady_check_window(&c, 0), 1) - 6000) <= 1,
		  "%llu", (unsigned long long)steady_lat_at(steady_check_window(&c, 0), 1));
	CHECK(st.stop && steady_check_window(&c, 0)->attained);
	CHECK(steady_check_due(&c, &w, 1) == 0);
	steady_check_free(&c);
}

/* group_reporting: one window, the last worker's, of the summed rates;
 * ss_ramp holds samples back until one interval after it. */
static void test_check_group(void)
{
	struct job job = { .name = "g", .numjobs = 2, .group_reporting = true };
	struct worker_stats st[2];
	struct worker w[2] = { { .job = &job, .stats = &st[0], .index = 0 },
			       { .job = &job, .stats = &st[1], .index = 1 } };
	struct steady_check c = { 0 };
	struct errbuf err = { "" };
	uint64_t t0 = SEC;

	memset(st, 0, sizeof(st));
	job.steady = opts(STEADY_IOPS, false, 1.0, true, 2);
	job.steady.ramp_ns = SEC;
	CHECK(steady_check_begin(&c, w, 2, &err) == 0);
	CHECK(!steady_check_window(&c, 0) && steady_check_window(&c, 1));
	st[0].start_ns = st[1].start_ns = t0;
	for (unsigned int k = 1; k <= 3; k++) {
		st[0].dir[DDIR_WRITE].ios = 100 * k;
		st[1].dir[DDIR_WRITE].ios = 300 * k;
		steady_check_tick(&c, w, 2, t0 + k * SEC);
		/* samples from t0 + 2 s on (ss_ramp plus an interval) */
		CHECK_MSG(steady_check_window(&c, 1)->taken == (k >= 2 ? k - 1 : 0), "k %u", k);
	}
	CHECK(steady_iops_at(steady_check_window(&c, 1), 0) == 400);
	CHECK(st[0].stop && st[1].stop);
	steady_check_free(&c);
}

int main(void)
{
	test_slope();
	test_deviation();
	test_window();
	test_order();
	test_describe();
	test_options();
	test_checks();
	test_check_one();
	test_check_group();
	return CHECK_DONE();
}
