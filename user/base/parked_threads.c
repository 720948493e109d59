// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/parked_threads.h"

/* How long a done thread may take to reach its park before the caller
 * stops confirming and calls the result inexact. */
#define PARK_CONFIRM_NS 1000000000ull

struct parked_thread {
	struct parked_threads *pt;
	pthread_t handle;
	pid_t tid;           /* set when its work is done, under lock */
	bool started;
};

struct parked_threads {
	int park[2];         /* threads block reading park[0]; closing
			      * park[1] releases them */
	pthread_mutex_t lock;
	pthread_cond_t done_cond;
	size_t done;         /* threads whose work is done */
	void (*fn)(void *item);
	void *const *items;  /* the caller's, until parked_threads_run returns */
	size_t nr_items;
	size_t next;         /* the next item to take, atomically */
	size_t n;            /* threads */
	struct parked_thread t[];
};

/* Runs items until none is left. */
static void take_items(struct parked_threads *pt)
{
	size_t i;

	while ((i = __atomic_fetch_add(&pt->next, 1, __ATOMIC_RELAXED)) < pt->nr_items)
		pt->fn(pt->items[i]);
}

static void *thread_main(void *arg)
{
	struct parked_thread *t = arg;
	struct parked_threads *pt = t->pt;
	char c;

	take_items(pt);
	pthread_mutex_lock(&pt->lock);
	t->tid = gettid();
	pt->done++;
	pthread_cond_signal(&pt->done_cond);
	pthread_mutex_unlock(&pt->lock);
	while (read(pt->park[0], &c, 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/*
 * 1 when thread @tid is asleep in its park, 0 when not yet, -1 when the
 * kernel cannot say.  /proc/<tid>/syscall names the system call a blocked
 * task is in only once the task is off its CPU (the kernel waits for its
 * switch to finish, wait_task_inactive()), "running" before that.
 */
static int is_parked(const struct parked_threads *pt, pid_t tid)
{
	char path[64], buf[128];
	unsigned long long arg0 = 0;
	long nr = -1;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	if (!strncmp(buf, "running", 7))
		return 0;
	if (sscanf(buf, "%ld 0x%llx", &nr, &arg0) != 2)
		return -1;
	return nr == SYS_read && arg0 == (unsigned long long)pt->park[0];
}

/* Waits for every started thread's work, then for each to be parked;
 * false when that could not be confirmed for one of them. */
static bool wait_parked(struct parked_threads *pt, size_t started)
{
	const struct timespec pause = { 0, 20000 };
	uint64_t deadline;
	bool exact = true;

	pthread_mutex_lock(&pt->lock);
	while (pt->done < started)
		pthread_cond_wait(&pt->done_cond, &pt->lock);
	pthread_mutex_unlock(&pt->lock);
	deadline = now_ns() + PARK_CONFIRM_NS;
	for (size_t i = 0; i < pt->n; i++) {
		int parked = 0;

		while (pt->t[i].started && exact && (parked = is_parked(pt, pt->t[i].tid)) == 0) {
			if (now_ns() > deadline)
				exact = false;
			nanosleep(&pause, NULL);
		}
		if (parked < 0)
			exact = false;
	}
	return exact;
}

/* One thread per CPU at most: more only add switches between them. */
static size_t nr_threads(size_t nr_items)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	return cpus > 0 && (size_t)cpus < nr_items ? (size_t)cpus : nr_items;
}

void parked_threads_run(void (*fn)(void *item), void *const *items, size_t n,
			struct parked_threads **out, bool *exact)
{
	size_t threads = nr_threads(n), started = 0;
	struct parked_threads *pt = calloc(1, sizeof(*pt) + threads * sizeof(pt->t[0]));

	*out = NULL;
	*exact = true;
	if (pt && pipe2(pt->park, O_CLOEXEC)) {
		free(pt);
		pt = NULL;
	}
	if (!pt) {
		for (size_t i = 0; i < n; i++)
			fn(items[i]);
		return;
	}
	pthread_mutex_init(&pt->lock, NULL);
	pthread_cond_init(&pt->done_cond, NULL);
	pt->fn = fn;
	pt->items = items;
	pt->nr_items = n;
	pt->n = threads;
	for (size_t i = 0; i < threads; i++) {
		struct parked_thread *t = &pt->t[i];

		*t = (struct parked_thread){ .pt = pt };
		t->started = !pthread_create(&t->handle, NULL, thread_main, t);
		started += t->started;
	}
	if (!started) {
		take_items(pt);  /* no thread: the caller runs them all */
		parked_threads_release(pt);
		return;
	}
	*exact = wait_parked(pt, started);
	*out = pt;
}

void parked_threads_release(struct parked_threads *pt)
{
	if (!pt)
		return;
	close(pt->park[1]);
	for (size_t i = 0; i < pt->n; i++)
		if (pt->t[i].started)
			pthread_join(pt->t[i].handle, NULL);
	close(pt->park[0]);
	pthread_cond_destroy(&pt->done_cond);
	pthread_mutex_destroy(&pt->lock);
	free(pt);
}
