// Real BPF on a loop device: 6 s of CPU time (3-40 s wall) of libaio O_DIRECT 4k random reads at iodepth 32 in this process; the sampling family finds samples inside io_submit and its slat breakdown's top 15 functions hold the block submission path, and a user-page pinning function has an estimate in the breakdown.  timeout: 120
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <json-c/json.h>

#include "probes/probe.h"
#include "probes/family.h"
#include "tests/lib/check.h"
#include "tests/lib/bpf_progs.h"
#include "tests/lib/loopdev.h"

extern const struct probe_family sampling_probe;

#define BLOCK_SZ    4096
#define LOOP_BYTES  (256ull << 20)
#define DEPTH       32
#define RUN_NS      3000000000ull
#define MIN_CPU_NS  6000000000ull
#define MAX_RUN_NS  40000000000ull
#define TOP         15

static uint64_t clock_ns(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static uint64_t mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

/* Samples come from CPU time, so a loaded machine (where this thread waits
 * for a CPU) runs longer until the breakdown has enough samples to rank. */
static bool workload_done(uint64_t start)
{
	uint64_t wall = mono_ns() - start;

	return wall >= MAX_RUN_NS ||
	       (wall >= RUN_NS && clock_ns(CLOCK_THREAD_CPUTIME_ID) >= MIN_CPU_NS);
}

/*
 * fio's libaio randread at iodepth 32: reap at least one, resubmit what
 * came back in one io_submit.  slat is accounted as fio does: every iocb of
 * a batch waited for the whole io_submit call.
 */
static int aio_randread(const char *dev, struct probe_workload *wl)
{
	struct iocb cbs[DEPTH], *batch[DEPTH];
	struct io_event ev[DEPTH];
	io_context_t ctx = 0;
	void *bufs = NULL;
	unsigned int seed = 7;
	uint64_t start, t0;
	int fd, inflight = 0, n, ret = 0;

	fd = open(dev, O_RDONLY | O_DIRECT);
	if (fd < 0)
		return -errno;
	if (posix_memalign(&bufs, BLOCK_SZ, (size_t)DEPTH * BLOCK_SZ) || io_setup(DEPTH, &ctx)) {
		close(fd);
		free(bufs);
		return -ENOMEM;
	}
	for (int i = 0; i < DEPTH; i++)
		batch[i] = &cbs[i];
	n = DEPTH;
	start = mono_ns();
	for (;;) {
		for (int i = 0; i < n; i++) {
			long idx = batch[i] - cbs;

			io_prep_pread(batch[i], fd, (char *)bufs + idx * BLOCK_SZ, BLOCK_SZ,
				      (long long)(rand_r(&seed) % (LOOP_BYTES / BLOCK_SZ)) *
				      BLOCK_SZ);
		}
		t0 = mono_ns();
		ret = io_submit(ctx, n, batch);
		if (ret != n) {
			ret = ret < 0 ? ret : -EIO;
			break;
		}
		wl->slat_ns += (mono_ns() - t0) * (uint64_t)n;
		wl->submit_calls++;
		inflight += n;
		if (workload_done(start))
			break;
		n = io_getevents(ctx, 1, DEPTH, ev, NULL);
		wl->reap_calls++;
		if (n <= 0) {
			ret = n ? n : -EIO;
			break;
		}
		inflight -= n;
		wl->ios += (uint64_t)n;
		for (int i = 0; i < n; i++)
			batch[i] = ev[i].obj;
		ret = 0;
	}
	while (inflight > 0) {
		n = io_getevents(ctx, 1, DEPTH, ev, NULL);
		if (n <= 0)
			break;
		inflight -= n;
		wl->ios += (uint64_t)n;
	}
	io_destroy(ctx);
	close(fd);
	free(bufs);
	return ret < 0 ? ret : 0;
}

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *x = NULL;

	return o && json_object_object_get_ex(o, k, &x) ? x : NULL;
}

/* Per-program BPF cost, when kernel.bpf_stats_enabled is on. */
/* The block layer's submission entry points, in any kernel since blk-mq. */
static bool is_block_submit(const char *f)
{
	return strstr(f, "submit_bio") || !strncmp(f, "blk_mq_submit", 13) ||
	       !strncmp(f, "__blk_mq_", 9);
}

/* Pinning the user buffer for O_DIRECT: iov_iter_extract_pages() (6.3+),
 * iov_iter_get_pages*() before, then the GUP-fast walk, whose names
 * changed over the years (gup_fast_*, internal_get_user_pages_fast, ...). */
static bool is_page_pinning(const char *f)
{
	return strstr(f, "iov_iter_extract") || strstr(f, "iov_iter_get_pages") ||
	       strstr(f, "pin_user_pages") || strstr(f, "get_user_pages") ||
	       !strncmp(f, "gup_", 4) || strstr(f, "_gup_");
}

/* Is any function of @kind on any submission stack of the folded list? */
static const char *find_in_stacks(struct json_object *folded, bool (*kind)(const char *),
				  char *found, size_t size)
{
	for (size_t i = 0; folded && i < json_object_array_length(folded); i++) {
		const char *stack = json_object_get_string(
			get(json_object_array_get_idx(folded, i), "stack"));
		char copy[4096], *save = NULL;

		if (!stack || strncmp(stack, "submission;", 11))
			continue;
		snprintf(copy, sizeof(copy), "%s", stack);
		for (char *t = strtok_r(copy, ";", &save); t; t = strtok_r(NULL, ";", &save)) {
			if (kind(t)) {
				snprintf(found, size, "%s", t);
				return found;
			}
		}
	}
	return NULL;
}

int main(void)
{
	struct loopdev l = LOOPDEV_INIT;
	struct probe_env env = { .runner_tgid = getpid() };
	struct probe_workload wl = { 0 };
	struct probe_status st;
	struct json_object *kernel, *s, *top;
	void *state = NULL;
	bool have_block = false, have_pin = false;
	int rows = 0, ret;
	const char *name;
	char buf[128];

	if (geteuid() != 0)
		SKIP("needs root to load BPF programs and create loop devices");
	if (access("/dev/shm", W_OK))
		SKIP("/dev/shm not writable");
	unsetenv("IODIG_DISABLE");
	ret = loopdev_create(&l, "probe-sampling", LOOP_BYTES);
	if (ret)
		SKIP("cannot create a loop device (%s)", strerror(-ret));
	/* With a tiny nr_requests io_submit would sleep for tags and the
	 * profile would show the scheduler, not the submission path. */
	if (loopdev_default_nr_requests(&l, 128) > 0)
		fprintf(stderr, "%s: nr_requests %u, raised to 128 for the run\n", l.path,
			l.saved_nr_requests);
	if (family_open(&sampling_probe, &env, &state, &st)) {
		loopdev_destroy(&l);
		if (st.state == PROBE_MISSING && strstr(st.reason, "perf_event_open"))
			SKIP("no cpu-clock perf events: %s", st.reason);
		fprintf(stderr, "open failed: %s\n", st.reason);
		return 1;
	}
	CHECK_MSG(!strcmp(st.mechanism, "perf_event") && st.state == PROBE_ACTIVE,
		  "mechanism %s state %d (%s)", st.mechanism, st.state, st.reason);

	ret = aio_randread(l.path, &wl);
	CHECK_MSG(ret == 0, "libaio randread on %s: %s", l.path, strerror(-ret));
	fprintf(stderr, "workload: %llu I/Os, slat %.0f ns/IO, %llu io_submit calls\n",
		(unsigned long long)wl.ios,
		wl.ios ? (double)wl.slat_ns / (double)wl.ios : 0.0,
		(unsigned long long)wl.submit_calls);
	family_set_workload(state, &wl);
	CHECK(family_collect(state, wl.ios) == 0);
	print_prog_costs("iodig_sample");
	sampling_probe.render_text(state, stderr);

	kernel = json_object_new_object();
	sampling_probe.render_json(state, kernel);
	s = get(kernel, "sampling");
	CHECK(s != NULL);
	CHECK_MSG(json_object_get_int64(get(get(s, "samples"), "submission")) > 0,
		  "no samples inside io_submit");
	CHECK(json_object_get_int(get(s, "frequency_hz")) > 0);
	CHECK(!strcmp(json_object_get_string(get(s, "basis")), "slat"));

	/* The kernel's own names first, so a failure says what it has. */
	name = find_in_stacks(get(s, "folded"), is_block_submit, buf, sizeof(buf));
	fprintf(stderr, "block submission function in the stacks: %s\n", name ? name : "none");
	CHECK_MSG(name, "no block submission function on any submission stack");
	name = find_in_stacks(get(s, "folded"), is_page_pinning, buf, sizeof(buf));
	fprintf(stderr, "page pinning function in the stacks: %s\n", name ? name : "none");
	CHECK_MSG(name, "no page pinning function on any submission stack");

	top = get(s, "slat_breakdown");
	fprintf(stderr, "top %d of the slat breakdown (pass-through wrappers skipped):\n",
		TOP);
	for (size_t i = 0; top && i < json_object_array_length(top) && rows < TOP; i++) {
		struct json_object *f = json_object_array_get_idx(top, i);
		const char *fn = json_object_get_string(get(f, "function"));
		double est = json_object_get_double(get(f, "est_ns_per_io"));

		if (json_object_get_boolean(get(f, "pass_through")))
			continue;
		rows++;
		fprintf(stderr, "  %2d %-40s incl=%5.1f%% est=%6.0f ns/IO samples=%lld\n", rows,
			fn, json_object_get_double(get(f, "incl_pct")), est,
			(long long)json_object_get_int64(get(f, "samples")));
		CHECK_MSG(est > 0, "%s: est ns/IO %.1f", fn, est);
		have_block |= is_block_submit(fn);
	}
	CHECK_MSG(have_block, "no block submission function in the top %d", TOP);
	/* Pinning is a few percent of slat: with ~200 samples its rank is
	 * noise, so it is looked for in the whole breakdown, with an estimate. */
	for (size_t i = 0; top && i < json_object_array_length(top) && !have_pin; i++) {
		struct json_object *f = json_object_array_get_idx(top, i);
		const char *fn = json_object_get_string(get(f, "function"));

		if (is_page_pinning(fn) && json_object_get_double(get(f, "est_ns_per_io")) > 0) {
			have_pin = true;
			fprintf(stderr, "page pinning in the breakdown: %s, %.0f ns/IO, rank %zu\n",
				fn, json_object_get_double(get(f, "est_ns_per_io")), i + 1);
		}
	}
	CHECK_MSG(have_pin, "no page pinning function with an estimate in the slat breakdown");
	json_object_put(kernel);

	family_destroy(state);
	loopdev_destroy(&l);
	return CHECK_DONE();
}
