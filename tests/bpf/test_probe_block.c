// Real BPF on two real loop devices: the block family counts exactly the target's O_DIRECT reads (not the other disk's) via tp_btf, raw_tp and the classic tracepoint, and leaves no program behind.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <json-c/json.h>

#include "probes/probe.h"
#include "tests/lib/check.h"
#include "tests/lib/bpf_progs.h"
#include "tests/lib/loopdev.h"

#define NR_READS   1000
#define NR_OTHER   300
#define BLOCK_SZ   4096
#define LOOP_BYTES (64ull << 20)
#define MAX_IDS    64

/* @n synchronous O_DIRECT 4 KiB reads at random aligned offsets. */
static int random_reads(const char *path, int n, unsigned int seed)
{
	void *buf = NULL;
	int fd, done = 0;

	fd = open(path, O_RDONLY | O_DIRECT);
	if (fd < 0)
		return -errno;
	if (posix_memalign(&buf, BLOCK_SZ, BLOCK_SZ)) {
		close(fd);
		return -ENOMEM;
	}
	for (int i = 0; i < n; i++) {
		off_t off = (off_t)(rand_r(&seed) % (LOOP_BYTES / BLOCK_SZ)) * BLOCK_SZ;

		if (pread(fd, buf, BLOCK_SZ, off) == BLOCK_SZ)
			done++;
	}
	free(buf);
	close(fd);
	return done;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct prog_ids {
	uint32_t *ids;
	int n, max;
};

static bool add_iodig_id(const struct bpf_prog_info *info, void *arg)
{
	struct prog_ids *p = arg;

	if (!strncmp(info->name, "iodig_", 6) && p->n < p->max)
		p->ids[p->n++] = info->id;
	return false;
}

/* IDs of loaded programs whose name starts with "iodig_". */
static int iodig_prog_ids(uint32_t *ids, int max)
{
	struct prog_ids p = { .ids = ids, .max = max };

	progs_find(add_iodig_id, &p);
	return p.n;
}

static bool id_in(uint32_t id, const uint32_t *ids, int n)
{
	for (int i = 0; i < n; i++)
		if (ids[i] == id)
			return true;
	return false;
}

static bool named(const struct bpf_prog_info *info, void *name)
{
	return !strcmp(info->name, name);
}

static bool prog_loaded(const char *name)
{
	return progs_find(named, (void *)name);
}

static struct json_object *path_get(struct json_object *o, const char *a, const char *b)
{
	struct json_object *x = NULL, *y = NULL;

	if (!json_object_object_get_ex(o, a, &x))
		return NULL;
	if (!b)
		return x;
	return json_object_object_get_ex(x, b, &y) ? y : NULL;
}

static int64_t get_i64(struct json_object *o, const char *a, const char *b)
{
	struct json_object *x = path_get(o, a, b);

	return x ? json_object_get_int64(x) : -1;
}

static bool sysfs_is_one(const char *disk, const char *attr)
{
	char path[128], v[8] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/sys/block/%s/queue/%s", disk, attr);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (!fgets(v, sizeof(v), f))
		v[0] = '\0';
	fclose(f);
	return v[0] == '1';
}

/*
 * One probe window: reads on @a (counted) and @b (filtered out).
 * @mech/@state: what the family must report.  @detail: --detail, which
 * adds the issue hook (by default only the completion hook runs).
 * @stride: --block-sample, 0 = from the rate, which no tick sets here, so
 * every request is timed.
 */
static void run_case(const struct loopdev *a, const struct loopdev *b,
		     const char *disabled, const char *mech, const char *state, bool detail,
		     unsigned int stride)
{
	struct probe_env env = { .target_dev = a->rdev, .disabled = disabled,
				 .detail = detail, .block_time_stride = stride };
	struct probe_workload wl = { .ios = NR_READS, .sync_engine = true };
	uint64_t t0;
	uint32_t before[MAX_IDS], during[MAX_IDS], after[MAX_IDS];
	int nb, nd, na, ours = 0, n;
	struct probe_set *set = NULL;
	struct errbuf err = { .msg = "" };
	struct json_object *iodig = NULL, *kernel, *blk, *probes, *p0;
	bool timed = strcmp(mech, "tracepoint") != 0;
	bool had_tracefs = access("/sys/kernel/tracing/events", F_OK) == 0;
	const char *sfx = !strcmp(mech, "tp_btf") ? "btf" :
			  !strcmp(mech, "raw_tp") ? "raw" : "tp";
	char issue_name[32], compl_name[32];
	char *text = NULL;
	size_t text_len = 0;
	FILE *mem;

	fprintf(stderr, "case disabled=%s%s, stride %u: expect %s (%s)\n",
		disabled ? disabled : "(none)", detail ? ", --detail" : "", stride, mech, state);
	snprintf(env.target_disk, sizeof(env.target_disk), "%s", a->name);
	nb = iodig_prog_ids(before, MAX_IDS);
	CHECK_MSG(probes_open(&env, "block", &set, &err) == 0, "%s", err.msg);
	if (!set)
		return;
	nd = iodig_prog_ids(during, MAX_IDS);
	for (int i = 0; i < nd; i++)
		ours += !id_in(during[i], before, nb);
	snprintf(issue_name, sizeof(issue_name), "iodig_issue_%s", sfx);
	snprintf(compl_name, sizeof(compl_name), "iodig_compl_%s", sfx);
	CHECK_MSG(ours >= (detail ? 2 : 1), "%d new iodig_ programs while open", ours);
	CHECK_MSG(prog_loaded(compl_name), "%s not loaded", compl_name);
	CHECK_MSG(prog_loaded(issue_name) == detail, "%s %sloaded", issue_name,
		  detail ? "not " : "");

	t0 = now_ns();
	n = random_reads(a->path, NR_READS, 1);
	wl.runtime_ns = now_ns() - t0;
	CHECK_MSG(n == NR_READS, "%d of %d reads on %s", n, NR_READS, a->path);
	n = random_reads(b->path, NR_OTHER, 2);
	CHECK_MSG(n == NR_OTHER, "%d of %d reads on %s", n, NR_OTHER, b->path);

	CHECK(probes_collect(set, &wl) == 0);
	iodig = json_object_new_object();
	probes_render_json(set, iodig);
	kernel = path_get(iodig, "kernel", NULL);
	probes = path_get(iodig, "kernel", "probes");
	CHECK(kernel && probes && json_object_array_length(probes) >= 1);
	p0 = NULL;
	for (size_t i = 0; probes && i < json_object_array_length(probes); i++) {
		struct json_object *e = json_object_array_get_idx(probes, i);
		struct json_object *fam = path_get(e, "family", NULL);

		if (fam && !strcmp(json_object_get_string(fam), "block"))
			p0 = e;
	}
	CHECK_MSG(p0 && !strcmp(json_object_get_string(path_get(p0, "mechanism", NULL)), mech),
		  "mechanism %s, want %s (reason: %s)",
		  p0 ? json_object_get_string(path_get(p0, "mechanism", NULL)) : "?", mech,
		  p0 ? json_object_get_string(path_get(p0, "reason", NULL)) : "?");
	CHECK_MSG(p0 && !strcmp(json_object_get_string(path_get(p0, "state", NULL)), state),
		  "state %s, want %s",
		  p0 ? json_object_get_string(path_get(p0, "state", NULL)) : "?", state);
	blk = kernel ? path_get(kernel, "block", NULL) : NULL;
	CHECK_MSG(blk && !strcmp(json_object_get_string(path_get(blk, "queue_time_from", NULL)),
				 detail ? "issue hook" : "request stamps"),
		  "queue_time_from %s", blk ? json_object_get_string(
			  path_get(blk, "queue_time_from", NULL)) : "?");

	CHECK(blk != NULL);
	if (blk) {
		int64_t v;

		int64_t done, issued;

		/* The loops are private to this test and nothing else reads
		 * them, so the issue count is exact.  Completions may come up
		 * short: on 6.18 the kernel occasionally runs no program for a
		 * batch of completions done in softirq on top of another task
		 * (tracefs records them, recursion_misses stays 0).  The family
		 * counts those against the disk's own statistics, so what it
		 * saw and what it says it missed add up to every read. */
		v = get_i64(blk, "issued", "read");
		issued = v + get_i64(blk, "drops", "issues_undelivered");
		CHECK_MSG(v >= 0 && issued == NR_READS,
			  "issued.read %lld + drops.issues_undelivered %lld, want %d", (long long)v,
			  (long long)(issued - v), NR_READS);
		done = get_i64(blk, "requests", "read");
		v = get_i64(blk, "drops", "undelivered");
		CHECK_MSG(done >= 0 && v >= 0 && done + v == NR_READS,
			  "requests.read %lld + drops.undelivered %lld, want %d",
			  (long long)done, (long long)v, NR_READS);
		if (done != NR_READS)
			fprintf(stderr, "note: %lld completions were not delivered\n",
				(long long)(NR_READS - done));
		v = get_i64(blk, "disk_completed", NULL);
		CHECK_MSG(v == NR_READS, "disk_completed %lld, want %d", (long long)v, NR_READS);
		/* a request whose issue and completion both went undelivered
		 * leaves no unmatched issue */
		issued -= get_i64(blk, "drops", "issues_undelivered");
		v = get_i64(blk, "unmatched_issues", NULL);
		CHECK_MSG(v == (issued > done ? issued - done : 0), "unmatched_issues %lld, want %lld",
			  (long long)v, (long long)(issued > done ? issued - done : 0));
		v = get_i64(blk, "bytes", "read");
		CHECK_MSG(v == done * BLOCK_SZ, "bytes.read %lld, want %lld",
			  (long long)v, (long long)(done * BLOCK_SZ));
		v = get_i64(blk, "requests", "write");
		CHECK_MSG(v == 0, "requests.write %lld, want 0", (long long)v);
		v = get_i64(blk, "errors", "total");
		CHECK_MSG(v == 0, "errors.total %lld", (long long)v);
		v = get_i64(blk, "requeued", "total");
		CHECK_MSG(v == 0, "requeued.total %lld", (long long)v);
		v = get_i64(blk, "drops", "recursion");
		CHECK_MSG(v == 0, "drops.recursion %lld, want 0", (long long)v);
		CHECK_MSG(!path_get(blk, "missed_events", NULL), "old key missed_events still there");
		if (timed && stride > 1) {
			/* A random 1 in stride, each weighted by the stride:
			 * the gaps between timed requests are uniform on
			 * 1..2*stride-1, so the count of timed ones varies by
			 * a few; 0.7-1.3 of the mean is > 6 sigma. */
			int64_t t = get_i64(blk, "device_ns", "timed");
			int64_t want = done / stride;

			v = get_i64(blk, "device_ns", "samples");
			CHECK_MSG(v == t * stride, "device_ns.samples %lld, want %lld timed x %u",
				  (long long)v, (long long)t, stride);
			CHECK_MSG(t >= want * 7 / 10 && t <= want * 13 / 10,
				  "device_ns.timed %lld for %lld requests at 1 in %u",
				  (long long)t, (long long)done, stride);
			CHECK_MSG(get_i64(blk, "timing", "stride_max") == stride,
				  "timing.stride_max %lld, want %u",
				  (long long)get_i64(blk, "timing", "stride_max"), stride);
			CHECK_MSG(get_i64(blk, "device_ns", "p50") > 0, "device_ns.p50 0");
			CHECK_MSG(get_i64(blk, "device_ns", "max") > 0, "device_ns.max 0");
		} else if (timed) {
			struct json_object *dev = path_get(blk, "device_ns", NULL);
			double mean = dev ? json_object_get_double(path_get(dev, "mean", NULL)) : -1;
			struct json_object *tm = path_get(blk, "timing", NULL);

			CHECK_MSG(get_i64(blk, "timing", "stride_max") == 1 &&
				  !strcmp(json_object_get_string(path_get(tm, "stride_from", NULL)),
					  detail ? "fixed" : "completion rate"),
				  "timing %s", json_object_to_json_string(tm));
			v = get_i64(blk, "device_ns", "timed");
			CHECK_MSG(v == done, "device_ns.timed %lld, want %lld",
				  (long long)v, (long long)done);
			v = get_i64(blk, "device_ns", "samples");
			CHECK_MSG(v == done, "device_ns.samples %lld, want %lld",
				  (long long)v, (long long)done);
			CHECK_MSG(mean > 0 && mean < 1e9, "device_ns.mean %f", mean);
			v = get_i64(blk, "device_ns", "p99");
			CHECK_MSG(v > 0 && v < 1000000000, "device_ns.p99 %lld", (long long)v);
			/* One request at a time, so the driver was busy at most
			 * the whole time the reads took. */
			mean = json_object_get_double(path_get(blk, "inflight_mean", NULL));
			CHECK_MSG(mean > 0.0 && mean <= 1.0, "inflight_mean %f", mean);
			v = get_i64(blk, "device_ns", "max");
			CHECK_MSG(v > 0 && v < 1000000000, "device_ns.max %lld", (long long)v);
			/* rq->start_time_ns is only stamped with iostats on.
			 * Queue time is taken at the issue with --detail (the
			 * issue hook), else at the completion, so each
			 * request the program saw there has one sample. */
			int64_t seen = detail ? issued : done;

			v = get_i64(blk, "queue_ns", "samples");
			if (sysfs_is_one(a->name, "iostats")) {
				CHECK_MSG(v == seen, "queue_ns.samples %lld, want %lld (%s seen)",
					  (long long)v, (long long)seen,
					  detail ? "issues" : "completions");
				/* the issue hook's own clock read is later than
				 * the start stamp */
				if (detail)
					CHECK_MSG(get_i64(blk, "queue_ns", "p50") > 0,
						  "queue_ns.p50 0 with the issue hook");
			} else
				CHECK_MSG(get_i64(blk, "queue_ns", "untimed") == seen,
					  "queue_ns.untimed %lld, iostats off, want %lld",
					  (long long)get_i64(blk, "queue_ns", "untimed"),
					  (long long)seen);
			/* --detail: every read is one bio and one request, so
			 * each passes Q2G and then G2D or G2I + I2D once */
			if (detail) {
				struct json_object *st = path_get(blk, "stages", NULL);
				int64_t q2g = get_i64(st, "q2g_ns", "samples");
				int64_t g2d = get_i64(st, "g2d_ns", "samples");
				int64_t g2i = get_i64(st, "g2i_ns", "samples");
				int64_t i2d = get_i64(st, "i2d_ns", "samples");

				CHECK_MSG(q2g == NR_READS && g2d + g2i == NR_READS && i2d == g2i,
					  "stages: Q2G %lld, G2D %lld, G2I %lld, I2D %lld for %d reads",
					  (long long)q2g, (long long)g2d, (long long)g2i,
					  (long long)i2d, NR_READS);
				CHECK_MSG(get_i64(st, "q2g_ns", "p50") > 0, "Q2G p50 is 0");
			} else {
				CHECK_MSG(!path_get(blk, "stages", NULL),
					  "stages without --detail");
			}
		} else {
			CHECK_MSG(path_get(blk, "device_ns", NULL) == NULL,
				  "tracepoint mechanism reported device time");
		}
	}
	mem = open_memstream(&text, &text_len);
	if (mem) {
		char want[64];

		probes_render_text(set, mem);
		fclose(mem);
		snprintf(want, sizeof(want), "block (%s): mechanism=%s", a->name, mech);
		CHECK_MSG(text && strstr(text, want), "text lacks \"%s\":\n%s", want,
			  text ? text : "");
		CHECK_MSG(text && !strstr(text, "times: estimated from") == !(timed && stride > 1),
			  "estimate line %s:\n%s", stride > 1 ? "missing" : "present",
			  text ? text : "");
		free(text);
	}
	json_object_put(iodig);
	probes_destroy(set);

	/* Program release is synchronous in close(); allow a moment anyway. */
	for (int tries = 0; tries < 100; tries++) {
		int left = 0;

		na = iodig_prog_ids(after, MAX_IDS);
		for (int i = 0; i < na; i++)
			left += id_in(after[i], during, nd) && !id_in(after[i], before, nb);
		if (!left)
			break;
		if (tries == 99)
			CHECK_MSG(left == 0, "%d iodig_ programs left after destroy", left);
		usleep(10000);
	}
	CHECK_MSG(had_tracefs || access("/sys/kernel/tracing/events", F_OK) != 0,
		  "tracefs left mounted");
}

/* A family disabled by IODIG_DISABLE is missing; the set still opens. */
static void run_disabled_family(const struct loopdev *a)
{
	struct probe_env env = { .target_dev = a->rdev };
	struct probe_set *set = NULL;
	struct errbuf err = { .msg = "" };
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	setenv("IODIG_DISABLE", "block", 1);
	CHECK_MSG(probes_open(&env, NULL, &set, &err) == 0, "%s", err.msg);
	unsetenv("IODIG_DISABLE");
	mem = open_memstream(&text, &len);
	if (set && mem) {
		probes_print_table(set, mem);
		fclose(mem);
		CHECK_MSG(text && strstr(text, "missing") &&
			  strstr(text, "disabled by IODIG_DISABLE"),
			  "table:\n%s", text ? text : "");
		free(text);
	}
	probes_destroy(set);

	set = NULL;
	CHECK_MSG(probes_open(&env, "block,nosuch", &set, &err) == -EINVAL && !set,
		  "unknown family accepted");
}

int main(void)
{
	struct loopdev a = LOOPDEV_INIT, b = LOOPDEV_INIT;
	int err;

	if (geteuid() != 0)
		SKIP("needs root to load BPF programs and create loop devices");
	if (access("/dev/shm", W_OK))
		SKIP("/dev/shm not writable");
	if (access("/dev/loop-control", F_OK))
		SKIP("no /dev/loop-control (loop driver not loaded)");
	unsetenv("IODIG_DISABLE");

	err = loopdev_create(&a, "probe-block-a", LOOP_BYTES);
	if (!err)
		err = loopdev_create(&b, "probe-block-b", LOOP_BYTES);
	if (err) {
		loopdev_destroy(&a);
		loopdev_destroy(&b);
		SKIP("cannot create loop devices (%s)", strerror(-err));
	}
	fprintf(stderr, "target %s (%u:%u), other %s\n", a.path, major(a.rdev),
		minor(a.rdev), b.path);

	run_case(&a, &b, NULL, "tp_btf", "active", false, 0);
	run_case(&a, &b, NULL, "tp_btf", "active", true, 0);
	run_case(&a, &b, NULL, "tp_btf", "active", false, 8);
	run_case(&a, &b, "tp_btf", "raw_tp", "degraded", false, 0);
	run_case(&a, &b, "tp_btf", "raw_tp", "degraded", true, 0);
	run_case(&a, &b, "tp_btf", "raw_tp", "degraded", false, 8);
	run_case(&a, &b, "tp_btf,raw_tp", "tracepoint", "degraded", true, 0);
	run_disabled_family(&a);

	loopdev_destroy(&a);
	loopdev_destroy(&b);
	return CHECK_DONE();
}
