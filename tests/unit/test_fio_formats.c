// fio's measurement options and the formats built on them: percentile_list (sorting, precision,
// limits), gtod_reduce, write_*_log prefixes, log_compression, the terse v3 line's 121 fields, its
// disks' 9 fields each and continue_on_error's 2 (before the description, as fio's), and json+
// bins that sum to the samples.
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "job/options.h"
#include "report/report.h"
#include "report/report_jsonplus.h"
#include "tests/lib/check.h"

static int set(struct job *j, const char *k, const char *v)
{
	struct errbuf err = { 0 };

	return job_option_set(j, k, v, "test", &err);
}

static void test_options(void)
{
	struct job j;

	job_set_defaults(&j);
	CHECK(j.stat.clat_percentiles && !j.stat.lat_percentiles && j.logs.per_job);
	CHECK(set(&j, "percentile_list", "99.5:25:50") == 0);
	CHECK(j.stat.nr_percentiles == 3 && j.stat.percentiles[0] == 25.0 &&
	      j.stat.percentiles[2] == 99.5);
	/* fio counts the decimals of the first '.' in the rest of the list */
	CHECK(j.stat.precision == 1);
	CHECK(set(&j, "percentile_list", "25:50") == 0 && j.stat.precision == 0);
	CHECK(set(&j, "percentile_list", "101") != 0);
	CHECK(set(&j, "percentile_list", "1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20:21") != 0);
	CHECK(set(&j, "percentile_list", "5:x") != 0);
	CHECK(set(&j, "gtod_reduce", NULL) != 0); /* fio: needs a value */
	CHECK(set(&j, "gtod_reduce", "1") == 0);
	CHECK(j.stat.disable_lat && j.stat.disable_clat && j.stat.disable_slat &&
	      j.stat.disable_bw && !j.stat.clat_percentiles);
	CHECK(set(&j, "write_bw_log", NULL) == 0 && j.logs.on[JOB_LOG_BW] &&
	      !j.logs.prefix[JOB_LOG_BW][0]);
	CHECK(set(&j, "write_lat_log", "x") == 0 && !strcmp(j.logs.prefix[JOB_LOG_LAT], "x"));
	/* fio's range, 1 KiB to 512 MiB: its 0 is refused too */
	CHECK(set(&j, "log_compression", "1m") == 0 && j.logs.compress == 1048576);
	CHECK(set(&j, "log_compression", "1k") == 0 && j.logs.compress == 1024);
	CHECK(set(&j, "log_compression", "0") != 0 && j.logs.compress == 1024);
	CHECK(set(&j, "log_compression", "1023") != 0);
	CHECK(set(&j, "log_compression", "513m") != 0);
	CHECK(!strcmp(job_option_name("blocksize"), "bs"));
}

/* The terse text of @r, NULL when it cannot be written. */
static char *terse_of(const struct report *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	if (report_terse(r, f)) {
		fclose(f);
		free(text);
		return NULL;
	}
	fclose(f);
	return text;
}

static size_t terse_fields(const char *text)
{
	size_t fields = 1;

	for (const char *p = text; p && *p; p++)
		fields += *p == ';';
	return fields;
}

/* Each watched disk on the job's line as fio's show_disk_util prints it:
 * name, read/write ios, merges, ticks, time in queue, util (capped at
 * 100), after the latency buckets and before the description. */
static void test_terse_disks(struct report *r, struct job *j)
{
	struct report_disk disks[2] = {
		{ .name = "loop7", .util_pct = 53.2849,
		  .delta = { .ios = { 895, 944 }, .merges = { 1, 2 },
			     .ticks = { 265, 263 }, .time_in_queue = 529 } },
		{ .name = "zram3", .util_pct = 140.0,
		  .delta = { .ios = { 0, 12 }, .ticks = { 0, 3 }, .time_in_queue = 3 } },
	};
	char *text, *at;

	r->disks = disks;
	r->nr_disks = 2;
	snprintf(j->description, sizeof(j->description), "desc");
	text = terse_of(r);
	CHECK(text != NULL);
	CHECK_MSG(terse_fields(text) == 121 + 2 * 9 + 1, "terse with 2 disks has %zu fields",
		  terse_fields(text));
	at = text ? strstr(text, ";loop7;") : NULL;
	CHECK_MSG(at && !strcmp(at, ";loop7;895;944;1;2;265;263;529;53.28%"
				";zram3;0;12;0;0;0;3;3;100.00%;desc\n"), "disk fields: %s",
		  at ? at : text ? text : "(none)");
	free(text);

	/* continue_on_error's error count and first errno, before the
	 * description: the first of the errors counted, though none ended
	 * the job (ignore_error) */
	r->jobs[0].continue_on_error = 1;
	for (int i = 0; i < 3; i++)
		stats_count_io_error(&r->jobs[0].st, DDIR_WRITE, i ? -5 : -28);
	r->nr_disks = 1;
	text = terse_of(r);
	at = text ? strstr(text, ";loop7;") : NULL;
	CHECK_MSG(at && !strcmp(at, ";loop7;895;944;1;2;265;263;529;53.28%;3;28;desc\n"),
		  "error fields: %s", at ? at : text ? text : "(none)");
	free(text);
	r->jobs[0].continue_on_error = 0;
	r->jobs[0].st.dir[DDIR_WRITE].errors = 0;
	r->jobs[0].st.first_io_error = 0;

	r->nr_disks = 0;
	j->description[0] = '\0';
	text = terse_of(r);
	CHECK(text && terse_fields(text) == 121 && !strstr(text, "loop7"));
	free(text);
	r->disks = NULL;
}

static void test_terse_and_bins(void)
{
	struct job j;
	struct report_job rj = { 0 };
	struct report r = { 0 };
	struct json_object *bins;
	char *text;
	uint64_t sum = 0;

	job_set_defaults(&j);
	snprintf(j.name, sizeof(j.name), "t");
	rj.job = &j;
	rj.nr_workers = 1;
	worker_stats_init(&rj.st);
	for (uint64_t v = 1000; v < 2000000; v = v * 3 / 2) {
		stats_account_io(&rj.st, DDIR_READ, 4096, 4096, 100, v, v + 100, true);
		rj.st.issued[DDIR_READ]++;
	}
	rj.st.runtime_ns = 1000000000;
	rj.st.ddir_run_us[DDIR_READ] = 1000000;
	r.jobs = &rj;
	r.nr_jobs = 1;
	text = terse_of(&r);
	CHECK_MSG(terse_fields(text) == 121, "terse has %zu fields, fio's v3 121",
		  terse_fields(text));
	CHECK(text && !strncmp(text, "3;", 2) && text[strlen(text) - 1] == '\n');
	free(text);
	test_terse_disks(&r, &j);

	bins = jsonplus_bins(&rj.st.dir[DDIR_READ].clat_h);
	CHECK(bins != NULL);
	json_object_object_foreach(bins, key, val) {
		(void)key;
		sum += (uint64_t)json_object_get_int64(val);
	}
	CHECK_MSG(sum == rj.st.dir[DDIR_READ].clat.n, "bins sum %llu", (unsigned long long)sum);
	json_object_put(bins);
}

int main(void)
{
	test_options();
	test_terse_and_bins();
	return CHECK_DONE();
}
