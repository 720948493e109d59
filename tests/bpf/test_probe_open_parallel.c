// Real BPF: the probe set opens its families side by side, yet none of the opening threads' page faults or context switches counts as the workload's: right after probes_open() faults and sched count nothing for this process, and a thread started after it has every one of its page faults counted (the filter took the process once the openers were parked).
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <json-c/json.h>

#include "probes/probe.h"
#include "probes/probe_cache.h"
#include "tests/lib/check.h"
#include "tests/lib/json_get.h"

#define PAGES 4096
/* the test's worker thread's own few faults besides its pages (stack,
 * libc's pages it touches first) */
#define SLACK 64

static int64_t faults_of(struct json_object *kernel, pid_t tgid)
{
	struct json_object *procs = get(get(kernel, "faults"), "per_process");

	for (size_t i = 0; procs && i < json_object_array_length(procs); i++) {
		struct json_object *p = json_object_array_get_idx(procs, i);

		if (get_i64(p, "tgid") == tgid)
			return get_i64(p, "user_faults");
	}
	return 0;
}

/* The family is loaded and attached. */
static bool running(struct json_object *kernel, const char *family)
{
	struct json_object *list = get(kernel, "probes");

	for (size_t i = 0; list && i < json_object_array_length(list); i++) {
		struct json_object *p = json_object_array_get_idx(list, i);
		const char *state = json_object_get_string(get(p, "state"));

		if (!strcmp(json_object_get_string(get(p, "family")), family))
			return !strcmp(state, "active") || !strcmp(state, "degraded");
	}
	return false;
}

/* Not instrumented: under AddressSanitizer each write would also touch
 * its shadow, one more page per eight. */
__attribute__((no_sanitize_address))
static void *touch_pages(void *arg)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)PAGES * (size_t)page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	(void)arg;
	if (p == MAP_FAILED)
		return NULL;
	madvise(p, (size_t)PAGES * (size_t)page, MADV_NOHUGEPAGE);
	for (long i = 0; i < PAGES; i++)
		((volatile char *)p)[i * page] = 1;
	munmap(p, (size_t)PAGES * (size_t)page);
	return p;
}

/* Opens @spec, runs @worker (NULL: none) in a thread, collects; the
 * kernel section's JSON. */
static struct json_object *run(const char *spec, bool worker)
{
	struct probe_env env = { .runner_tgid = getpid(), .supervisor_tid = gettid() };
	struct probe_workload wl = { .ios = 1 };
	struct errbuf err = { .msg = "" };
	struct probe_set *set = NULL;
	struct json_object *kernel;
	pthread_t t;

	CHECK(probe_cache_new(&env.cache) == 0);
	CHECK_MSG(probes_open(&env, spec, &set, &err) == 0 && set, "%s", err.msg);
	if (worker && !pthread_create(&t, NULL, touch_pages, NULL))
		pthread_join(t, NULL);
	probes_collect(set, &wl);
	kernel = probes_json(set);
	probes_destroy(set);
	probe_cache_free(env.cache);
	return kernel;
}

int main(void)
{
	const char *spec = "block,sched,iouring,sampling,faults";
	struct json_object *k;
	int64_t n;

	if (geteuid())
		SKIP("needs root to load BPF");
	k = run(spec, false);
	if (!running(k, "faults") || !running(k, "sched"))
		SKIP("faults or sched cannot load here");
	n = faults_of(k, getpid());
	CHECK_MSG(n == 0, "%lld page faults counted for this process with no workload",
		  (long long)n);
	n = get_i64(get(k, "sched"), "switches");
	CHECK_MSG(n == 0, "%lld context switches counted with no workload", (long long)n);
	json_object_put(k);

	k = run(spec, true);
	n = faults_of(k, getpid());
	fprintf(stderr, "worker thread: %d pages written, %lld faults counted\n", PAGES,
		(long long)n);
	CHECK_MSG(n >= PAGES && n <= PAGES + SLACK, "%lld faults for %d pages", (long long)n,
		  PAGES);
	json_object_put(k);
	return CHECK_DONE();
}
