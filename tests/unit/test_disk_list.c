// SPDX-License-Identifier: GPL-2.0
/*
 * target/disk_list and report/report_disks on a sysfs tree built in
 * /dev/shm: md0 over loop0 and loop1, dm-0 over a partition of sdb, dm-1
 * over md0 (listed already).  The disks are listed as fio lists them (each
 * master, then its slaves in slaves/'s order, a partition as its disk);
 * the aggregate is fio's (the slaves' counters averaged, the busiest one's
 * util); text, JSON and terse print it as fio 3.33's diskutil code does.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "tests/lib/check.h"
#include "tests/lib/report_render.h"
#include "tests/lib/sysfs_tree.h"
#include "job/options.h"
#include "report/report.h"
#include "target/disk_list.h"
#include "target/diskstats.h"

static char root[128];

static void put(const char *rel, const char *content, const char *link)
{
	sysfs_tree_put(root, rel, content, link);
}

/* A stat line: reads (ios, merges, ticks), writes (the same), busy and
 * in-queue ms; sectors 8 per I/O, nothing in flight, no discards. */
static void put_stat(const char *disk, unsigned int rios, unsigned int rmerges,
		     unsigned int rticks, unsigned int wios, unsigned int wmerges,
		     unsigned int wticks, unsigned int busy, unsigned int queue)
{
	char rel[128], line[256];

	snprintf(rel, sizeof(rel), "block/%s/stat", disk);
	snprintf(line, sizeof(line), "%u %u %u %u %u %u %u %u 0 %u %u 0 0 0 0 0 0\n",
		 rios, rmerges, rios * 8, rticks, wios, wmerges, wios * 8, wticks, busy, queue);
	put(rel, line, NULL);
}

/* md0's slaves in the order readdir gives them, as fio reads them. */
static void md0_slave_order(char (*first)[8], char (*second)[8])
{
	char dir[192];
	struct dirent *de;
	DIR *d;
	int n = 0;

	snprintf(dir, sizeof(dir), "%s/block/md0/slaves", root);
	d = opendir(dir);
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			snprintf(n++ ? *second : *first, 8, "%s", de->d_name);
	if (d)
		closedir(d);
	CHECK(n == 2);
}

static void build_tree(void)
{
	put("block/loop0", NULL, NULL);
	put("block/loop1", NULL, NULL);
	put("block/md0/slaves/loop0", NULL, "../../loop0");
	put("block/md0/slaves/loop1", NULL, "../../loop1");
	put("block/sdb/sdb1/partition", "1\n", NULL);
	put("block/dm-0/slaves/sdb1", NULL, "../../sdb/sdb1");
	put("block/dm-1/slaves/md0", NULL, "../../md0");
	put("block/vda", NULL, NULL);           /* no slaves/ at all */
}

/* Every listed disk's counters, before or after the run. */
static void read_all(const struct disk_list *l, struct disk_counters *c)
{
	struct errbuf err;

	for (unsigned int i = 0; i < l->nr; i++)
		CHECK_MSG(!diskstats_read(root, l->name[i], &c[i], &err), "%s", err.msg);
}

#define CHECK_HAS(text, line) \
	CHECK_MSG((text) && strstr((text), (line)), "missing:\n%s\nin:\n%s", (line), \
		  (text) ? (text) : "(nothing)")

static void check_text(const struct report *r, const char *s1, const char *s2)
{
	char *text = report_render(r, report_text), want[256];

	/* md0 and dm-0 indented two more, their aggregate after their line */
	CHECK_HAS(text, "\nDisk stats (read/write):\n"
		  "    md0: ios=150/60, merge=0/0, ticks=300/120, in_queue=420, util=45.00%, "
		  "aggrios=75/30, aggrmerge=2/1, aggrticks=150/60, aggrin_queue=210, "
		  "aggrutil=70.00%\n");
	snprintf(want, sizeof(want), "  %s: ", s1);
	CHECK_HAS(text, want);
	CHECK_HAS(text, "  loop0: ios=100/40, merge=3/1, ticks=200/80, in_queue=280, util=50.00%\n");
	CHECK_HAS(text, "  loop1: ios=51/20, merge=2/2, ticks=101/41, in_queue=141, util=70.00%\n");
	CHECK_HAS(text, "    dm-0: ios=10/0, merge=0/0, ticks=5/0, in_queue=5, util=1.00%, "
		  "aggrios=10/0, aggrmerge=0/0, aggrticks=4/0, aggrin_queue=4, aggrutil=0.90%\n"
		  "  sdb: ios=10/0, merge=0/0, ticks=4/0, in_queue=4, util=0.90%\n");
	/* dm-1's only slave was listed already: fio counts it under md0 alone */
	CHECK_HAS(text, "  dm-1: ios=0/0, merge=0/0, ticks=0/0, in_queue=0, util=0.00%\n");
	CHECK_MSG(text && strstr(text, s1) < strstr(text, s2) &&
		  strstr(text, "md0:") < strstr(text, s1) &&
		  strstr(text, s2) < strstr(text, "dm-0:"), "order: %s", text);
	free(text);
}

static struct json_object *jdisk(struct json_object *root_obj, size_t i, const char *key)
{
	struct json_object *arr, *o, *v;

	if (!json_object_object_get_ex(root_obj, "disk_util", &arr))
		return NULL;
	o = json_object_array_get_idx(arr, i);
	return o && json_object_object_get_ex(o, key, &v) ? v : NULL;
}

static void check_json(const struct report *r, const char *s1)
{
	char *text = report_render(r, report_json);
	struct json_object *o = text ? json_tokener_parse(text) : NULL, *arr = NULL;
	static const char *const aggr[] = {
		"aggr_read_ios", "aggr_write_ios", "aggr_read_merges", "aggr_write_merge",
		"aggr_read_ticks", "aggr_write_ticks", "aggr_in_queue", "aggr_util",
	};
	static const long long md0[] = { 75, 30, 2, 1, 150, 60, 210 };

	CHECK(o && json_object_object_get_ex(o, "disk_util", &arr));
	CHECK_MSG(arr && json_object_array_length(arr) == 6, "%zu disk_util entries",
		  arr ? json_object_array_length(arr) : 0);
	CHECK(jdisk(o, 1, "name") && !strcmp(json_object_get_string(jdisk(o, 1, "name")), s1));
	for (size_t k = 0; k < 7; k++)
		CHECK_MSG(json_object_get_int64(jdisk(o, 0, aggr[k])) == md0[k], "md0 %s = %lld",
			  aggr[k], (long long)json_object_get_int64(jdisk(o, 0, aggr[k])));
	CHECK(jdisk(o, 0, "aggr_util") && json_object_get_double(jdisk(o, 0, "aggr_util")) == 70.0);
	CHECK(json_object_get_int64(jdisk(o, 3, "aggr_read_ios")) == 10);
	/* slaves, and a master with none counted, have no aggregate */
	for (size_t i = 1; i < 6; i++)
		if (i != 3)
			CHECK_MSG(!jdisk(o, i, "aggr_read_ios"), "disk %zu has aggr keys", i);
	json_object_put(o);
	free(text);
}

static void check_terse(struct report *r, const char *s1, const char *s2)
{
	struct report_job rj = { 0 };
	struct job j;
	char *text, want[512];
	size_t fields = 1;

	job_set_defaults(&j);
	snprintf(j.name, sizeof(j.name), "t");
	rj.job = &j;
	rj.nr_workers = 1;
	worker_stats_init(&rj.st);
	stats_account_io(&rj.st, DDIR_READ, 4096, 4096, 100, 1000, 1100, true);
	rj.st.issued[DDIR_READ] = 1;
	rj.st.runtime_ns = 1000000000;
	r->jobs = &rj;
	r->nr_jobs = 1;
	text = report_render(r, report_terse);
	for (const char *p = text; p && *p; p++)
		fields += *p == ';';
	/* 121 of the job, 9 per disk, 9 per aggregate (md0's, dm-0's) */
	CHECK_MSG(fields == 121 + 6 * 9 + 2 * 9, "terse has %zu fields", fields);
	snprintf(want, sizeof(want), ";md0;150;60;0;0;300;120;420;45.00%%"
		 ";slaves;75;30;2;1;150;60;210;70.00%%;%s;", s1);
	CHECK_HAS(text, want);
	snprintf(want, sizeof(want), ";%s;", s2);
	CHECK_HAS(text, want);
	CHECK_HAS(text, ";dm-0;10;0;0;0;5;0;5;1.00%;slaves;10;0;0;0;4;0;4;0.90%"
		  ";sdb;10;0;0;0;4;0;4;0.90%;dm-1;0;0;0;0;0;0;0;0.00%\n");
	free(text);
	r->jobs = NULL;
	r->nr_jobs = 0;
}

int main(void)
{
	struct disk_counters before[DISK_LIST_MAX], after[DISK_LIST_MAX];
	struct report_disk disks[DISK_LIST_MAX];
	struct disk_list l = { 0 };
	struct report r = { 0 };
	char s1[8] = "", s2[8] = "", cmd[192];

	if (access("/dev/shm", W_OK))
		SKIP("/dev/shm not writable");
	snprintf(root, sizeof(root), "/dev/shm/iodig-test-disk-list-%d", (int)getpid());
	mkdir(root, 0700);
	build_tree();
	md0_slave_order(&s1, &s2);

	/* two targets on md0's first slave and md0, then dm-0, dm-1, vda */
	disk_list_add(&l, root, "md0");
	disk_list_add(&l, root, s1);          /* listed already: no second entry */
	disk_list_add(&l, root, "dm-0");
	disk_list_add(&l, root, "dm-1");
	CHECK_MSG(l.nr == 6, "%u disks", l.nr);
	CHECK(!strcmp(l.name[0], "md0") && l.master[0] == -1);
	CHECK(!strcmp(l.name[1], s1) && l.master[1] == 0);
	CHECK(!strcmp(l.name[2], s2) && l.master[2] == 0);
	CHECK(!strcmp(l.name[3], "dm-0") && l.master[3] == -1);
	CHECK_MSG(!strcmp(l.name[4], "sdb") && l.master[4] == 3, "partition as %s", l.name[4]);
	CHECK(!strcmp(l.name[5], "dm-1") && l.master[5] == -1);

	put_stat("md0", 1000, 0, 2000, 500, 0, 1000, 3000, 4000);
	put_stat("loop0", 600, 7, 900, 300, 5, 450, 1000, 1350);
	put_stat("loop1", 400, 3, 700, 200, 4, 300, 800, 1000);
	put_stat("sdb", 5, 0, 1, 0, 0, 0, 1, 1);
	put_stat("dm-0", 5, 0, 1, 0, 0, 0, 1, 1);
	put_stat("dm-1", 0, 0, 0, 0, 0, 0, 0, 0);
	read_all(&l, before);
	put_stat("md0", 1150, 0, 2300, 560, 0, 1120, 3450, 4420);
	put_stat("loop0", 700, 10, 1100, 340, 6, 530, 1500, 1630);
	put_stat("loop1", 451, 5, 801, 220, 6, 341, 1500, 1141);
	put_stat("sdb", 15, 0, 5, 0, 0, 0, 10, 5);
	put_stat("dm-0", 15, 0, 6, 0, 0, 0, 11, 6);
	read_all(&l, after);

	/* the job ran 1000 ms */
	for (unsigned int i = 0; i < l.nr; i++)
		report_disk_fill(&disks[i], l.name[i], l.master[i], &before[i], &after[i], 1000);
	report_disks_aggregate(disks, l.nr);
	CHECK(disks[0].nr_slaves == 2 && disks[3].nr_slaves == 1 && disks[5].nr_slaves == 0);
	CHECK(disks[0].slaves_avg.ios[0] == (100 + 51) / 2 && disks[0].slaves_util_pct == 70.0);
	r.disks = disks;
	r.nr_disks = l.nr;
	check_text(&r, s1, s2);
	check_json(&r, s1);
	check_terse(&r, s1, s2);

	snprintf(cmd, sizeof(cmd), "rm -rf %s", root);
	if (system(cmd))
		fprintf(stderr, "could not remove %s\n", root);
	return CHECK_DONE();
}
