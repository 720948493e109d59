// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "workload/counters.h"

/* A software event's row, and a hardware event's counted in the kernel
 * only (perf's ":k"). */
#define SW_COUNTER(name, key, config) { name, key, PERF_TYPE_SOFTWARE, config, false }
#define HW_K_COUNTER(name, key, config) { name, key, PERF_TYPE_HARDWARE, config, true }

static const struct counter_def {
	const char *name;
	const char *key;
	uint32_t type;
	uint64_t config;
	bool kernel_only;          /* perf's ":k" */
} counter_defs[CTR_NR] = {
	[CTR_TASK_CLOCK] = SW_COUNTER("task-clock", "task_clock_ns", PERF_COUNT_SW_TASK_CLOCK),
	[CTR_CONTEXT_SWITCHES] = SW_COUNTER("context-switches", "context_switches", PERF_COUNT_SW_CONTEXT_SWITCHES),
	[CTR_CPU_MIGRATIONS] = SW_COUNTER("cpu-migrations", "cpu_migrations", PERF_COUNT_SW_CPU_MIGRATIONS),
	[CTR_PAGE_FAULTS] = SW_COUNTER("page-faults", "page_faults", PERF_COUNT_SW_PAGE_FAULTS),
	[CTR_MAJOR_FAULTS] = SW_COUNTER("major-faults", "major_faults", PERF_COUNT_SW_PAGE_FAULTS_MAJ),
	[CTR_MINOR_FAULTS] = SW_COUNTER("minor-faults", "minor_faults", PERF_COUNT_SW_PAGE_FAULTS_MIN),
	[CTR_CYCLES_K] = HW_K_COUNTER("cycles:k", "cycles_k", PERF_COUNT_HW_CPU_CYCLES),
	[CTR_INSTRUCTIONS_K] = HW_K_COUNTER("instructions:k", "instructions_k", PERF_COUNT_HW_INSTRUCTIONS),
	[CTR_CACHE_MISSES_K] = HW_K_COUNTER("cache-misses:k", "cache_misses_k", PERF_COUNT_HW_CACHE_MISSES),
	[CTR_L1D_LOAD_MISSES] = { "L1-dcache-load-misses", "l1d_load_misses",
				  PERF_TYPE_HW_CACHE,
				  PERF_COUNT_HW_CACHE_L1D |
				  (PERF_COUNT_HW_CACHE_OP_READ << 8) |
				  (PERF_COUNT_HW_CACHE_RESULT_MISS << 16), false },
};

const char *counter_name(enum counter_id id)
{
	return counter_defs[id].name;
}

const char *counter_key(enum counter_id id)
{
	return counter_defs[id].key;
}

bool counter_is_hardware(enum counter_id id)
{
	return counter_defs[id].type != PERF_TYPE_SOFTWARE;
}

int counter_open_self(enum counter_id id)
{
	const struct counter_def *d = &counter_defs[id];
	struct perf_event_attr attr;
	long fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = d->type;
	attr.config = d->config;
	attr.disabled = 1;
	attr.exclude_user = d->kernel_only;
	attr.exclude_hv = 1;
	attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	fd = syscall(SYS_perf_event_open, &attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -errno : (int)fd;
}

void counters_open(struct worker_counters *c)
{
	for (int i = 0; i < CTR_NR; i++) {
		c->fd[i] = counter_open_self((enum counter_id)i);
		c->err[i] = c->fd[i] < 0 ? c->fd[i] : 0;
	}
	c->opened = true;
}

void counters_start(struct worker_counters *c)
{
	for (int i = 0; c->opened && i < CTR_NR; i++) {
		if (c->fd[i] < 0)
			continue;
		ioctl(c->fd[i], PERF_EVENT_IOC_RESET, 0);
		ioctl(c->fd[i], PERF_EVENT_IOC_ENABLE, 0);
	}
}

/* value, time enabled, time running; scaled as perf stat does when the
 * counter had the PMU for part of the time only. */
static int read_scaled(int fd, uint64_t *out)
{
	uint64_t r[3];

	if (read(fd, r, sizeof(r)) != (ssize_t)sizeof(r))
		return errno ? -errno : -EIO;
	*out = r[2] && r[2] < r[1] ? (uint64_t)((double)r[0] * (double)r[1] / (double)r[2])
				   : r[0];
	return 0;
}

void counters_stop(struct worker_counters *c, struct counter_values *out)
{
	memset(out, 0, sizeof(*out));
	if (!c->opened)
		return;
	for (int i = 0; i < CTR_NR; i++)
		if (c->fd[i] >= 0)
			ioctl(c->fd[i], PERF_EVENT_IOC_DISABLE, 0);
	for (int i = 0; i < CTR_NR; i++) {
		out->err[i] = c->err[i];
		if (c->fd[i] >= 0)
			out->err[i] = read_scaled(c->fd[i], &out->v[i]);
	}
	out->workers = 1;
}

void counters_close(struct worker_counters *c)
{
	for (int i = 0; c->opened && i < CTR_NR; i++)
		if (c->fd[i] >= 0)
			close(c->fd[i]);
	c->opened = false;
}

void counter_values_merge(struct counter_values *dst, const struct counter_values *src)
{
	if (!src->workers)
		return;
	for (int i = 0; i < CTR_NR; i++) {
		dst->v[i] += src->v[i];
		if (!dst->err[i])
			dst->err[i] = src->err[i];
	}
	dst->workers += src->workers;
}
