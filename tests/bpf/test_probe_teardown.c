// Real BPF: probes_destroy_async() destroys the set in a thread and probes_teardown_wait() returns only once it is gone: after the wait this process holds no BPF link, program or map of the set (its own fds, read from /proc/self/fd, so other processes' programs do not matter), each opened family's destroy mark reached the caller's phase log, and a set opened after the wait loads and collects as the first did.
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "probes/probe.h"
#include "probes/probe_cache.h"
#include "tests/lib/check.h"

/* This process's open BPF objects: links, programs, maps. */
static int bpf_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char path[PATH_MAX], target[64];
		ssize_t len;

		snprintf(path, sizeof(path), "/proc/self/fd/%s", e->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len <= 0)
			continue;
		target[len] = '\0';
		n += !strncmp(target, "anon_inode:bpf-", 15);
	}
	closedir(d);
	return n;
}

static size_t marks_of(const struct phase_log *log, const char *what)
{
	size_t n = 0;

	for (size_t i = 0; i < log->n; i++)
		n += !strcmp(log->m[i].what, what);
	return n;
}

/* Opens the default set, collects, tears it down in the background and
 * waits; the families that ran. */
static int cycle(struct probe_cache *cache, struct phase_log *log, int before)
{
	struct probe_env env = { .runner_tgid = getpid(), .supervisor_tid = gettid(),
				 .cache = cache, .phases = log };
	struct probe_workload wl = { .ios = 1 };
	struct errbuf err = { .msg = "" };
	struct probe_set *set = NULL;
	struct probe_teardown *t;
	int running = 0, during;

	CHECK_MSG(probes_open(&env, NULL, &set, &err) == 0 && set, "%s", err.msg);
	if (!set)
		return 0;
	CHECK(probes_collect(set, &wl) == 0);
	for (const char *const *f = (const char *const[]){ "block", "sched", "iouring",
			"sampling", "faults", NULL }; *f; f++)
		running += probes_family_running(set, *f);
	during = bpf_fds();
	t = probes_destroy_async(set);
	CHECK_MSG(t != NULL, "no teardown thread");
	probes_teardown_wait(t);
	fprintf(stderr, "%d families running, %d BPF fds open, %d after the wait (%d before)\n",
		running, during, bpf_fds(), before);
	CHECK_MSG(!running || during > before, "no BPF fd while %d families ran", running);
	CHECK_MSG(bpf_fds() == before, "%d BPF fds left after the wait, %d before the open",
		  bpf_fds(), before);
	return running;
}

int main(void)
{
	struct probe_cache *cache = NULL;
	struct phase_log log;
	int before, first, second;

	if (geteuid())
		SKIP("needs root to load BPF");
	phase_log_init(&log);
	CHECK(probe_cache_new(&cache) == 0);
	before = bpf_fds();
	first = cycle(cache, &log, before);
	if (!first)
		SKIP("no family loads here");
	CHECK_MSG(marks_of(&log, "destroy") >= (size_t)first,
		  "%zu destroy marks for %d families", marks_of(&log, "destroy"), first);
	CHECK_MSG(marks_of(&log, "probes") == 1, "the teardown's \"probes destroyed\" mark "
		  "reached the log %zu times", marks_of(&log, "probes"));
	second = cycle(cache, &log, before);
	CHECK_MSG(second == first, "%d families the second time, %d the first", second, first);
	probes_teardown_wait(NULL);
	probe_cache_free(cache);
	return CHECK_DONE();
}
