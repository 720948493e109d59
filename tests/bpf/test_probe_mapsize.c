// Real BPF: the maps whose need grows with the job (sched and syscalls thread slots, io thread and punt hashes, sampling's stack keys, block's --detail stamps) are loaded with sizes from probe_env, within their floors and ceilings, and the defaults when the job is unknown; with 1024 thread slots two threads whose ids differ by 1024 collide, and the syscalls and sched reports count it in drops.thread_state.
#define _GNU_SOURCE
#include <errno.h>
#include <linux/aio_abi.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "iodig/block.h"
#include "iodig/iouring.h"
#include "iodig/sampling.h"
#include "iodig/sched.h"
#include "iodig/syscalls.h"
#include "probes/probe.h"
#include "probes/family.h"
#include "tests/lib/check.h"

extern const struct probe_family sched_probe, iouring_probe, syscalls_probe,
	sampling_probe, block_probe;

struct map_want {
	const struct probe_family *fam;
	const char *map;
	uint32_t want;
};

/* max_entries of @map as the kernel has it, 0 when not loaded. */
static uint32_t kernel_max_entries(void *state, const char *map)
{
	struct bpf_object *obj = family_object(state);
	struct bpf_map *m = obj ? bpf_object__find_map_by_name(obj, map) : NULL;
	struct bpf_map_info info;
	uint32_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (!m || bpf_map__fd(m) < 0 || bpf_obj_get_info_by_fd(bpf_map__fd(m), &info, &len))
		return 0;
	return info.max_entries;
}

static void check_sizes(const char *what, const struct probe_env *env,
			const struct map_want *w, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		struct probe_status st;
		void *state = NULL;
		uint32_t got;

		if (family_open(w[i].fam, env, &state, &st)) {
			fprintf(stderr, "%s: %s not loaded (%s), not checked\n", what,
				w[i].fam->name, st.reason);
			continue;
		}
		got = kernel_max_entries(state, w[i].map);
		CHECK_MSG(got == w[i].want, "%s: %s.%s has %u entries, want %u", what,
			  w[i].fam->name, w[i].map, got, w[i].want);
		fprintf(stderr, "%s: %s.%s = %u\n", what, w[i].fam->name, w[i].map, got);
		family_destroy(state);
	}
}

static uint32_t pow2_within(uint64_t v, uint32_t lo, uint32_t hi)
{
	uint32_t n = lo;

	while (n < v && n < hi)
		n <<= 1;
	return n;
}

static void test_sizes(void)
{
	/* --detail: block loads its stage stamps */
	struct probe_env unknown = { .runner_tgid = getpid(), .detail = true };
	struct probe_env tiny = { .runner_tgid = getpid(), .threads = 1, .inflight = 1,
				  .runtime_s = 1, .detail = true };
	struct probe_env huge = { .runner_tgid = getpid(), .threads = 1000000,
				  .inflight = 1000000000ull, .runtime_s = 1000000,
				  .detail = true };
	int cpus = libbpf_num_possible_cpus();
	const struct map_want defaults[] = {
		{ &sched_probe, "start", SCHED_THREAD_SLOTS },
		{ &sched_probe, "iowq_threads", SCHED_MAX_IOWQ },
		{ &iouring_probe, "punt_start", IOURING_MAX_PUNTED },
		{ &iouring_probe, "io_threads", IOURING_MAX_THREADS },
		{ &syscalls_probe, "thread_slots", SC_THREAD_SLOTS },
		{ &sampling_probe, "agg", SAMPLING_MAX_AGG },
		{ &block_probe, "stamps", BLOCK_STAMPS_ENTRIES },
	};
	/* The floors; sampling: one second of samples on every CPU. */
	const struct map_want floors[] = {
		{ &sched_probe, "start", 1024 },
		{ &sched_probe, "iowq_threads", 256 },
		{ &iouring_probe, "punt_start", 256 },
		{ &iouring_probe, "io_threads", 256 },
		{ &syscalls_probe, "thread_slots", 1024 },
		{ &sampling_probe, "agg", pow2_within((uint64_t)SAMPLING_FREQ_HZ * cpus, 2048,
						      SAMPLING_MAX_AGG) },
		{ &block_probe, "stamps", 1024 },
	};
	const struct map_want ceilings[] = {
		{ &sched_probe, "start", 65536 },
		{ &sched_probe, "iowq_threads", 16384 },
		{ &iouring_probe, "punt_start", 32768 },
		{ &iouring_probe, "io_threads", 16384 },
		{ &syscalls_probe, "thread_slots", 65536 },
		{ &sampling_probe, "agg", SAMPLING_MAX_AGG },
		{ &block_probe, "stamps", 32768 },
	};

	check_sizes("job unknown", &unknown, defaults, 7);
	check_sizes("numjobs=1 iodepth=1 1s", &tiny, floors, 7);
	check_sizes("a million workers", &huge, ceilings, 7);
}

/* ---- a real collision in the syscalls thread slots ---- */

struct sleeper {
	aio_context_t ctx;
	pid_t tid;
	long timeout_ms;
	volatile bool inside;      /* about to enter io_getevents */
	volatile bool left;        /* back from it */
};

static void *sleep_in_getevents(void *arg)
{
	struct sleeper *s = arg;
	struct io_event ev;
	struct timespec ts = { s->timeout_ms / 1000, (s->timeout_ms % 1000) * 1000000 };

	s->tid = (pid_t)syscall(SYS_gettid);
	s->inside = true;
	/* Nothing was submitted: waits the whole timeout inside the kernel. */
	syscall(SYS_io_getevents, s->ctx, 1, 1, &ev, &ts);
	s->left = true;
	return NULL;
}

/* SIGUSR1 only ends the long sleeper's wait (-EINTR): no SA_RESTART. */
static void on_wake(int sig)
{
	(void)sig;
}

static void *report_tid(void *arg)
{
	*(pid_t *)arg = (pid_t)syscall(SYS_gettid);
	return NULL;
}

static long mod(long a, long m)
{
	return ((a % m) + m) % m;
}

/*
 * Starts short-lived threads until the next thread id will equal @tid
 * modulo 1024 but not modulo 4096 (the old fixed slot count), then lets
 * that thread sleep in io_getevents briefly.  False when it never came.
 */
static bool collide_with(pid_t tid, aio_context_t ctx)
{
	for (int i = 0; i < 40000; i++) {
		struct sleeper s = { .ctx = ctx, .timeout_ms = 10 };
		pthread_t t;
		pid_t got = 0;

		if (pthread_create(&t, NULL, report_tid, &got))
			return false;
		pthread_join(t, NULL);
		if (mod(got + 1 - tid, 1024) || !mod(got + 1 - tid, 4096))
			continue;
		if (pthread_create(&t, NULL, sleep_in_getevents, &s))
			return false;
		pthread_join(t, NULL);
		/* another process may have taken that id meanwhile */
		if (!mod(s.tid - tid, 1024) && mod(s.tid - tid, 4096)) {
			fprintf(stderr, "thread %d shared a slot with %d\n", s.tid, tid);
			return true;
		}
	}
	return false;
}

/* drops.thread_state of @family's JSON object @name, -1 when absent. */
static long long thread_state_drops(const struct probe_family *fam, void *state,
				    const char *name)
{
	struct json_object *kernel = json_object_new_object(), *o = NULL, *n = NULL;
	long long v = -1;

	fam->render_json(state, kernel);
	if (json_object_object_get_ex(kernel, name, &o) &&
	    json_object_object_get_ex(o, "drops", &o) &&
	    json_object_object_get_ex(o, "thread_state", &n))
		v = json_object_get_int64(n);
	json_object_put(kernel);
	return v;
}

static void test_collision(void)
{
	struct probe_env env = { .runner_tgid = getpid(), .threads = 1, .inflight = 1 };
	struct probe_workload wl = { .ios = 1 };
	/* Long enough to outlast the search for a colliding id on a loaded
	 * machine under ASan; a signal ends it once the search is done. */
	struct sleeper a = { .timeout_ms = 60000 };
	struct sigaction wake = { .sa_handler = on_wake };
	struct probe_status st, sst;
	void *state = NULL, *sched = NULL;
	pthread_t ta;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	bool found;

	if (syscall(SYS_io_setup, 8, &a.ctx)) {
		fprintf(stderr, "io_setup: %s; collision not checked\n", strerror(errno));
		return;
	}
	if (family_open(&syscalls_probe, &env, &state, &st)) {
		fprintf(stderr, "syscalls not loaded (%s); collision not checked\n", st.reason);
		syscall(SYS_io_destroy, a.ctx);
		return;
	}
	CHECK(kernel_max_entries(state, "thread_slots") == 1024);
	/* sched: a thread leaving the CPU takes the slot of one still off it */
	if (family_open(&sched_probe, &env, &sched, &sst)) {
		fprintf(stderr, "sched not loaded (%s)\n", sst.reason);
		sched = NULL;
	}
	CHECK(!sched || kernel_max_entries(sched, "start") == 1024);
	CHECK(sigaction(SIGUSR1, &wake, NULL) == 0);
	CHECK(pthread_create(&ta, NULL, sleep_in_getevents, &a) == 0);
	while (!a.inside)
		usleep(1000);
	usleep(20000);
	/* Threads whose ids wrap past pid_max would not say anything; and
	 * the collision counts only while the first thread is still inside. */
	found = collide_with(a.tid, a.ctx) && !a.left;
	pthread_kill(ta, SIGUSR1);
	pthread_join(ta, NULL);
	family_set_workload(state, &wl);
	CHECK(family_collect(state, 1) == 0);
	if (sched)
		CHECK(family_collect(sched, 1) == 0);
	if (found) {
		long long v = thread_state_drops(&syscalls_probe, state, "syscalls");

		CHECK_MSG(v >= 1, "syscalls: thread_state drops %lld after a slot collision", v);
		v = sched ? thread_state_drops(&sched_probe, sched, "sched") : 1;
		CHECK_MSG(v >= 1, "sched: thread_state drops %lld after a slot collision", v);
		mem = open_memstream(&text, &len);
		if (mem) {
			syscalls_probe.render_text(state, mem);
			fclose(mem);
			CHECK_MSG(text && strstr(text, "    drops: thread_state="),
				  "text lacks the drops line:\n%s", text ? text : "");
			free(text);
		}
	} else {
		fprintf(stderr, "no thread id 1024 apart came up; collision not checked\n");
	}
	family_destroy(sched);
	family_destroy(state);
	syscall(SYS_io_destroy, a.ctx);
}

int main(void)
{
	if (geteuid())
		SKIP("needs root to load BPF");
	test_sizes();
	test_collision();
	return CHECK_DONE();
}
