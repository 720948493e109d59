// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "base/phase_log.h"

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void phase_log_init(struct phase_log *log)
{
	memset(log, 0, sizeof(*log));
	log->t0_ns = now_ns();
	log->t0_cpu_ns = cpu_ns();
}

struct phase_log *phase_log_from_env(struct phase_log *log)
{
	const char *timing = getenv("IODIG_TIMING");

	phase_log_init(log);
	return timing && *timing && strcmp(timing, "0") ? log : NULL;
}

void phase_mark_at(struct phase_log *log, const char *what, const char *which, uint64_t ns)
{
	if (!log || log->n >= PHASE_LOG_MAX)
		return;
	log->m[log->n++] = (struct phase_mark){ what, which ? which : "", ns, 0 };
}

void phase_mark(struct phase_log *log, const char *what, const char *which)
{
	if (!log)
		return;
	phase_mark_at(log, what, which, now_ns());
	if (log->n && log->m[log->n - 1].what == what)
		log->m[log->n - 1].cpu_ns = cpu_ns();
}

static int by_time(const void *a, const void *b)
{
	const struct phase_mark *x = a, *y = b;

	return (x->ns > y->ns) - (x->ns < y->ns);
}

static double ms(uint64_t later, uint64_t earlier)
{
	return later > earlier ? (double)(later - earlier) / 1e6 : 0.0;
}

void phase_log_print(const struct phase_log *log, FILE *out)
{
	struct phase_mark m[PHASE_LOG_MAX];
	uint64_t prev, prev_cpu;

	if (!log)
		return;
	memcpy(m, log->m, log->n * sizeof(m[0]));
	qsort(m, log->n, sizeof(m[0]), by_time);
	prev = log->t0_ns;
	prev_cpu = log->t0_cpu_ns;
	for (size_t i = 0; i < log->n; i++) {
		fprintf(out, "iodig-timing: %9.1f ms %+9.1f ms  cpu %+8.1f ms  %s%s%s\n",
			ms(m[i].ns, log->t0_ns), ms(m[i].ns, prev),
			m[i].cpu_ns ? ms(m[i].cpu_ns, prev_cpu) : 0.0, m[i].what,
			m[i].which[0] ? " " : "", m[i].which);
		prev = m[i].ns > prev ? m[i].ns : prev;
		if (m[i].cpu_ns)
			prev_cpu = m[i].cpu_ns;
	}
}
