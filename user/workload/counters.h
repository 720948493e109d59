/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's event counters of one worker thread (perf_event_open), as
 * `perf stat` counts them: each worker opens its own on itself, counts
 * over the same window as its getrusage (start to end of accounting) and
 * leaves the sums in its shared stats.  Per thread, not inherited: what
 * io_uring's io-wq or a driver's threads do is not the worker's, and the
 * sched and iouring families count that.
 */
#ifndef IODIG_WORKLOAD_COUNTERS_H
#define IODIG_WORKLOAD_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

enum counter_id {
	CTR_TASK_CLOCK,
	CTR_CONTEXT_SWITCHES,
	CTR_CPU_MIGRATIONS,
	CTR_PAGE_FAULTS,
	CTR_MAJOR_FAULTS,
	CTR_MINOR_FAULTS,
	CTR_CYCLES_K,
	CTR_INSTRUCTIONS_K,
	CTR_CACHE_MISSES_K,
	CTR_L1D_LOAD_MISSES,
	CTR_NR
};

/* What the workers counted: sums over them, and why a counter was not
 * counted (-errno of its perf_event_open, the first worker's). */
struct counter_values {
	uint64_t v[CTR_NR];        /* task-clock in ns, the others in events */
	int32_t err[CTR_NR];       /* 0 = counted */
	uint32_t workers;          /* workers that counted; 0 = none did */
};

/* One worker's open counters. */
struct worker_counters {
	int fd[CTR_NR];
	int32_t err[CTR_NR];
	bool opened;
};

/* perf's name of the counter ("cycles:k") and a key for figures
 * ("cycles_k"). */
const char *counter_name(enum counter_id id);
const char *counter_key(enum counter_id id);
/* Counted by the CPU's PMU rather than by the kernel itself. */
bool counter_is_hardware(enum counter_id id);

/* Opens counter @id on the calling thread, disabled: the fd or -errno. */
int counter_open_self(enum counter_id id);

/* Opens every counter on the calling thread, disabled; one that cannot
 * be opened keeps its -errno in c->err. */
void counters_open(struct worker_counters *c);
/* From zero, now. */
void counters_start(struct worker_counters *c);
/* Stops them and puts what they counted (scaled when the PMU was shared
 * out) and their errors into @out. */
void counters_stop(struct worker_counters *c, struct counter_values *out);
/* Accepts a never opened @c. */
void counters_close(struct worker_counters *c);

/* Adds @src's counts to @dst; the first error of each counter stays. */
void counter_values_merge(struct counter_values *dst, const struct counter_values *src);

#endif /* IODIG_WORKLOAD_COUNTERS_H */
