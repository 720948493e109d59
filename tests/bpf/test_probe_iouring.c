// iouring probe: O_DIRECT io_uring reads on zram are punted to io-wq (>= 95%, workers seen), on a loop device they are not (<= 5%); raw_tp and tracepoint fallbacks count the same.
/* timeout: 120 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "tests/lib/check.h"
#include "tests/lib/loopdev.h"
#include "probes/probe.h"

#define DEV_SIZE (256ull << 20)
#define BS 4096
#define IODEPTH 32

/* ---- zram, made for the test and always removed ---- */

static int write_str(const char *path, const char *s)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -1;
	ret = fputs(s, f) < 0;
	ret |= fclose(f) != 0;
	return ret ? -1 : 0;
}

/*
 * A new zram device from /sys/class/zram-control, loading the module first
 * when there is none (*loaded_module is then set, for zram_destroy to undo);
 * -1 with @why when zram is not available here.
 */
static int zram_create(char *dev, size_t size, bool *loaded_module, char *why,
		       size_t why_size)
{
	static const char hot_add[] = "/sys/class/zram-control/hot_add";
	char path[128], buf[32];
	FILE *f;
	int id = -1;

	*loaded_module = false;
	if (access(hot_add, F_OK) &&
	    system("modprobe zram num_devices=0 >/dev/null 2>&1") == 0)
		*loaded_module = access(hot_add, F_OK) == 0;
	f = fopen(hot_add, "r");
	if (!f) {
		snprintf(why, why_size, "no zram: %s missing and modprobe zram failed",
			 hot_add);
		return -1;
	}
	if (!fgets(buf, sizeof(buf), f) || sscanf(buf, "%d", &id) != 1)
		id = -1;
	fclose(f);
	if (id < 0) {
		snprintf(why, why_size, "zram hot_add gave no device");
		goto fail;
	}
	snprintf(path, sizeof(path), "/sys/block/zram%d/disksize", id);
	if (write_str(path, "256M")) {
		snprintf(why, why_size, "cannot size zram%d: %s", id, strerror(errno));
		snprintf(buf, sizeof(buf), "%d", id);
		write_str("/sys/class/zram-control/hot_remove", buf);
		goto fail;
	}
	snprintf(dev, size, "/dev/zram%d", id);
	return id;
fail:
	if (*loaded_module && system("modprobe -r zram >/dev/null 2>&1"))
		fprintf(stderr, "note: could not unload the zram module\n");
	return -1;
}

static void zram_destroy(int id, bool unload_module)
{
	char path[64], buf[16];

	if (id < 0)
		return;
	snprintf(path, sizeof(path), "/sys/block/zram%d/reset", id);
	write_str(path, "1");
	snprintf(buf, sizeof(buf), "%d", id);
	write_str("/sys/class/zram-control/hot_remove", buf);
	if (unload_module && system("modprobe -r zram >/dev/null 2>&1"))
		fprintf(stderr, "note: could not unload the zram module\n");
}

/* ---- the workload: io_uring O_DIRECT 4k random reads, queue depth 32 ---- */

struct uring_job {
	const char *dev;
	double seconds;
	uint64_t ios;
	int err;
	volatile int done;           /* the thread has finished */
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void queue_read(struct io_uring *ring, int fd, char *buf, unsigned int *seed)
{
	struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
	uint64_t blk = ((uint64_t)rand_r(seed) << 16 ^ (uint64_t)rand_r(seed)) %
		       (DEV_SIZE / BS);

	io_uring_prep_read(sqe, fd, buf, BS, blk * BS);
	io_uring_sqe_set_data(sqe, buf);
}

/* Runs in its own thread: a fresh task gets a fresh io-wq, so its workers
 * are born while the probes watch. */
static void *uring_thread(void *arg)
{
	struct uring_job *j = arg;
	unsigned int seed = 12345, inflight = 0;
	struct io_uring ring;
	char *bufs = NULL;
	bool ring_ok = false;
	double end;
	int fd;

	j->err = -1;
	fd = open(j->dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0 || posix_memalign((void **)&bufs, BS, (size_t)BS * IODEPTH))
		goto out;
	if (io_uring_queue_init(IODEPTH * 2, &ring, 0))
		goto out;
	ring_ok = true;
	for (int i = 0; i < IODEPTH; i++)
		queue_read(&ring, fd, bufs + (size_t)i * BS, &seed);
	if (io_uring_submit(&ring) != IODEPTH)
		goto out;
	inflight = IODEPTH;
	end = now_s() + j->seconds;
	while (inflight) {
		struct io_uring_cqe *cqe;
		bool more = now_s() < end;
		unsigned int n = 0;

		if (io_uring_wait_cqe(&ring, &cqe))
			goto out;
		do {
			char *buf = io_uring_cqe_get_data(cqe);

			if (cqe->res != BS)
				goto out;
			io_uring_cqe_seen(&ring, cqe);
			inflight--;
			j->ios++;
			if (more) {
				queue_read(&ring, fd, buf, &seed);
				n++;
			}
		} while (!io_uring_peek_cqe(&ring, &cqe));
		if (n && io_uring_submit(&ring) != (int)n)
			goto out;
		inflight += n;
	}
	j->err = 0;
out:
	j->done = 1;
	if (ring_ok)
		io_uring_queue_exit(&ring);
	if (fd >= 0)
		close(fd);
	free(bufs);
	return NULL;
}

static uint64_t jget(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? (uint64_t)json_object_get_int64(v) : 0;
}

static double jdouble(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_double(v) : -1.0;
}

struct run_result {
	bool ok;
	bool detail;                 /* --detail: every hook from the start */
	char mechanism[32];
	uint64_t ios;
	struct json_object *uring;   /* "io_uring" (owned) */
	struct json_object *sched;   /* "sched", NULL unless asked (owned) */
	struct json_object *cost;    /* overhead.families.iouring (owned) */
};

static const char *jstr(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? json_object_get_string(v) : "";
}

/* Through the probe set, as `iodig run --bpf-stats` does: it times the
 * families' programs (BPF_ENABLE_STATS while it is open). */
static void traced_run(const char *disabled, const char *dev, bool with_sched, bool detail,
		       struct run_result *res)
{
	struct probe_env env = { .runner_tgid = getpid(), .disabled = disabled,
				 .detail = detail, .bpf_stats = true };
	struct json_object *iodig = json_object_new_object(), *kernel;
	struct uring_job job = { .dev = dev, .seconds = 1.5 };
	struct probe_workload wl = { 0 };
	struct probe_set *set = NULL;
	struct errbuf err = { "" };
	pthread_t tid;

	memset(res, 0, sizeof(*res));
	res->detail = detail;
	if (probes_open(&env, with_sched ? "iouring,sched" : "iouring", &set, &err)) {
		CHECK_MSG(0, "probes_open: %s", err.msg);
		goto out;
	}
	if (pthread_create(&tid, NULL, uring_thread, &job))
		goto out;
	/* as iodig's supervisor does: the completion hook is attached from
	 * tick() once a punt is seen */
	while (!job.done) {
		probes_tick(set);
		usleep(100000);
	}
	pthread_join(tid, NULL);
	CHECK_MSG(job.err == 0, "io_uring reads on %s failed", dev);
	res->ios = wl.ios = job.ios;
	CHECK(probes_collect(set, &wl) == 0);
	probes_render_text(set, stdout);
	probes_render_json(set, iodig);
	/* json-c's getters pass NULL through: absent keys end as NULL. */
	kernel = json_object_object_get(iodig, "kernel");
	res->uring = json_object_get(json_object_object_get(kernel, "io_uring"));
	res->sched = json_object_get(json_object_object_get(kernel, "sched"));
	res->cost = json_object_get(json_object_object_get(json_object_object_get(
		json_object_object_get(kernel, "overhead"), "families"), "iouring"));
	res->ok = res->uring != NULL;
	if (!res->ok)
		probes_print_table(set, stderr);   /* why the family did not load */
	if (with_sched && !res->sched)
		fprintf(stderr, "sched family gave no result\n");
	if (res->uring)
		snprintf(res->mechanism, sizeof(res->mechanism), "%s",
			 json_object_get_string(json_object_object_get(res->uring, "mechanism")));
out:
	json_object_put(iodig);
	probes_destroy(set);
}

static void print_cost(const struct run_result *r, const char *what)
{
	uint64_t runs = r->cost ? jget(r->cost, "run_cnt") : 0;

	if (!runs) {
		CHECK_MSG(0, "%s: no BPF run count although --bpf-stats is on", what);
		return;
	}
	printf("cost %s (%s): %llu io_uring events, %.0f ns per event\n", what, r->mechanism,
	       (unsigned long long)runs, (double)jget(r->cost, "run_time_ns") / (double)runs);
}

/*
 * Submitted and completed agree with the I/Os the workload counted: with
 * --detail from the kernel's hooks; by default the requests are the
 * workload's count and completions are traced only from the first punt.
 */
static void check_counts(const struct run_result *r, const char *what, bool punts)
{
	uint64_t sub = jget(r->uring, "submitted"), done = jget(r->uring, "completed");
	const char *hook = jstr(r->uring, "complete_hook");

	printf("%s: %llu ios, submitted %llu, punted %llu (%.1f%%), completed %llu, "
	       "io-wq workers %llu\n", what, (unsigned long long)r->ios,
	       (unsigned long long)sub, (unsigned long long)jget(r->uring, "punted"),
	       100.0 * jdouble(r->uring, "punt_ratio"), (unsigned long long)done,
	       (unsigned long long)jget(r->uring, "iowq_workers"));
	CHECK_MSG(r->ios > 1000, "%s: only %llu ios", what, (unsigned long long)r->ios);
	CHECK_MSG(jget(r->uring, "failed") == 0, "%s: failed completions", what);
	if (r->detail) {
		CHECK_MSG(!strcmp(jstr(r->uring, "submitted_from"), "submit hook") &&
			  !strcmp(hook, "attached at start"), "%s: hooks %s / %s", what,
			  jstr(r->uring, "submitted_from"), hook);
		CHECK_MSG(sub == r->ios && done == r->ios,
			  "%s: %llu ios, %llu submitted, %llu completed", what,
			  (unsigned long long)r->ios, (unsigned long long)sub,
			  (unsigned long long)done);
		return;
	}
	CHECK_MSG(sub == r->ios, "%s: %llu ios but %llu requests", what,
		  (unsigned long long)r->ios, (unsigned long long)sub);
	if (!punts) {
		CHECK_MSG(!strcmp(hook, "not attached (no punts)") &&
			  !json_object_object_get_ex(r->uring, "completed", NULL),
			  "%s: completion hook %s without punts", what, hook);
		return;
	}
	/* attached within ~100 ms of a 1.5 s run */
	CHECK_MSG(!strcmp(hook, "attached at the first punt"), "%s: completion hook %s",
		  what, hook);
	CHECK_MSG(done <= r->ios && done * 10 >= r->ios * 8,
		  "%s: %llu completions traced of %llu ios", what, (unsigned long long)done,
		  (unsigned long long)r->ios);
}

static void check_punted(const struct run_result *r, const char *what)
{
	struct json_object *lat = NULL;

	CHECK_MSG(r->ok, "%s: no io_uring result", what);
	if (!r->ok)
		return;
	check_counts(r, what, true);
	CHECK_MSG(jdouble(r->uring, "punt_ratio") >= 0.95, "%s: punt ratio %.3f", what,
		  jdouble(r->uring, "punt_ratio"));
	CHECK_MSG(jget(r->uring, "iowq_workers") >= 1, "%s: no io-wq worker seen", what);
	json_object_object_get_ex(r->uring, "punted_latency_ns", &lat);
	/* every punted request that completed after the hook was timed */
	CHECK_MSG(lat && (jget(lat, "samples") + jget(lat, "untimed_before_hook")) * 100 >=
		  jget(r->uring, "punted") * 95 && jget(lat, "p50") > 0 &&
		  jget(lat, "samples") * 10 >= jget(r->uring, "punted") * (r->detail ? 9 : 8),
		  "%s: punted latency samples %llu (+%llu before the hook) of %llu", what,
		  (unsigned long long)(lat ? jget(lat, "samples") : 0),
		  (unsigned long long)(lat ? jget(lat, "untimed_before_hook") : 0),
		  (unsigned long long)jget(r->uring, "punted"));
}

int main(void)
{
	struct loopdev ld = LOOPDEV_INIT;
	struct run_result z = { 0 }, l = { 0 }, f = { 0 }, t = { 0 }, d = { 0 };
	char zdev[32], why[256];
	bool zram_module = false;
	int zid, ret;

	if (geteuid() != 0)
		SKIP("needs root for BPF, zram and loop devices");
	zid = zram_create(zdev, sizeof(zdev), &zram_module, why, sizeof(why));
	if (zid < 0)
		SKIP("%s", why);
	ret = loopdev_create(&ld, "probe-iouring", DEV_SIZE);
	if (ret) {
		zram_destroy(zid, zram_module);
		SKIP("cannot create a loop device: %s", strerror(-ret));
	}
	/* With fewer tags than the queue depth, REQ_NOWAIT tag allocation
	 * fails and io_uring punts the -EAGAIN'd reads, which is not what
	 * this test is about. */
	CHECK(loopdev_default_nr_requests(&ld, 2 * IODEPTH) >= 0);

	/* 1. zram is bio-based and cannot do non-blocking I/O: io_uring hands
	 * every read to io-wq.  sched runs alongside and must see the same
	 * workers switching. */
	traced_run("", zdev, true, false, &z);
	CHECK_MSG(!strcmp(z.mechanism, "tp_btf"), "best mechanism is %s", z.mechanism);
	check_punted(&z, "zram");
	if (z.ok)
		print_cost(&z, "zram");
	if (z.sched) {
		struct json_object *iowq;

		CHECK(json_object_object_get_ex(z.sched, "iowq", &iowq) &&
		      jget(iowq, "workers") >= 1 && jget(iowq, "switches") > 0);
	} else {
		CHECK_MSG(0, "zram: no sched result");
	}

	/* 2. A loop device is blk-mq and takes REQ_NOWAIT: reads go inline,
	 * and no per-request hook runs. */
	traced_run("", ld.path, false, false, &l);
	CHECK_MSG(l.ok, "loop: no io_uring result");
	if (l.ok) {
		check_counts(&l, "loop", false);
		CHECK_MSG(jdouble(l.uring, "punt_ratio") <= 0.05, "loop: punt ratio %.3f",
			  jdouble(l.uring, "punt_ratio"));
		/* the inline path runs none of the family's programs */
		CHECK_MSG(jget(l.cost, "run_cnt") * 100 < l.ios,
			  "loop: %llu io_uring program runs for %llu inline I/Os",
			  (unsigned long long)jget(l.cost, "run_cnt"), (unsigned long long)l.ios);
	}

	/* 2b. --detail: the submit and completion hooks run from the start
	 * and count exactly what the workload did. */
	traced_run("", ld.path, false, true, &d);
	CHECK_MSG(d.ok, "loop, detail: no io_uring result");
	if (d.ok) {
		check_counts(&d, "loop, detail", false);
		print_cost(&d, "loop, detail");
	}

	/* 3. tp_btf taken away: raw_tp counts the same. */
	traced_run("tp_btf", zdev, false, false, &f);
	CHECK_MSG(!strcmp(f.mechanism, "raw_tp"), "fallback mechanism is %s", f.mechanism);
	check_punted(&f, "zram, raw_tp");
	if (f.ok)
		print_cost(&f, "zram, raw_tp");

	/* 4. Only the classic tracepoints left. */
	traced_run("tp_btf,raw_tp", zdev, false, true, &t);
	CHECK_MSG(!strcmp(t.mechanism, "tracepoint"), "second fallback is %s", t.mechanism);
	check_punted(&t, "zram, tracepoint");
	if (t.ok)
		print_cost(&t, "zram, tracepoint");

	json_object_put(z.uring);
	json_object_put(t.uring);
	json_object_put(z.sched);
	json_object_put(l.uring);
	json_object_put(d.uring);
	json_object_put(f.uring);
	json_object_put(z.cost);
	json_object_put(l.cost);
	json_object_put(d.cost);
	json_object_put(f.cost);
	json_object_put(t.cost);
	loopdev_destroy(&ld);
	zram_destroy(zid, zram_module);
	return CHECK_DONE();
}
