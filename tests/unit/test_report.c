/* Renders a synthetic two-job report and checks fio's number formatting, text lines (against lines real fio 3.33 printed) and JSON keys/values; and where the kernel sections go with one job group and with two. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "tests/lib/check.h"
#include "probes/figures.h"
#include "report/report.h"
#include "report/units.h"

#define MS 1000000ull

static struct job job_t, job_p;
static struct report_job rjobs[2];
static struct report_group group;
static struct report_disk disk;

static void set_acc(struct lat_acc *a, uint64_t n, uint64_t min, uint64_t max,
		    double mean, double stdev)
{
	a->n = n;
	a->min = min;
	a->max = max;
	a->mean = mean;
	a->m2 = stdev * stdev * (double)(n - 1);
}

static void add_n(struct hist *h, uint64_t v, unsigned int n)
{
	while (n--)
		hist_add(h, v);
}

/*
 * Job "t" carries the figures of a real fio 3.33 run (libaio randrw,
 * iodepth=8, 2 s on /dev/shm), so most expected lines below are what fio
 * printed (the cpu line differs: fio's CPU divisor was 2000 ms there);
 * job "p" is a failed psync reader.
 */
static void build_report(struct report *r)
{
	struct worker_stats *st = &rjobs[0].st;
	struct ddir_stats *rd = &st->dir[DDIR_READ], *wr = &st->dir[DDIR_WRITE];
	unsigned int i;

	memset(r, 0, sizeof(*r));
	snprintf(job_t.name, sizeof(job_t.name), "t");
	snprintf(job_t.filename, sizeof(job_t.filename), "/dev/loop0");
	snprintf(job_t.ioengine, sizeof(job_t.ioengine), "libaio");
	job_t.rw = RW_RANDRW;
	job_t.rwmixread = 50;
	job_t.bs[0] = job_t.bs[1] = job_t.bs_min[0] = job_t.bs_min[1] = 4096;
	job_t.bs_max[0] = job_t.bs_max[1] = 4096;
	job_t.iodepth = 8;
	job_t.numjobs = 1;
	job_t.size = 64ull << 20;
	job_t.runtime_ns = 2000 * MS;
	job_t.time_based = true;
	job_t.direct = true;
	job_t.randrepeat = true;
	job_t.stat.clat_percentiles = true;
	job_t.latency_percentile = 100.0; /* the option's default */
	/* as the job file gave them: size in [global], the rest in [t] */
	snprintf(job_t.given, sizeof(job_t.given), "size=64m\nrw=randrw\nbs=4k\n"
		 "ioengine=libaio\niodepth=8\nfilename=/dev/loop0\nruntime=2\n");
	job_t.given_global = strlen("size=64m\n");
	job_p = job_t;
	snprintf(job_p.name, sizeof(job_p.name), "p");
	snprintf(job_p.ioengine, sizeof(job_p.ioengine), "psync");
	job_p.rw = RW_READ;
	job_p.iodepth = 1;

	worker_stats_init(st);
	st->start_ns = 1000 * MS;
	st->end_ns = st->start_ns + 2001 * MS;
	st->runtime_ns = 2001 * MS;
	st->ddir_run_us[DDIR_READ] = st->ddir_run_us[DDIR_WRITE] = 2001 * 1000;
	st->usr_ns = 463 * MS;
	st->sys_ns = 1406 * MS;
	st->ctx_vol = 150;
	st->ctx_invol = 40;
	st->minf = 11;
	st->pid = st->tid = 4335;
	st->issued[DDIR_READ] = 196820;
	st->issued[DDIR_WRITE] = 196634;
	st->depth_dist[0] = st->depth_dist[1] = st->depth_dist[2] = 1;
	st->depth_dist[3] = 393451;
	st->submit_dist[1] = 98000;
	st->complete_dist[1] = 97000;
	st->complete_dist[2] = 90;

	rd->ios = 196820;
	rd->bytes = 806354944;     /* 769 MiB */
	set_acc(&rd->slat, 196820, 1593, 4057600, 3321.95, 22753.51);
	set_acc(&rd->clat, 196820, 2500, 9128000, 36790, 93880);
	set_acc(&rd->lat, 196820, 5200, 9131000, 40110, 96700);
	add_n(&rd->clat_h, 30000, 500);
	add_n(&rd->clat_h, 70000, 400);
	add_n(&rd->clat_h, 1500000, 100);
	lat_acc_add(&rd->bw_kib, 390016);
	lat_acc_add(&rd->bw_kib, 405536);
	lat_acc_add(&rd->bw_kib, 416968);
	lat_acc_add(&rd->iops, 97504);
	lat_acc_add(&rd->iops, 101384);
	lat_acc_add(&rd->iops, 104242);

	wr->ios = 196634;
	wr->bytes = 805306368;     /* 768 MiB */
	set_acc(&wr->slat, 196634, 1863, 5197100, 3604.15, 23680.51);
	set_acc(&wr->clat, 196634, 12000, 9127000, 36310, 82930);
	set_acc(&wr->lat, 196634, 15000, 9130000, 39910, 86310);
	add_n(&wr->clat_h, 70000, 1000);

	rjobs[0].job = &job_t;
	rjobs[0].nr_workers = 1;
	rjobs[0].pid = 4335;

	st = &rjobs[1].st;
	worker_stats_init(st);
	st->start_ns = 1000 * MS;
	st->end_ns = st->start_ns + 1000 * MS;
	st->runtime_ns = 1000 * MS;
	st->ddir_run_us[DDIR_READ] = 1000 * 1000;
	for (i = 0; i < 10; i++)
		stats_account_io(st, DDIR_READ, 4096, 4096, 0, 741 + i * 100,
				 762 + i * 100, false);
	st->issued[DDIR_READ] = 11;
	st->depth_dist[0] = 11;
	rjobs[1].job = &job_p;
	rjobs[1].nr_workers = 1;
	rjobs[1].pid = 4436;
	rjobs[1].error = -EIO;
	snprintf(rjobs[1].errmsg, sizeof(rjobs[1].errmsg),
		 "read of /dev/loop0 at offset 4096 failed: Input/output error");

	group.id = 0;
	group.kb_base = 1024;
	group.bytes[DDIR_READ] = 806354944;
	group.runtime_min_ms[DDIR_READ] = group.runtime_max_ms[DDIR_READ] = 2001;
	group.bw_min[DDIR_READ] = group.bw_max[DDIR_READ] = 402975984;
	group.bw_agg[DDIR_READ] = 402975984;
	group.bytes[DDIR_WRITE] = 805306368;
	group.runtime_min_ms[DDIR_WRITE] = group.runtime_max_ms[DDIR_WRITE] = 2001;
	group.bw_min[DDIR_WRITE] = group.bw_max[DDIR_WRITE] = 402452957;
	group.bw_agg[DDIR_WRITE] = 402452957;

	snprintf(disk.name, sizeof(disk.name), "loop0");
	disk.delta.ios[0] = 107404;
	disk.delta.ios[1] = 107110;
	disk.delta.ticks[0] = 3577;
	disk.delta.ticks[1] = 3679;
	disk.delta.time_in_queue = 7256;
	disk.util_pct = 91.07;

	r->jobs = rjobs;
	r->nr_jobs = 2;
	r->groups = &group;
	r->nr_groups = 1;
	r->disks = &disk;
	r->nr_disks = 1;
	r->interrupted = true;
	r->timestamp = 1796012256;
	r->timestamp_ms = 1796012256486ull;
	snprintf(r->command, sizeof(r->command), "iodig run jobs/t.fio");
	snprintf(r->kernel_release, sizeof(r->kernel_release), "6.18.0");
	snprintf(r->hostname, sizeof(r->hostname), "vm");
	r->kernels = NULL;
	r->nr_kernels = 0;
}

static void test_num2str(void)
{
	static const struct {
		uint64_t num;
		int maxlen;
		bool pow2;
		enum n2s_unit unit;
		const char *want;
	} t[] = {
		{ 4057600, 6, false, N2S_NONE, "4057.6k" },
		{ 1593, 6, false, N2S_NONE, "1593" },
		{ 98360, 4, false, N2S_NONE, "98.4k" },
		{ 395464, 4, false, N2S_NONE, "395k" },
		{ 395664, 4, false, N2S_NONE, "396k" },
		{ 402975984, 4, true, N2S_BYTEPERSEC, "384MiB/s" },
		{ 402975984, 4, false, N2S_BYTEPERSEC, "403MB/s" },
		{ 806354944, 4, true, N2S_BYTE, "769MiB" },
		{ 806354944, 4, false, N2S_BYTE, "806MB" },
		{ 3241148516ull, 4, true, N2S_BYTE, "3091MiB" },
		{ 3241148516ull, 4, false, N2S_BYTE, "3241MB" },
		{ 16384, 4, true, N2S_BYTE, "16.0KiB" },
		{ 4094, 4, true, N2S_BYTEPERSEC, "4094B/s" },
		{ 0, 4, false, N2S_NONE, "0" },
	};
	char buf[NUM2STR_LEN];
	unsigned int i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		fio_num2str(buf, sizeof(buf), t[i].num, t[i].maxlen, 1, t[i].pow2, t[i].unit);
		CHECK_MSG(strcmp(buf, t[i].want) == 0, "num2str(%llu) = \"%s\", want \"%s\"",
			  (unsigned long long)t[i].num, buf, t[i].want);
	}
	CHECK(strcmp(size_to_str(buf, sizeof(buf), 4096), "4k") == 0);
	CHECK(strcmp(size_to_str(buf, sizeof(buf), 64ull << 20), "64m") == 0);
	CHECK(strcmp(size_to_str(buf, sizeof(buf), 1536), "1536") == 0);
	CHECK(strcmp(time_to_str(buf, sizeof(buf), 2000 * MS), "2") == 0);
	CHECK(strcmp(time_to_str(buf, sizeof(buf), 500 * MS), "500ms") == 0);
}

static char *render(const struct report *r, int (*fn)(const struct report *, FILE *),
		    int *ret)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f) {
		perror("open_memstream");
		exit(1);
	}
	*ret = fn(r, f);
	fclose(f);
	return buf;
}

#define CHECK_HAS(text, line) \
	CHECK_MSG(strstr((text), (line)) != NULL, "missing line:\n%s", (line))

static void test_text(const struct report *r)
{
	static const char *const lines[] = {
		"  read: IOPS=98.4k, BW=384MiB/s (403MB/s)(769MiB/2001msec)\n"
		"    slat (nsec): min=1593, max=4057.6k, avg=3321.95, stdev=22753.51\n"
		"    clat (usec): min=2, max=9128, avg=36.79, stdev=93.88\n"
		"     lat (usec): min=5, max=9131, avg=40.11, stdev=96.70\n"
		"    clat percentiles (usec):\n"
		"     |  1.00th=[   31],  5.00th=[   31], 10.00th=[   31], 20.00th=[   31],\n"
		"     | 30.00th=[   31], 40.00th=[   31], 50.00th=[   31], 60.00th=[   71],\n"
		"     | 70.00th=[   71], 80.00th=[   71], 90.00th=[   71], 95.00th=[ 1500],\n"
		"     | 99.00th=[ 1500], 99.50th=[ 1500], 99.90th=[ 1500], 99.95th=[ 1500],\n"
		"     | 99.99th=[ 1500]\n"
		"   bw (  KiB/s): min=390016, max=416968, per=100.00%, avg=404173.33, stdev=13527.57, samples=3\n"
		"   iops        : min=97504, max=104242, avg=101043.33, stdev=3381.89, samples=3\n"
		"  write: IOPS=98.3k, BW=384MiB/s (402MB/s)(768MiB/2001msec); 0 zone resets\n"
		"    slat (nsec): min=1863, max=5197.1k, avg=3604.15, stdev=23680.51\n"
		"    clat (usec): min=12, max=9127, avg=36.31, stdev=82.93\n",
		"  lat (usec)   : 50=25.00%, 100=70.00%\n"
		"  lat (msec)   : 2=5.00%\n"
		"  cpu          : usr=23.14%, sys=70.26%, ctx=190, majf=0, minf=11\n"
		"  IO depths    : 1=0.1%, 2=0.1%, 4=0.1%, 8=100.0%, 16=0.0%, 32=0.0%, >=64=0.0%\n"
		"     submit    : 0=0.0%, 4=100.0%, 8=0.0%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
		"     complete  : 0=0.0%, 4=99.9%, 8=0.1%, 16=0.0%, 32=0.0%, 64=0.0%, >=64=0.0%\n"
		"     issued rwts: total=196820,196634,0,0 short=0,0,0,0 dropped=0,0,0,0\n"
		"     latency   : target=0, window=0, percentile=100.00%, depth=8\n",
		"\nRun status group 0 (all jobs):\n"
		"   READ: bw=384MiB/s (403MB/s), 384MiB/s-384MiB/s (403MB/s-403MB/s), io=769MiB (806MB), run=2001-2001msec\n"
		"  WRITE: bw=384MiB/s (402MB/s), 384MiB/s-384MiB/s (402MB/s-402MB/s), io=768MiB (805MB), run=2001-2001msec\n",
		"\nDisk stats (read/write):\n"
		"  loop0: ios=107404/107110, merge=0/0, ticks=3577/3679, in_queue=7256, util=91.07%\n",
		"p: (groupid=0, jobs=1): err= 5 (read of /dev/loop0 at offset 4096 failed: Input/output error): pid=4436: ",
		"    clat (nsec): min=741, max=1641, avg=1191.00, stdev=302.77\n",
		"     lat (nsec): min=762, max=1662, avg=1212.00, stdev=302.77\n",
		"  lat (nsec)   : 750=10.00%, 1000=20.00%\n"
		"  lat (usec)   : 2=70.00%\n",
	};
	char header[128], when[32];
	const char *job_p_at, *run_at, *disk_at;
	unsigned int i;
	char *text;
	int ret;

	text = render(r, report_text, &ret);
	CHECK(ret == 0);
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		CHECK_HAS(text, lines[i]);

	ctime_r(&r->timestamp, when);
	snprintf(header, sizeof(header), "t: (groupid=0, jobs=1): err= 0: pid=4335: %s", when);
	CHECK_HAS(text, header);
	CHECK(strncmp(text, "iodig: run interrupted", 22) == 0);

	/* fio's order: job stanzas, then groups, then disks; psync: no slat */
	job_p_at = strstr(text, "p: (groupid=0");
	run_at = strstr(text, "\nRun status group 0");
	disk_at = strstr(text, "\nDisk stats");
	CHECK(job_p_at && run_at && disk_at && job_p_at < run_at && run_at < disk_at);
	if (job_p_at && run_at) {
		char *job_p_text = strndup(job_p_at, (size_t)(run_at - job_p_at));

		CHECK(job_p_text && !strstr(job_p_text, "slat ("));
		CHECK(job_p_text && strstr(job_p_text, "depth=1\n"));
		free(job_p_text);
	}
	CHECK(!strstr(text, "Kernel"));   /* no probe set, no kernel section */
	free(text);
}

static struct json_object *jget(struct json_object *o, const char *path)
{
	char buf[256], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", path);
	for (tok = strtok_r(buf, "|", &save); tok && o; tok = strtok_r(NULL, "|", &save)) {
		char *end;
		long idx = strtol(tok, &end, 10);

		if (*end == '\0' && json_object_is_type(o, json_type_array))
			o = json_object_array_get_idx(o, (size_t)idx);
		else if (!json_object_object_get_ex(o, tok, &o))
			o = NULL;
	}
	if (!o)
		fprintf(stderr, "missing JSON key %s\n", path);
	return o;
}

static int64_t jint_at(struct json_object *root, const char *path)
{
	struct json_object *o = jget(root, path);

	return o ? json_object_get_int64(o) : -1;
}

static double jdbl_at(struct json_object *root, const char *path)
{
	struct json_object *o = jget(root, path);

	return o ? json_object_get_double(o) : NAN;
}

static const char *jstr_at(struct json_object *root, const char *path)
{
	struct json_object *o = jget(root, path);

	return o ? json_object_get_string(o) : "";
}

#define CHECK_INT(root, path, want) \
	CHECK_MSG(jint_at(root, path) == (int64_t)(want), "%s = %lld, want %lld", \
		  path, (long long)jint_at(root, path), (long long)(want))
#define CHECK_DBL(root, path, want) \
	CHECK_MSG(fabs(jdbl_at(root, path) - (want)) < 0.001, "%s = %f, want %f", \
		  path, jdbl_at(root, path), (double)(want))
#define CHECK_STR(root, path, want) \
	CHECK_MSG(strcmp(jstr_at(root, path), want) == 0, "%s = \"%s\", want \"%s\"", \
		  path, jstr_at(root, path), want)

static void test_json(const struct report *r)
{
	static const char *const ddir_keys[] = {
		"io_bytes", "io_kbytes", "bw_bytes", "bw", "iops", "runtime",
		"total_ios", "short_ios", "drop_ios", "slat_ns", "clat_ns", "lat_ns",
		"bw_min", "bw_max", "bw_agg", "bw_mean", "bw_dev", "bw_samples",
		"iops_min", "iops_max", "iops_mean", "iops_stddev", "iops_samples",
	};
	static const char *const job_keys[] = {
		"jobname", "groupid", "error", "eta", "elapsed", "job options",
		"read", "write", "trim", "sync", "job_runtime", "usr_cpu", "sys_cpu",
		"ctx", "majf", "minf", "iodepth_level", "iodepth_submit",
		"iodepth_complete", "latency_ns", "latency_us", "latency_ms",
		"latency_depth", "latency_target", "latency_percentile", "latency_window",
	};
	struct json_object *root;
	unsigned int i;
	char path[128];
	char *text;
	int ret;

	text = render(r, report_json, &ret);
	CHECK(ret == 0);
	CHECK(text && strlen(text) > 2 && text[strlen(text) - 1] == '\n');
	root = json_tokener_parse(text);
	CHECK_MSG(root != NULL, "report_json output does not parse");
	if (!root) {
		free(text);
		return;
	}

	CHECK_STR(root, "fio version", "iodig-" IODIG_VERSION);
	CHECK_INT(root, "timestamp", 1796012256);
	CHECK_INT(root, "timestamp_ms", 1796012256486ll);
	CHECK(jget(root, "time"));
	/* fio has no "global options" key when [global] gave none */
	CHECK(!r->nr_job_defs || jget(root, "global options"));
	CHECK(json_object_array_length(jget(root, "jobs")) == 2);
	for (i = 0; i < sizeof(job_keys) / sizeof(job_keys[0]); i++) {
		snprintf(path, sizeof(path), "jobs|0|%s", job_keys[i]);
		CHECK(jget(root, path) != NULL);
	}
	for (i = 0; i < sizeof(ddir_keys) / sizeof(ddir_keys[0]); i++) {
		snprintf(path, sizeof(path), "jobs|0|write|%s", ddir_keys[i]);
		CHECK(jget(root, path) != NULL);
		snprintf(path, sizeof(path), "jobs|1|trim|%s", ddir_keys[i]);
		CHECK(jget(root, path) != NULL);
	}

	CHECK_STR(root, "jobs|0|jobname", "t");
	CHECK_INT(root, "jobs|0|groupid", 0);
	CHECK_INT(root, "jobs|0|error", 0);
	CHECK_STR(root, "jobs|0|job options|rw", "randrw");
	CHECK_STR(root, "jobs|0|job options|bs", "4k");
	CHECK_STR(root, "jobs|0|job options|ioengine", "libaio");
	CHECK_STR(root, "jobs|0|job options|iodepth", "8");
	CHECK(jget(root, "jobs|0|job options|size") == NULL);
	CHECK_STR(root, "jobs|0|job options|filename", "/dev/loop0");
	CHECK_STR(root, "jobs|0|job options|runtime", "2");

	CHECK_INT(root, "jobs|0|read|io_bytes", 806354944);
	CHECK_INT(root, "jobs|0|read|io_kbytes", 787456);
	CHECK_INT(root, "jobs|0|read|bw_bytes", 402975984);
	CHECK_INT(root, "jobs|0|read|bw", 393531);
	CHECK_DBL(root, "jobs|0|read|iops", 196820.0 * 1000.0 / 2001.0);
	CHECK_INT(root, "jobs|0|read|runtime", 2001);
	CHECK_INT(root, "jobs|0|read|total_ios", 196820);
	CHECK_INT(root, "jobs|0|read|slat_ns|min", 1593);
	CHECK_INT(root, "jobs|0|read|clat_ns|N", 196820);
	CHECK_DBL(root, "jobs|0|read|clat_ns|stddev", 93880.0);
	CHECK_INT(root, "jobs|0|read|clat_ns|percentile|50.000000", 30080);
	CHECK_INT(root, "jobs|0|read|clat_ns|percentile|99.000000", 1499136);
	CHECK_INT(root, "jobs|0|read|clat_ns|percentile|99.990000", 1499136);
	CHECK_DBL(root, "jobs|0|read|lat_ns|mean", 40110.0);
	CHECK(!json_object_object_get_ex(jget(root, "jobs|0|read|lat_ns"), "percentile", NULL));
	CHECK_INT(root, "jobs|0|read|bw_min", 390016);
	CHECK_INT(root, "jobs|0|read|bw_max", 416968);
	CHECK_DBL(root, "jobs|0|read|bw_agg", 100.0);
	CHECK_DBL(root, "jobs|0|read|bw_mean", 404173.333333);
	CHECK_DBL(root, "jobs|0|read|bw_dev", 13527.572633);
	CHECK_INT(root, "jobs|0|read|bw_samples", 3);
	CHECK_DBL(root, "jobs|0|read|iops_stddev", 3381.893158);
	CHECK_INT(root, "jobs|0|sync|total_ios", 0);
	CHECK_INT(root, "jobs|0|job_runtime", 2001);
	CHECK_DBL(root, "jobs|0|usr_cpu", 463.0 * 100.0 / 2001.0);
	CHECK_DBL(root, "jobs|0|sys_cpu", 1406.0 * 100.0 / 2001.0);
	CHECK_INT(root, "jobs|0|ctx", 190);
	CHECK_INT(root, "jobs|0|minf", 11);
	CHECK_DBL(root, "jobs|0|iodepth_level|1", 0.1);
	CHECK_DBL(root, "jobs|0|iodepth_level|>=64", 0.0);
	CHECK_DBL(root, "jobs|0|iodepth_complete|8", 0.1);
	CHECK_DBL(root, "jobs|0|latency_us|50", 25.0);
	CHECK_DBL(root, "jobs|0|latency_us|100", 70.0);
	CHECK_DBL(root, "jobs|0|latency_ms|2", 5.0);
	CHECK_DBL(root, "jobs|0|latency_ms|>=2000", 0.0);
	CHECK_DBL(root, "jobs|0|latency_ns|1000", 0.0);
	CHECK_INT(root, "jobs|0|latency_depth", 8);
	CHECK_DBL(root, "jobs|0|latency_percentile", 100.0);

	CHECK_STR(root, "jobs|1|jobname", "p");
	CHECK_INT(root, "jobs|1|error", EIO);
	CHECK_INT(root, "jobs|1|read|slat_ns|N", 0);
	CHECK_INT(root, "jobs|1|read|clat_ns|N", 10);
	CHECK_INT(root, "jobs|1|read|clat_ns|min", 741);
	CHECK_INT(root, "jobs|1|write|io_bytes", 0);
	CHECK_INT(root, "jobs|1|write|runtime", 0);
	CHECK_INT(root, "jobs|1|latency_depth", 1);

	CHECK(json_object_array_length(jget(root, "disk_util")) == 1);
	CHECK_STR(root, "disk_util|0|name", "loop0");
	CHECK_INT(root, "disk_util|0|read_ios", 107404);
	CHECK_INT(root, "disk_util|0|write_ios", 107110);
	CHECK_INT(root, "disk_util|0|write_ticks", 3679);
	CHECK_INT(root, "disk_util|0|in_queue", 7256);
	CHECK_DBL(root, "disk_util|0|util", 91.07);

	CHECK_STR(root, "iodig|version", IODIG_VERSION);
	CHECK_STR(root, "iodig|kernel_release", "6.18.0");
	CHECK_STR(root, "iodig|hostname", "vm");
	CHECK(json_object_get_boolean(jget(root, "iodig|interrupted")));
	CHECK(json_object_is_type(jget(root, "iodig|kernel"), json_type_object));

	/* fio writes paths as they are, not "\/dev\/loop0" */
	CHECK(strstr(text, "\"/dev/loop0\"") != NULL);
	json_object_put(root);
	free(text);
}

/* group_reporting: two members folded into one entry; CPU % is the
 * average member's, job_runtime fio's sum over members. */
static void test_group_entry(void)
{
	static struct worker_stats w[2];
	static struct report_job e;
	struct report r;
	struct json_object *root;
	unsigned int i;
	char *text;
	int ret;

	memset(&e, 0, sizeof(e));
	for (i = 0; i < 2; i++) {
		worker_stats_init(&w[i]);
		w[i].pid = w[i].tid = 100 + (int)i;
		w[i].start_ns = 1000 * MS;
		w[i].end_ns = (2000 + i) * MS;
		w[i].runtime_ns = (1000 + i) * MS;
		w[i].ddir_run_us[DDIR_READ] = (1000 + i) * 1000;
		w[i].usr_ns = 100 * MS;
		w[i].sys_ns = 300 * MS;
		stats_account_io(&w[i], DDIR_READ, 4096, 4096, 0, 5000, 5100, false);
		w[i].issued[DDIR_READ] = 1;
		lat_acc_add(&w[i].dir[DDIR_READ].bw_kib, 1000 + 1000 * i);
		worker_stats_merge(&e.st, &w[i]);
	}
	/* large min and max but a small spread: fio keeps nsec */
	set_acc(&e.st.dir[DDIR_READ].clat, 2, 3000, 150000, 4000, 900);
	e.job = &job_p;
	e.nr_workers = 2;
	e.pid = 100;
	memset(&r, 0, sizeof(r));
	r.jobs = &e;
	r.nr_jobs = 1;

	text = render(&r, report_text, &ret);
	CHECK(ret == 0);
	CHECK_HAS(text, "p: (groupid=0, jobs=2): err= 0: pid=100: ");
	CHECK_HAS(text, "(8192B/1001msec)\n");
	CHECK_HAS(text, "    clat (nsec): min=3000, max=150000, avg=4000.00, stdev=900.00\n");
	CHECK_HAS(text, "  cpu          : usr=9.99%, sys=29.97%, ctx=0, majf=0, minf=0\n");
	/* member rates add up: min 1000 + 2000 */
	CHECK_HAS(text, "   bw (  KiB/s): min= 3000, max= 3000, per=100.00%, avg=3000.00, stdev= 0.00, samples=2\n");
	free(text);

	text = render(&r, report_json, &ret);
	CHECK(ret == 0);
	root = json_tokener_parse(text);
	CHECK(root != NULL);
	if (root) {
		CHECK_INT(root, "jobs|0|job_runtime", 2002);
		CHECK_INT(root, "jobs|0|read|runtime", 1001);
		CHECK_INT(root, "jobs|0|read|total_ios", 2);
		CHECK_INT(root, "jobs|0|iodig|workers", 2);
		CHECK_DBL(root, "jobs|0|usr_cpu", 200.0 * 100.0 / 2002.0);
	}
	json_object_put(root);
	free(text);
}

/* An empty report still renders and parses (no jobs, no disks). */
static void test_empty(void)
{
	struct report r;
	struct json_object *root;
	char *text;
	int ret;

	memset(&r, 0, sizeof(r));
	text = render(&r, report_text, &ret);
	CHECK(ret == 0 && text && !strstr(text, "Disk stats"));
	free(text);
	text = render(&r, report_json, &ret);
	CHECK(ret == 0);
	root = json_tokener_parse(text);
	CHECK(root && json_object_array_length(jget(root, "jobs")) == 0);
	CHECK(root && !json_object_object_get_ex(root, "disk_util", NULL));
	json_object_put(root);
	free(text);
}

static const struct figure_def fig_x = {
	FIGURE_KERNEL, "kernel.x_per_io", "x per I/O", NULL, "", FIGURE_LOWER, 0
};

static void kernel_section(struct report_kernel *k, int group, double x)
{
	memset(k, 0, sizeof(*k));
	k->group_id = group;
	k->run_group = group;
	k->text = strdup("  sched     : active, tp_btf\n");
	k->json = json_tokener_parse("{\"probes\": [{\"family\": \"sched\"}], \"sched\": {\"switches\": 7}}");
	figure_put(&k->figures, &fig_x, x);
}

static void kernel_free(struct report_kernel *k)
{
	free(k->text);
	json_object_put(k->json);
	figure_set_free(&k->figures);
}

/*
 * One job group: the "Kernel:" section at the end and iodig.kernel, as
 * always.  Two: each group's section after its last job, saying which jobs
 * it covers, iodig.groups[] with each one's, and figures per group.
 */
static void test_kernel_groups(void)
{
	struct report_group groups[2] = { group, group };
	struct report_kernel k[2];
	struct job defs[2];
	struct figure_set figs = { 0 };
	struct json_object *root;
	struct report r;
	char *text, *at_p, *at_k1;
	int ret;

	build_report(&r);
	kernel_section(&k[0], 0, 0.5);
	r.kernels = k;
	r.nr_kernels = 1;
	text = render(&r, report_text, &ret);
	CHECK(ret == 0 && text && strstr(text, "\nDisk stats") &&
	      strstr(strstr(text, "\nDisk stats"), "\nKernel:\n  sched     : active"));
	free(text);
	text = render(&r, report_json, &ret);
	root = text ? json_tokener_parse(text) : NULL;
	CHECK(root && jint_at(root, "iodig|kernel|sched|switches") == 7 &&
	      !json_object_object_get_ex(jget(root, "iodig"), "groups", NULL));
	json_object_put(root);
	free(text);
	CHECK(report_run_figures(&r, &figs) == 0 && figure_find(&figs, "kernel.x_per_io") &&
	      figure_find(&figs, "iops") && !figure_find(&figs, "g0/iops"));
	figure_set_free(&figs);

	/* job t in group 0, job p in group 1 */
	defs[0] = job_t;
	defs[1] = job_p;
	snprintf(defs[1].name, sizeof(defs[1].name), "p");
	defs[0].numjobs = 1;
	defs[1].numjobs = 2;
	defs[1].group_id = 1;
	defs[1].run_group = 1;
	job_p.group_id = 1;
	job_p.run_group = 1;
	groups[1].id = 1;
	r.groups = groups;
	r.nr_groups = 2;
	r.job_defs = defs;
	r.nr_job_defs = 2;
	kernel_section(&k[1], 1, 0.25);
	r.nr_kernels = 2;
	text = render(&r, report_text, &ret);
	at_p = text ? strstr(text, "\np: (groupid=1") : NULL;
	at_k1 = text ? strstr(text, "\nKernel, group 1 (job p: 2 workers):\n  sched") : NULL;
	CHECK(ret == 0 && at_p && at_k1 && at_p < at_k1);
	CHECK(text && strstr(text, "\nKernel, group 0 (job t: 1 worker):\n") &&
	      strstr(text, "\nKernel, group 0 (") < at_p && !strstr(text, "\nKernel:"));
	CHECK(at_k1 && strstr(at_k1, "\nRun status group 0"));
	free(text);
	text = render(&r, report_json, &ret);
	root = text ? json_tokener_parse(text) : NULL;
	CHECK(root && jget(root, "iodig|kernel|probes") &&
	      !json_object_object_get_ex(jget(root, "iodig|kernel"), "sched", NULL));
	CHECK(root && jint_at(root, "iodig|groups|1|group") == 1 &&
	      jint_at(root, "iodig|groups|1|workers") == 2 &&
	      !strcmp(jstr_at(root, "iodig|groups|1|jobs|0"), "p") &&
	      jint_at(root, "iodig|groups|1|kernel|sched|switches") == 7);
	json_object_put(root);
	free(text);
	CHECK(report_run_figures(&r, &figs) == 0);
	CHECK(figure_find(&figs, "iops") && !figure_find(&figs, "kernel.x_per_io"));
	CHECK(figure_find(&figs, "g0/iops") && figure_find(&figs, "g1/iops"));
	CHECK(figure_find(&figs, "g1/kernel.x_per_io") &&
	      figure_find(&figs, "g1/kernel.x_per_io")->value == 0.25);
	/* whole run first, then group 0 whole, then group 1 */
	CHECK(figs.n > 2 && !strcmp(figs.v[0].key, "iops") &&
	      !strcmp(figs.v[figs.n - 1].key, "g1/kernel.x_per_io"));
	figure_set_free(&figs);
	job_p.group_id = 0;
	job_p.run_group = 0;
	kernel_free(&k[0]);
	kernel_free(&k[1]);
}

/* A write+verify job: the reads ran in the verify phase alone, so the
 * figures divide each direction by its own runtime, as the report does. */
static void test_figures_ddir_runtime(void)
{
	static struct report_job e;
	struct figure_set figs = { 0 };
	struct json_object *root;
	struct report r;
	const struct figure *rd, *wr, *all;
	char *text;
	int ret;

	memset(&e, 0, sizeof(e));
	worker_stats_init(&e.st);
	e.st.runtime_ns = 1000 * MS;
	e.st.ddir_run_us[DDIR_WRITE] = 800 * 1000;
	e.st.ddir_run_us[DDIR_READ] = 200 * 1000;
	for (unsigned int i = 0; i < 100; i++) {
		stats_account_io(&e.st, DDIR_WRITE, 4096, 4096, 0, 5000, 5100, false);
		stats_account_io(&e.st, DDIR_READ, 4096, 4096, 0, 3000, 3100, false);
	}
	e.st.issued[DDIR_READ] = e.st.issued[DDIR_WRITE] = 100;
	e.job = &job_t;
	e.nr_workers = 1;
	memset(&r, 0, sizeof(r));
	r.jobs = &e;
	r.nr_jobs = 1;
	CHECK(report_figures(&r, -1, &figs) == 0);
	rd = figure_find(&figs, "read.iops");
	wr = figure_find(&figs, "write.iops");
	all = figure_find(&figs, "iops");
	CHECK(rd && fabs(rd->value - 500.0) < 1e-9);
	CHECK(wr && fabs(wr->value - 125.0) < 1e-9);
	CHECK(all && fabs(all->value - 625.0) < 1e-9);
	CHECK(figure_find(&figs, "read.bw_kib") &&
	      fabs(figure_find(&figs, "read.bw_kib")->value - 2000.0) < 1e-9);
	text = render(&r, report_json, &ret);
	root = text ? json_tokener_parse(text) : NULL;
	CHECK(root && rd && fabs(jdbl_at(root, "jobs|0|read|iops") - rd->value) < 1e-6);
	CHECK(root && wr && fabs(jdbl_at(root, "jobs|0|write|iops") - wr->value) < 1e-6);
	json_object_put(root);
	free(text);
	figure_set_free(&figs);
}

int main(void)
{
	struct report r;

	/* fixed zone so the ctime header is reproducible */
	setenv("TZ", "UTC", 1);
	tzset();
	test_num2str();
	build_report(&r);
	test_text(&r);
	test_json(&r);
	test_group_entry();
	test_empty();
	test_kernel_groups();
	test_figures_ddir_runtime();
	return CHECK_DONE();
}
