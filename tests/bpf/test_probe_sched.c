// sched probe: libaio O_DIRECT reads on a loop device with 4 tags are attributed to blk_mq_get_tag (not with 128 tags), counts match getrusage within 5%, raw_tp and tracepoint fallbacks count too.
/* timeout: 120 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>

#include "tests/lib/check.h"
#include "tests/lib/loopdev.h"
#include "probes/probe.h"

#define DEV_SIZE (256ull << 20)
#define BS 4096

/* ---- the workload: libaio O_DIRECT 4k random reads ---- */

struct aio_job {
	const char *dev;
	unsigned int iodepth;
	double seconds;
	uint64_t ios;
	int err;
};

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void prep(struct iocb *cb, int fd, void *buf, unsigned int *seed)
{
	uint64_t blocks = DEV_SIZE / BS;
	uint64_t blk = ((uint64_t)rand_r(seed) << 16 ^ (uint64_t)rand_r(seed)) % blocks;

	io_prep_pread(cb, fd, buf, BS, (long long)(blk * BS));
}

static void *aio_thread(void *arg)
{
	struct aio_job *j = arg;
	struct iocb *cbs = calloc(j->iodepth, sizeof(*cbs));
	struct iocb **list = calloc(j->iodepth, sizeof(*list));
	struct io_event *ev = calloc(j->iodepth, sizeof(*ev));
	unsigned int seed = (unsigned int)(uintptr_t)j ^ (unsigned int)getpid();
	io_context_t ctx = 0;
	char *bufs = NULL;
	double end;
	int fd = -1;

	j->err = -1;
	if (!cbs || !list || !ev || posix_memalign((void **)&bufs, BS, (size_t)BS * j->iodepth))
		goto out;
	fd = open(j->dev, O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0 || io_setup((int)j->iodepth, &ctx))
		goto out;
	for (unsigned int i = 0; i < j->iodepth; i++) {
		prep(&cbs[i], fd, bufs + (size_t)i * BS, &seed);
		list[i] = &cbs[i];
	}
	if (io_submit(ctx, j->iodepth, list) != (int)j->iodepth)
		goto out;
	end = now_s() + j->seconds;
	for (unsigned int inflight = j->iodepth; inflight;) {
		int n = io_getevents(ctx, 1, j->iodepth, ev, NULL);
		int m = 0;

		if (n < 0)
			goto out;
		inflight -= (unsigned int)n;
		for (int i = 0; i < n; i++) {
			struct iocb *cb = ev[i].obj;

			if (ev[i].res != BS)
				goto out;
			j->ios++;
			if (now_s() < end) {
				prep(cb, fd, cb->u.c.buf, &seed);
				list[m++] = cb;
			}
		}
		if (m && io_submit(ctx, m, list) != m)
			goto out;
		inflight += (unsigned int)m;
	}
	j->err = 0;
out:
	if (ctx)
		io_destroy(ctx);
	if (fd >= 0)
		close(fd);
	free(bufs);
	free(cbs);
	free(list);
	free(ev);
	return NULL;
}

struct child_report {
	int err;
	uint64_t ios;
	uint64_t nvcsw, nivcsw;   /* getrusage(RUSAGE_SELF) over the I/O */
};

/* In the forked child: wait for "go", run @nthreads workers, report. */
static void child_main(int go_fd, int report_fd, const char *dev, unsigned int iodepth,
		       double seconds, unsigned int nthreads)
{
	struct child_report r = { .err = -1 };
	struct aio_job jobs[4];
	pthread_t tids[4];
	struct rusage r0, r1;
	char c;

	if (read(go_fd, &c, 1) != 1)
		_exit(1);
	getrusage(RUSAGE_SELF, &r0);
	for (unsigned int i = 0; i < nthreads; i++) {
		jobs[i] = (struct aio_job){ .dev = dev, .iodepth = iodepth, .seconds = seconds };
		pthread_create(&tids[i], NULL, aio_thread, &jobs[i]);
	}
	r.err = 0;
	for (unsigned int i = 0; i < nthreads; i++) {
		pthread_join(tids[i], NULL);
		r.err |= jobs[i].err;
		r.ios += jobs[i].ios;
	}
	getrusage(RUSAGE_SELF, &r1);
	r.nvcsw = (uint64_t)(r1.ru_nvcsw - r0.ru_nvcsw);
	r.nivcsw = (uint64_t)(r1.ru_nivcsw - r0.ru_nivcsw);
	if (write(report_fd, &r, sizeof(r)) != sizeof(r))
		_exit(1);
	_exit(0);
}

/* ---- one traced run ---- */

struct run_result {
	bool ok;
	char mechanism[32];
	struct child_report child;
	struct json_object *sched;   /* the family's JSON object (owned) */
	struct json_object *cost;    /* overhead.families.sched (owned) */
	double seconds;              /* how long each of the 2 workers ran */
	double wall;                 /* the child's traced life, tracking to reaping */
};

static uint64_t jget(struct json_object *o, const char *key)
{
	struct json_object *v;

	return json_object_object_get_ex(o, key, &v) ? (uint64_t)json_object_get_int64(v) : 0;
}

/* The by_function entry of @fn, NULL when absent. */
static struct json_object *func_entry(struct json_object *sched, const char *fn)
{
	struct json_object *arr;

	if (!json_object_object_get_ex(sched, "by_function", &arr))
		return NULL;
	for (size_t i = 0; i < json_object_array_length(arr); i++) {
		struct json_object *e = json_object_array_get_idx(arr, i), *name;

		if (json_object_object_get_ex(e, "function", &name) &&
		    !strcmp(json_object_get_string(name), fn))
			return e;
	}
	return NULL;
}

static const char *top_function(struct json_object *sched)
{
	struct json_object *arr, *name;

	if (!json_object_object_get_ex(sched, "by_function", &arr) ||
	    !json_object_array_length(arr) ||
	    !json_object_object_get_ex(json_object_array_get_idx(arr, 0), "function", &name))
		return "";
	return json_object_get_string(name);
}

/* Through the probe set, as `iodig run --bpf-stats` does: it times the
 * family's program (BPF_ENABLE_STATS while it is open). */
static void traced_run(const char *disabled, const char *dev, unsigned int iodepth,
		       double seconds, struct run_result *res)
{
	struct probe_env env = { .runner_tgid = 0, .disabled = disabled, .bpf_stats = true };
	struct json_object *iodig = NULL, *kernel;
	int go[2] = { -1, -1 }, rep[2] = { -1, -1 };
	struct probe_workload wl = { 0 };
	struct probe_set *set = NULL;
	struct errbuf err = { "" };
	pid_t pid = -1;
	int status;

	memset(res, 0, sizeof(*res));
	res->seconds = seconds;
	if (probes_open(&env, "sched", &set, &err)) {
		CHECK_MSG(0, "probes_open: %s", err.msg);
		return;
	}
	if (pipe(go) || pipe(rep))
		goto out;
	pid = fork();
	if (pid == 0) {
		close(go[1]);
		close(rep[0]);
		child_main(go[0], rep[1], dev, iodepth, seconds, 2);
	}
	if (pid < 0)
		goto out;
	/* The child is a forked workload process: trace it from now on. */
	res->wall = now_s();
	CHECK(probes_track_tgid(set, pid) == 0);
	if (write(go[1], "g", 1) != 1)
		goto out;
	if (read(rep[0], &res->child, sizeof(res->child)) != sizeof(res->child))
		goto out;
	waitpid(pid, &status, 0);
	res->wall = now_s() - res->wall;
	pid = -1;
	CHECK_MSG(res->child.err == 0, "I/O on %s failed", dev);
	wl.ios = res->child.ios;
	CHECK(probes_collect(set, &wl) == 0);
	iodig = json_object_new_object();
	probes_render_json(set, iodig);
	probes_render_text(set, stdout);
	/* json-c's getters pass NULL through: absent keys end as NULL. */
	kernel = json_object_object_get(iodig, "kernel");
	res->sched = json_object_get(json_object_object_get(kernel, "sched"));
	res->cost = json_object_get(json_object_object_get(json_object_object_get(
		json_object_object_get(kernel, "overhead"), "families"), "sched"));
	res->ok = res->sched != NULL;
	if (res->ok)
		snprintf(res->mechanism, sizeof(res->mechanism), "%s",
			 json_object_get_string(json_object_object_get(res->sched, "mechanism")));
	else
		probes_print_table(set, stderr);   /* why the family did not load */
out:
	if (pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	for (int i = 0; i < 2; i++) {
		if (go[i] >= 0)
			close(go[i]);
		if (rep[i] >= 0)
			close(rep[i]);
	}
	json_object_put(iodig);
	probes_destroy(set);
}

static void report_cost(const struct run_result *r, const char *what)
{
	uint64_t runs = r->cost ? jget(r->cost, "run_cnt") : 0;

	if (!runs) {
		CHECK_MSG(0, "%s: no BPF run count although --bpf-stats is on", what);
		return;
	}
	printf("cost %s (%s): %llu sched_switch events, %.0f ns per event\n", what,
	       r->mechanism, (unsigned long long)runs,
	       (double)jget(r->cost, "run_time_ns") / (double)runs);
}

static void check_contention(const struct run_result *r, const char *what)
{
	struct json_object *tag;
	uint64_t vol, switches, tag_vol, rusage;
	double diff;

	CHECK_MSG(r->ok, "%s: no sched result", what);
	if (!r->ok)
		return;
	switches = jget(r->sched, "switches");
	vol = jget(r->sched, "voluntary");
	tag = func_entry(r->sched, "blk_mq_get_tag");
	tag_vol = tag ? jget(tag, "voluntary") : 0;
	printf("%s: %llu ios, %llu switches (%llu voluntary), blk_mq_get_tag %llu voluntary\n",
	       what, (unsigned long long)r->child.ios, (unsigned long long)switches,
	       (unsigned long long)vol, (unsigned long long)tag_vol);
	CHECK_MSG(!strcmp(top_function(r->sched), "blk_mq_get_tag"),
		  "%s: top blocking function is '%s'", what, top_function(r->sched));
	CHECK_MSG(tag_vol * 2 > vol, "%s: blk_mq_get_tag holds %llu of %llu voluntary",
		  what, (unsigned long long)tag_vol, (unsigned long long)vol);
	CHECK_MSG(tag && jget(tag, "offcpu_ns") > 0, "%s: no off-CPU time for blk_mq_get_tag",
		  what);
	/* Off-CPU time is read from the runqueues' clocks of two CPUs: it
	 * adds up to no more than the wall time of the child's three threads
	 * (two workers and the main one, which waits for them throughout) over
	 * the child's traced life, which a loaded machine stretches past the
	 * workers' nominal seconds; and the workers sleep for tags much of
	 * theirs. */
	CHECK_MSG(jget(r->sched, "offcpu_ns") <= (uint64_t)((3 * r->wall + 0.1) * 1.05e9) &&
		  jget(r->sched, "offcpu_ns") >= (uint64_t)(2 * r->seconds * 0.2e9),
		  "%s: %.3f s off-CPU for 3 threads over %.3f s (workers: %.1f s)", what,
		  (double)jget(r->sched, "offcpu_ns") / 1e9, r->wall, r->seconds);
	/* The kernel's own count of the same switches. */
	rusage = r->child.nvcsw + r->child.nivcsw;
	diff = rusage ? ((double)switches - (double)rusage) / (double)rusage : 1.0;
	printf("%s: getrusage says %llu (vol %llu, invol %llu): %+.2f%%\n", what,
	       (unsigned long long)rusage, (unsigned long long)r->child.nvcsw,
	       (unsigned long long)r->child.nivcsw, 100.0 * diff);
	CHECK_MSG(diff < 0.05 && diff > -0.05, "%s: %llu switches traced, getrusage %llu",
		  what, (unsigned long long)switches, (unsigned long long)rusage);
	CHECK_MSG(vol <= r->child.nvcsw * 105 / 100 && vol * 105 / 100 >= r->child.nvcsw,
		  "%s: voluntary %llu, getrusage nvcsw %llu", what, (unsigned long long)vol,
		  (unsigned long long)r->child.nvcsw);
}

int main(void)
{
	struct loopdev ld = LOOPDEV_INIT;
	struct run_result a, b, c, d;
	int ret;

	if (geteuid() != 0)
		SKIP("needs root for BPF and loop devices");
	ret = loopdev_create(&ld, "probe-sched", DEV_SIZE);
	if (ret)
		SKIP("cannot create a loop device: %s", strerror(-ret));

	/* 1. Tag contention: 4 tags, 2 x 64 reads in flight. */
	CHECK(loopdev_set_nr_requests(&ld, 4) == 0);
	traced_run("", ld.path, 64, 2.0, &a);
	CHECK_MSG(!strcmp(a.mechanism, "tp_btf"), "best mechanism is %s", a.mechanism);
	check_contention(&a, "4 tags, iodepth 64");
	if (a.ok)
		report_cost(&a, "contention");

	/* 2. Enough tags: 128 tags, 2 x 8 in flight: no tag waits. */
	CHECK(loopdev_set_nr_requests(&ld, 128) == 0);
	traced_run("", ld.path, 8, 2.0, &b);
	CHECK(b.ok);
	if (b.ok) {
		struct json_object *tag = func_entry(b.sched, "blk_mq_get_tag");
		uint64_t n = tag ? jget(tag, "count") : 0, sw = jget(b.sched, "switches");

		printf("128 tags, iodepth 8: %llu switches, blk_mq_get_tag %llu, top '%s'\n",
		       (unsigned long long)sw, (unsigned long long)n, top_function(b.sched));
		CHECK_MSG(sw > 100, "only %llu switches traced", (unsigned long long)sw);
		CHECK_MSG(n * 100 <= sw, "blk_mq_get_tag still has %llu of %llu switches",
			  (unsigned long long)n, (unsigned long long)sw);
		report_cost(&b, "no contention");
	}

	/* 3. tp_btf taken away: raw_tp (LRU hash instead of task storage). */
	CHECK(loopdev_set_nr_requests(&ld, 4) == 0);
	traced_run("tp_btf", ld.path, 64, 1.0, &c);
	CHECK_MSG(!strcmp(c.mechanism, "raw_tp"), "fallback mechanism is %s", c.mechanism);
	check_contention(&c, "raw_tp fallback");
	if (c.ok)
		report_cost(&c, "raw_tp");

	/* 4. Only the classic tracepoint left: the incoming task is known by
	 * pid only, through the thread-id bitmap. */
	traced_run("tp_btf,raw_tp", ld.path, 64, 1.0, &d);
	CHECK_MSG(!strcmp(d.mechanism, "tracepoint"), "second fallback is %s", d.mechanism);
	check_contention(&d, "tracepoint fallback");
	if (d.ok)
		report_cost(&d, "tracepoint");

	json_object_put(d.sched);
	json_object_put(a.sched);
	json_object_put(b.sched);
	json_object_put(c.sched);
	json_object_put(a.cost);
	json_object_put(b.cost);
	json_object_put(c.cost);
	json_object_put(d.cost);
	loopdev_destroy(&ld);   /* puts nr_requests back for the next user */
	return CHECK_DONE();
}
