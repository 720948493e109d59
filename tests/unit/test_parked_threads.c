// SPDX-License-Identifier: GPL-2.0
/* base/parked_threads: every item runs, each in a thread of its own; when
 * the run returns the threads are asleep and stay so (no context switch
 * while parked), and release ends them. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/lib/check.h"
#include "base/parked_threads.h"

#define N 5

struct item {
	pid_t tid;
	int ran;
};

/* Some work that takes switches and page faults of its own. */
static void work(void *arg)
{
	struct item *it = arg;
	const struct timespec nap = { 0, 5000000 };
	char *mem = malloc(1 << 20);

	it->tid = gettid();
	if (mem)
		memset(mem, 1, 1 << 20);
	free(mem);
	nanosleep(&nap, NULL);
	it->ran++;
}

/* voluntary + nonvoluntary context switches of thread @tid, -1 when it
 * is gone. */
static long switches(pid_t tid)
{
	char path[64], line[128];
	long total = 0, v;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "voluntary_ctxt_switches: %ld", &v) == 1 ||
		    sscanf(line, "nonvoluntary_ctxt_switches: %ld", &v) == 1)
			total += v;
	fclose(f);
	return total;
}

/* pthread_join returns when the thread's exit clears its tid, a little
 * before the kernel reaps it and its /proc entry goes: wait for that. */
static bool gone_within_a_second(pid_t tid)
{
	const struct timespec pause = { 0, 1000000 };

	for (int i = 0; i < 1000; i++) {
		if (switches(tid) < 0)
			return true;
		nanosleep(&pause, NULL);
	}
	return false;
}

int main(void)
{
	const struct timespec wait = { 0, 50000000 };
	struct item items[N] = { { 0 } };
	void *ptrs[N];
	long before[N];
	struct parked_threads *pt;
	bool exact;

	for (int i = 0; i < N; i++)
		ptrs[i] = &items[i];
	parked_threads_run(work, ptrs, N, &pt, &exact);
	CHECK(pt != NULL);
	CHECK(exact);
	for (int i = 0; i < N; i++) {
		CHECK_MSG(items[i].ran == 1, "item %d ran %d times", i, items[i].ran);
		CHECK_MSG(items[i].tid != gettid(), "item %d ran in the caller", i);
		before[i] = switches(items[i].tid);
		CHECK_MSG(before[i] >= 0, "thread of item %d is gone while parked", i);
	}
	nanosleep(&wait, NULL);
	for (int i = 0; i < N; i++)
		CHECK_MSG(switches(items[i].tid) == before[i],
			  "parked thread of item %d switched: %ld -> %ld", i, before[i],
			  switches(items[i].tid));
	parked_threads_release(pt);
	for (int i = 0; i < N; i++)
		CHECK_MSG(gone_within_a_second(items[i].tid), "thread of item %d outlived release", i);

	/* no items: nothing to park */
	parked_threads_run(work, ptrs, 0, &pt, &exact);
	CHECK(pt == NULL && exact);
	parked_threads_release(NULL);
	return CHECK_DONE();
}
