/* SPDX-License-Identifier: GPL-2.0 */
/*
 * When each phase of one run ended, for IODIG_TIMING=1 (make bench's
 * start-up breakdown, docs/overhead.md): the layer that owns a phase marks
 * its end, the CLI prints the marks.  A NULL log marks nothing, so callers
 * need no condition.
 */
#ifndef IODIG_PHASE_LOG_H
#define IODIG_PHASE_LOG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PHASE_LOG_MAX 96

struct phase_mark {
	const char *what;   /* static strings: "probes", "family", ... */
	const char *which;  /* "" or e.g. the family's name */
	uint64_t ns;        /* now_ns() */
	uint64_t cpu_ns;    /* the process's CPU time then, all threads;
			     * 0 for a mark at a time taken elsewhere */
};

struct phase_log {
	uint64_t t0_ns;     /* the first mark's reference */
	uint64_t t0_cpu_ns;
	size_t n;
	struct phase_mark m[PHASE_LOG_MAX];
};

void phase_log_init(struct phase_log *log);
/* Initializes @log and returns it when IODIG_TIMING asks for the marks
 * (set, not "0"), else NULL: a command's log. */
struct phase_log *phase_log_from_env(struct phase_log *log);
/* Marks the end of @what @which now; past PHASE_LOG_MAX marks nothing. */
void phase_mark(struct phase_log *log, const char *what, const char *which);
/* The same at @ns, a time taken elsewhere (a worker's first I/O). */
void phase_mark_at(struct phase_log *log, const char *what, const char *which, uint64_t ns);
/* One line per mark in time order: ms since init, ms since the mark
 * before, the process's CPU ms since the mark before (on a busy machine
 * the wall time is mostly waiting for a CPU), what and which. */
void phase_log_print(const struct phase_log *log, FILE *out);

#endif /* IODIG_PHASE_LOG_H */
