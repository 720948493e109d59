// SPDX-License-Identifier: GPL-2.0
/*
 * The workers' start gate: a futex word in the run's shared mapping, not
 * private, as worker processes wait on it as well as threads.
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "workload/start_gate.h"

void start_gate_close(struct start_gate *g)
{
	__atomic_store_n(&g->open, 0, __ATOMIC_RELEASE);
}

void start_gate_open(struct start_gate *g, bool count_events)
{
	g->count_events = count_events;
	__atomic_store_n(&g->open, 1, __ATOMIC_RELEASE);
	syscall(SYS_futex, &g->open, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0);
}

bool start_gate_pass(struct start_gate *g, volatile sig_atomic_t *stop,
		     volatile sig_atomic_t *own_stop)
{
	/* one wait, no timeout: a tracked worker's wakeups would count as
	 * its job's switches */
	while (!__atomic_load_n(&g->open, __ATOMIC_ACQUIRE))
		syscall(SYS_futex, &g->open, FUTEX_WAIT, 0, NULL, NULL, 0);
	return !*stop && !*own_stop;
}
