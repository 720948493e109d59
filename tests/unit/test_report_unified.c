/* unified_rw_reporting's fold as fio 3.33's stat.c folds it: the mixed copy's reads hold every direction (I/Os, bytes, latencies merged, bw samples added up member-wise, priorities folded, the longest runtime), the group's MIXED line sums its directions' lines, and the text, JSON and terse renderers show the sum instead of or after the directions. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "tests/lib/check.h"
#include "tests/lib/report_render.h"
#include "report/report.h"
#include "report/report_unified.h"

#define MS 1000000ull

static struct job job;
static struct report_job entry;
static struct report_group group;

/* 100 reads of 4 KiB in 200 ms, 50 writes of 8 KiB in 400 ms, one bw
 * sample each (1000 and 3000 KiB/s), an fsync. */
static void build_entry(void)
{
	struct worker_stats *st = &entry.st;

	memset(&entry, 0, sizeof(entry));
	snprintf(job.name, sizeof(job.name), "u");
	job.stat.clat_percentiles = true;
	worker_stats_init(st);
	st->runtime_ns = 600 * MS;
	st->ddir_run_us[DDIR_READ] = 200 * 1000;
	st->ddir_run_us[DDIR_WRITE] = 400 * 1000;
	for (unsigned int i = 0; i < 100; i++)
		stats_account_io(st, DDIR_READ, 4096, 4096, 0, 1000, 1100, false);
	for (unsigned int i = 0; i < 50; i++)
		stats_account_io(st, DDIR_WRITE, 8192, 8192, 0, 9000, 9100, false);
	st->issued[DDIR_READ] = 100;
	st->issued[DDIR_WRITE] = 50;
	memset(&st->dir[DDIR_READ].bw_kib, 0, sizeof(struct lat_acc));
	memset(&st->dir[DDIR_WRITE].bw_kib, 0, sizeof(struct lat_acc));
	lat_acc_add(&st->dir[DDIR_READ].bw_kib, 1000);
	lat_acc_add(&st->dir[DDIR_WRITE].bw_kib, 3000);
	stats_account_sync(st, true, 5000);
	entry.job = &job;
	entry.nr_workers = 1;
	entry.pid = 7;
}

static void test_fold(void)
{
	struct report_job *m;
	const struct ddir_stats *r;

	build_entry();
	m = report_job_mixed(&entry);
	CHECK(m != NULL);
	if (!m)
		return;
	r = &m->st.dir[DDIR_READ];
	CHECK(r->ios == 150 && r->bytes == 100 * 4096 + 50 * 8192);
	CHECK(m->st.issued[DDIR_READ] == 150 && m->st.issued[DDIR_WRITE] == 0);
	CHECK(m->st.dir[DDIR_WRITE].ios == 0 && m->st.dir[DDIR_WRITE].bytes == 0);
	/* the longest direction's runtime */
	CHECK(m->st.ddir_run_us[DDIR_READ] == 400 * 1000);
	CHECK(r->clat.n == 150 && r->clat.min == 1000 && r->clat.max == 9000);
	CHECK(fabs(r->clat.mean - (100 * 1000.0 + 50 * 9000.0) / 150.0) < 1e-6);
	CHECK(r->clat_h.total == 150);
	/* fio adds bw samples up (sum_stat's pure_sum): min, max, mean too */
	CHECK(r->bw_kib.n == 2 && r->bw_kib.min == 4000 && r->bw_kib.max == 4000);
	CHECK(fabs(r->bw_kib.mean - 4000.0) < 1e-9);
	/* the entry itself is untouched */
	CHECK(entry.st.dir[DDIR_WRITE].ios == 50 && entry.st.ddir_run_us[DDIR_READ] == 200 * 1000);
	report_job_mixed_free(m);
}

/* Priorities: each direction's, by priority, into the reads. */
static void test_prio_fold(void)
{
	static struct prio_stats ps;
	struct report_job *m;

	build_entry();
	memset(&ps, 0, sizeof(ps));
	ps.nr[DDIR_READ] = 2;
	ps.e[DDIR_READ][0].ioprio = 0;
	ps.e[DDIR_READ][1].ioprio = 1 << 13;
	ps.nr[DDIR_WRITE] = 1;
	ps.e[DDIR_WRITE][0].ioprio = 1 << 13;
	lat_acc_add(&ps.e[DDIR_READ][0].acc, 1000);
	lat_acc_add(&ps.e[DDIR_READ][1].acc, 2000);
	lat_acc_add(&ps.e[DDIR_WRITE][0].acc, 4000);
	entry.prio = &ps;
	m = report_job_mixed(&entry);
	CHECK(m && m->prio && m->prio->nr[DDIR_READ] == 2 && m->prio->nr[DDIR_WRITE] == 0);
	CHECK(m && m->prio && m->prio->e[DDIR_READ][1].acc.n == 2 &&
	      fabs(m->prio->e[DDIR_READ][1].acc.mean - 3000.0) < 1e-9);
	report_job_mixed_free(m);
	entry.prio = NULL;
}

static void test_group_mix(void)
{
	/* reads, then writes */
	struct report_group g = {
		.kb_base = 1024, .bytes = { 1000, 3000 }, .bw_agg = { 10, 30 },
		.bw_min = { 5, 7 }, .bw_max = { 10, 30 },
		.runtime_min_ms = { 90, 50 }, .runtime_max_ms = { 100, 80 },
	};
	struct report_group_mix l;

	report_group_mix(&g, &l);
	CHECK(l.bytes == 4000 && l.bw_agg == 40 && l.bw_min == 5 && l.bw_max == 30);
	CHECK(l.runtime_min_ms == 50 && l.runtime_max_ms == 100);
}

static bool has_key(struct json_object *job, const char *key)
{
	return json_object_object_get_ex(job, key, NULL);
}

/* What each renderer shows for @mode. */
static void test_render(unsigned int mode)
{
	struct report r = { 0 };
	struct json_object *root, *j = NULL;
	char *text, *json, *terse;
	int fields = 0;

	build_entry();
	job.stat.unified_rw = mode;
	entry.mixed = report_job_mixed(&entry);
	memset(&group, 0, sizeof(group));
	group.kb_base = 1024;
	group.unified = mode;
	group.bytes[DDIR_READ] = 409600;
	group.runtime_min_ms[DDIR_READ] = group.runtime_max_ms[DDIR_READ] = 400;
	r.jobs = &entry;
	r.nr_jobs = 1;
	r.groups = &group;
	r.nr_groups = 1;

	text = report_render(&r, report_text);
	CHECK(text && (strstr(text, "\n  read: IOPS=") != NULL) == (mode != UNIFIED_MIXED));
	CHECK(text && (strstr(text, "\n  mixed: IOPS=375, BW=2000KiB/s") != NULL) ==
	      (mode != UNIFIED_NONE));
	CHECK(text && (strstr(text, "issued rwts: total=150,0,0,1 ") != NULL) ==
	      (mode == UNIFIED_MIXED));
	CHECK(text && (strstr(text, "\n  MIXED: bw=") != NULL) == (mode != UNIFIED_NONE));
	CHECK(text && (strstr(text, "\n   READ: bw=") != NULL) == (mode != UNIFIED_MIXED));

	json = report_render(&r, report_json);
	root = json ? json_tokener_parse(json) : NULL;
	if (root)
		j = json_object_array_get_idx(json_object_object_get(root, "jobs"), 0);
	CHECK(j && has_key(j, "read") == (mode != UNIFIED_MIXED) &&
	      has_key(j, "sync") == (mode != UNIFIED_MIXED) &&
	      has_key(j, "mixed") == (mode != UNIFIED_NONE));
	if (j && mode != UNIFIED_NONE) {
		struct json_object *mx = json_object_object_get(j, "mixed");

		CHECK(json_object_get_int64(json_object_object_get(mx, "total_ios")) == 150);
		CHECK(json_object_get_int64(json_object_object_get(mx, "runtime")) == 400);
	}

	terse = report_render(&r, report_terse);
	for (const char *p = terse; p && *p; p++)
		fields += *p == ';';
	/* 41 fields per direction shown: 2, 1 (mixed) or 3 (both) */
	CHECK(fields == 38 + 41 * (mode == UNIFIED_NONE ? 2 : mode == UNIFIED_MIXED ? 1 : 3));
	json_object_put(root);
	free(text);
	free(json);
	free(terse);
	report_job_mixed_free(entry.mixed);
	entry.mixed = NULL;
}

int main(void)
{
	setenv("TZ", "UTC", 1);
	test_fold();
	test_prio_fold();
	test_group_mix();
	test_render(UNIFIED_NONE);
	test_render(UNIFIED_MIXED);
	test_render(UNIFIED_BOTH);
	return CHECK_DONE();
}
