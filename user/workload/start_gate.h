/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where a new worker waits before its set-up: the runner creates a
 * group's workers first and attaches the group's probes while they wait,
 * so the probe set-up and the workers' first moments overlap
 * (run/runner.c).  It lives in memory shared with worker processes.
 */
#ifndef IODIG_START_GATE_H
#define IODIG_START_GATE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

struct start_gate {
	uint32_t open;        /* futex word: 0 closed, 1 open */
	bool count_events;    /* the counters family runs (workload/counters.h) */
};

void start_gate_close(struct start_gate *g);

/* Opens @g for every worker waiting at it, telling them @count_events. */
void start_gate_open(struct start_gate *g, bool count_events);

/* Waits until @g is open (the runner opens it on every path, stopping or
 * not); true when neither *@stop nor *@own_stop is set then. */
bool start_gate_pass(struct start_gate *g, volatile sig_atomic_t *stop,
		     volatile sig_atomic_t *own_stop);

#endif
