// Real BPF on a loop device: the syscalls family counts exactly this process's io_submit, io_getevents, pread64, preadv2 and io_uring_enter (split by its arguments) calls, with time > 0, via tp_btf, raw_tp and the classic tracepoints, with per-thread state in thread slots or task storage.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libaio.h>
#include <liburing.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <json-c/json.h>

#include "probes/probe.h"
#include "probes/family.h"
#include "probes/tracefs.h"
#include "tests/lib/check.h"
#include "tests/lib/bpf_progs.h"
#include "tests/lib/loopdev.h"

extern const struct probe_family syscalls_probe;

#define BLOCK_SZ     4096
#define LOOP_BYTES   (32ull << 20)
#define NR_AIO       200   /* io_submit + io_getevents pairs */
#define NR_PREAD     300
#define NR_PREADV2   50
#define NR_URING     40    /* of each io_uring_enter kind */

static off_t rand_off(unsigned int *seed)
{
	return (off_t)(rand_r(seed) % (LOOP_BYTES / BLOCK_SZ)) * BLOCK_SZ;
}

/* What the process did, to compare with what the family saw. */
struct done {
	int aio_submit, aio_getevents, pread, preadv2;
	int aio_getevents_interrupted;  /* calls that returned -EINTR */
	int uring_submit, uring_submit_wait, uring_wait;
	bool uring;
};

static void do_libaio(int fd, void *buf, struct done *d)
{
	io_context_t ctx = 0;
	struct iocb cb, *cbs[1] = { &cb };
	struct io_event ev;
	unsigned int seed = 1;

	CHECK(io_setup(32, &ctx) == 0);
	for (int i = 0; i < NR_AIO; i++) {
		io_prep_pread(&cb, fd, buf, BLOCK_SZ, rand_off(&seed));
		if (io_submit(ctx, 1, cbs) == 1)
			d->aio_submit++;
		/* A NULL timeout always enters the kernel (libaio only
		 * short-cuts a zero timeout on an empty ring).  The wait can
		 * end in -EINTR when the kernel queues task work on this
		 * thread (an io_uring ring of an earlier case being torn
		 * down): the call is made and fails, so retry as the
		 * engine does and count it. */
		for (int tries = 0; tries < 100; tries++) {
			int ret = io_getevents(ctx, 1, 1, &ev, NULL);

			if (ret == -EINTR) {
				d->aio_getevents_interrupted++;
				fprintf(stderr, "io_getevents: -EINTR (counted as a failed call)\n");
				continue;
			}
			if (ret == 1)
				d->aio_getevents++;
			else
				fprintf(stderr, "io_getevents: %d\n", ret);
			break;
		}
	}
	io_destroy(ctx);
}

static void do_psync(int fd, void *buf, struct done *d)
{
	struct iovec iov = { .iov_base = buf, .iov_len = BLOCK_SZ };
	unsigned int seed = 2;

	for (int i = 0; i < NR_PREAD; i++)
		if (pread(fd, buf, BLOCK_SZ, rand_off(&seed)) == BLOCK_SZ)
			d->pread++;
	for (int i = 0; i < NR_PREADV2; i++)
		if (preadv2(fd, &iov, 1, rand_off(&seed), 0) == BLOCK_SZ)
			d->preadv2++;
}

/* The completion is posted by task work the kernel runs when it
 * interrupts this spinning thread, so no io_uring_enter is needed. */
static bool spin_for_cqe(struct io_uring *ring, struct io_uring_cqe **cqe)
{
	time_t limit = time(NULL) + 5;

	while (io_uring_peek_cqe(ring, cqe))
		if (time(NULL) > limit)
			return false;
	return true;
}

static void do_uring(int fd, void *buf, struct done *d)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	unsigned int seed = 3;

	if (io_uring_queue_init(8, &ring, 0)) {
		fprintf(stderr, "io_uring unavailable: io_uring_enter rows not checked\n");
		return;
	}
	d->uring = true;
	for (int i = 0; i < NR_URING; i++) {
		/* to_submit=1, min_complete=1, GETEVENTS: submit+wait. */
		io_uring_prep_read(io_uring_get_sqe(&ring), fd, buf, BLOCK_SZ, rand_off(&seed));
		if (io_uring_submit_and_wait(&ring, 1) == 1)
			d->uring_submit_wait++;
		if (!io_uring_peek_cqe(&ring, &cqe))
			io_uring_cqe_seen(&ring, cqe);
		/* to_submit=1, no GETEVENTS: submit only; then spin on the CQ
		 * ring in user space so no other enter happens. */
		io_uring_prep_read(io_uring_get_sqe(&ring), fd, buf, BLOCK_SZ, rand_off(&seed));
		if (io_uring_submit(&ring) == 1)
			d->uring_submit++;
		if (!spin_for_cqe(&ring, &cqe)) {
			CHECK_MSG(false, "no CQE within 5 s of spinning");
			break;
		}
		io_uring_cqe_seen(&ring, cqe);
		/* to_submit=0, GETEVENTS: a reaping call. */
		if (syscall(SYS_io_uring_enter, ring.ring_fd, 0, 0, IORING_ENTER_GETEVENTS,
			    NULL, 0) == 0)
			d->uring_wait++;
	}
	io_uring_queue_exit(&ring);
}

static struct json_object *get(struct json_object *o, const char *a, const char *b)
{
	struct json_object *x = NULL, *y = NULL;

	if (!o || !json_object_object_get_ex(o, a, &x))
		return NULL;
	if (!b)
		return x;
	return json_object_object_get_ex(x, b, &y) ? y : NULL;
}

static void check_row(struct json_object *calls, const char *key, int want, int want_errors)
{
	struct json_object *row = get(calls, key, NULL);
	int64_t n = row ? json_object_get_int64(get(row, "calls", NULL)) : 0;
	double mean = row ? json_object_get_double(get(row, "mean_ns", NULL)) : 0;
	double per_io = row ? json_object_get_double(get(row, "ns_per_io", NULL)) : 0;

	CHECK_MSG(n == want, "%s: %lld calls traced, %d made", key, (long long)n, want);
	if (!want)
		return;
	CHECK_MSG(mean > 0 && mean < 1e9, "%s: mean %.0f ns per call", key, mean);
	CHECK_MSG(per_io > 0, "%s: %.1f ns per I/O", key, per_io);
	CHECK_MSG(json_object_get_int64(get(row, "errors", NULL)) == want_errors,
		  "%s: %lld errors traced, %d returned", key,
		  (long long)json_object_get_int64(get(row, "errors", NULL)), want_errors);
}

/* Per-program BPF cost, when kernel.bpf_stats_enabled is on. */
static void run_case(const char *dev, const char *disabled, const char *mech,
		     const char *thread_state, enum probe_state want_state)
{
	struct probe_env env = { .runner_tgid = getpid(), .disabled = disabled };
	struct probe_status st;
	struct done d = { 0 };
	void *state = NULL;
	void *buf = NULL;
	struct json_object *kernel, *sc, *calls;
	char *text = NULL;
	size_t text_len = 0;
	FILE *mem;
	int fd;

	fprintf(stderr, "case disabled=%s: expect %s/%s\n", disabled ? disabled : "(none)",
		mech, thread_state);
	if (family_open(&syscalls_probe, &env, &state, &st)) {
		CHECK_MSG(false, "open failed: %s", st.reason);
		return;
	}
	CHECK_MSG(!strcmp(st.mechanism, mech), "mechanism %s, want %s (%s)", st.mechanism,
		  mech, st.reason);
	CHECK_MSG(st.state == want_state, "state %d, want %d (%s)", st.state, want_state,
		  st.reason);

	fd = open(dev, O_RDONLY | O_DIRECT);
	CHECK(fd >= 0 && !posix_memalign(&buf, BLOCK_SZ, BLOCK_SZ));
	if (fd >= 0 && buf) {
		do_libaio(fd, buf, &d);
		do_psync(fd, buf, &d);
		do_uring(fd, buf, &d);
	}
	if (fd >= 0)
		close(fd);
	free(buf);
	CHECK(d.aio_submit == NR_AIO && d.aio_getevents == NR_AIO && d.pread == NR_PREAD &&
	      d.preadv2 == NR_PREADV2);

	struct probe_workload wl = {
		.ios = (uint64_t)NR_AIO + NR_PREAD + NR_PREADV2 + 2 * NR_URING,
		.submit_calls = (uint64_t)d.aio_submit + d.pread + d.preadv2 +
				d.uring_submit + d.uring_submit_wait,
		.reap_calls = (uint64_t)d.aio_getevents + d.aio_getevents_interrupted +
			      d.uring_wait,
	};
	family_set_workload(state, &wl);
	CHECK(family_collect(state, wl.ios) == 0);
	print_prog_costs("iodig_sc");

	kernel = json_object_new_object();
	syscalls_probe.render_json(state, kernel);
	sc = get(kernel, "syscalls", NULL);
	calls = get(sc, "calls", NULL);
	CHECK(sc && calls);
	CHECK_MSG(sc && !strcmp(json_object_get_string(get(sc, "thread_state", NULL)),
				thread_state), "thread_state %s",
		  json_object_get_string(get(sc, "thread_state", NULL)));
	check_row(calls, "io_submit", d.aio_submit, 0);
	check_row(calls, "io_getevents", d.aio_getevents + d.aio_getevents_interrupted,
		  d.aio_getevents_interrupted);
	check_row(calls, "pread64", d.pread, 0);
	check_row(calls, "preadv2", d.preadv2, 0);
	check_row(calls, "pwrite64", 0, 0);
	check_row(calls, "io_pgetevents", 0, 0);
	if (d.uring) {
		check_row(calls, "io_uring_enter_submit", d.uring_submit, 0);
		check_row(calls, "io_uring_enter_submit_wait", d.uring_submit_wait, 0);
		check_row(calls, "io_uring_enter_wait", d.uring_wait, 0);
		check_row(calls, "io_uring_enter_other", 0, 0);
	}
	/* Each io_submit queued one iocb; each io_getevents returned one. */
	CHECK(json_object_get_int64(get(get(calls, "io_submit", NULL), "returned", NULL)) ==
	      d.aio_submit);
	CHECK(json_object_get_int64(get(sc, "submit_calls", NULL)) ==
	      (int64_t)wl.submit_calls);
	CHECK(json_object_get_int64(get(sc, "reap_calls", NULL)) == (int64_t)wl.reap_calls);
	/* present and zero: json-c reads a missing key as 0 */
	CHECK(get(sc, "drops", "recursion") &&
	      json_object_get_int64(get(sc, "drops", "recursion")) == 0);
	CHECK(get(sc, "drops", "thread_state") &&
	      json_object_get_int64(get(sc, "drops", "thread_state")) == 0);
	CHECK(get(sc, "drops", "unmatched_exit") &&
	      json_object_get_int64(get(sc, "drops", "unmatched_exit")) == 0);
	CHECK(!get(sc, "state_misses", NULL) && !get(sc, "missed_events", NULL));
	json_object_put(kernel);

	mem = open_memstream(&text, &text_len);
	if (mem) {
		syscalls_probe.render_text(state, mem);
		fclose(mem);
		fprintf(stderr, "%s", text ? text : "");
		CHECK_MSG(text && strstr(text, "submitting calls:") &&
			  strstr(text, "(match)") && strstr(text, "io_submit"),
			  "text report lacks the cross-check");
		free(text);
	}
	family_destroy(state);
}

/* A thread of another process must not be counted: a forked child's
 * preads are invisible until its tgid is tracked, then counted. */
static void run_fork_case(const char *dev)
{
	struct probe_env env = { .runner_tgid = getpid() };
	struct probe_status st;
	void *state = NULL;
	struct json_object *kernel;
	int pipefd[2], status;
	char go = 0;
	pid_t child;

	if (family_open(&syscalls_probe, &env, &state, &st)) {
		CHECK_MSG(false, "open failed: %s", st.reason);
		return;
	}
	CHECK(pipe(pipefd) == 0);
	child = fork();
	if (child == 0) {
		void *buf = NULL;
		int fd = open(dev, O_RDONLY | O_DIRECT);

		if (fd < 0 || posix_memalign(&buf, BLOCK_SZ, BLOCK_SZ))
			_exit(1);
		for (int i = 0; i < 20; i++)   /* untracked */
			if (pread(fd, buf, BLOCK_SZ, 0) != BLOCK_SZ)
				_exit(1);
		if (read(pipefd[0], &go, 1) != 1)
			_exit(1);
		for (int i = 0; i < 30; i++)   /* tracked */
			if (pread(fd, buf, BLOCK_SZ, BLOCK_SZ) != BLOCK_SZ)
				_exit(1);
		_exit(0);
	}
	CHECK(child > 0);
	/* Give the child time to finish its untracked reads. */
	usleep(300000);
	CHECK(family_track_tgid(state, child) == 0);
	CHECK(write(pipefd[1], &go, 1) == 1);
	CHECK(waitpid(child, &status, 0) == child && WIFEXITED(status) &&
	      WEXITSTATUS(status) == 0);
	close(pipefd[0]);
	close(pipefd[1]);
	CHECK(family_collect(state, 30) == 0);
	kernel = json_object_new_object();
	syscalls_probe.render_json(state, kernel);
	check_row(get(get(kernel, "syscalls", NULL), "calls", NULL), "pread64", 30, 0);
	json_object_put(kernel);
	family_destroy(state);
}

int main(void)
{
	struct loopdev l = LOOPDEV_INIT;
	bool mounted = false;
	struct errbuf err;
	int ret;

	if (geteuid() != 0)
		SKIP("needs root to load BPF programs and create loop devices");
	if (access("/dev/shm", W_OK))
		SKIP("/dev/shm not writable");
	unsetenv("IODIG_DISABLE");
	ret = loopdev_create(&l, "probe-syscalls", LOOP_BYTES);
	if (ret)
		SKIP("cannot create a loop device (%s)", strerror(-ret));
	/* The classic tracepoints need tracefs, as probes_open() provides. */
	tracefs_mount(&mounted, &err);

	run_case(l.path, NULL, "tp_btf", "slots", PROBE_ACTIVE);
	run_case(l.path, "tp_btf", "raw_tp", "slots", PROBE_DEGRADED);
	run_case(l.path, "tp_btf,raw_tp", "tracepoint", "slots", PROBE_DEGRADED);
	run_case(l.path, "slots", "tp_btf", "task_storage", PROBE_DEGRADED);
	run_case(l.path, "tp_btf,slots", "raw_tp", "task_storage", PROBE_DEGRADED);
	run_fork_case(l.path);

	tracefs_unmount(mounted);
	loopdev_destroy(&l);
	return CHECK_DONE();
}
