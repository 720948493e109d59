/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-I/O priorities of libaio and io_uring, fio's engines/cmdprio.c:
 * cmdprio_percentage of the I/Os (or, with cmdprio_bssplit, a percentage
 * per block size) carry the priority cmdprio_class / cmdprio /
 * cmdprio_hint (or the entry's own) on the iocb or SQE; the others carry
 * none and the kernel gives them the task's (prio/prioclass).  fio 3.33
 * has cmdprio_percentage, cmdprio_class, cmdprio and cmdprio_bssplit
 * (with the bs/perc/class/level entries); cmdprio_hint and the fifth,
 * hint field of an entry came with fio 3.36.
 */
#ifndef IODIG_ENGINES_CMDPRIO_H
#define IODIG_ENGINES_CMDPRIO_H

#include <stdbool.h>
#include <stdint.h>

#include "base/errbuf.h"
#include "base/option.h"
#include "base/rng.h"
#include "workload/job.h"

/* The options as given, in an engine's options struct. */
#define CMDPRIO_BSSPLIT_MAX JOB_ENGINE_OPT_VALUE_MAX
struct cmdprio_opts {
	unsigned int perc[DDIR_COUNT];
	unsigned int cls[DDIR_COUNT];   /* 0: fio's default, realtime */
	unsigned int level[DDIR_COUNT];
	unsigned int hint[DDIR_COUNT];
	char bssplit[CMDPRIO_BSSPLIT_MAX];
};

/* The option rows, inside an engine's table over @type whose member
 * @m is a struct cmdprio_opts. */
opt_setter cmdprio_set_bssplit;
#define CMDPRIO_OPTIONS(T, m)					\
	{ .name = "cmdprio_percentage", .type = OPT_CUSTOM,		\
	  OPT_FIELD(T, m.perc), .set = opt_set_uint_pair, .max = 100,	\
	  .hint = "N[,N]", .help = "Percent of the I/Os (reads,writes) "	\
	  "sent with the cmdprio priority" },				\
	{ .name = "cmdprio_class", .type = OPT_CUSTOM,			\
	  OPT_FIELD(T, m.cls), .set = opt_set_uint_pair, .min = 1,	\
	  .max = 3, .hint = "N[,N]", .help = "Class of that priority: "	\
	  "1 realtime (default), 2 best effort, 3 idle" },		\
	{ .name = "cmdprio", .type = OPT_CUSTOM, OPT_FIELD(T, m.level), \
	  .set = opt_set_uint_pair, .max = 7, .hint = "N[,N]",		\
	  .help = "Level of that priority, 0 (highest) to 7" },		\
	{ .name = "cmdprio_hint", .type = OPT_CUSTOM,			\
	  OPT_FIELD(T, m.hint), .set = opt_set_uint_pair, .max = 1023,	\
	  .hint = "N[,N]", .help = "Priority hint of that priority (CDL "	\
	  "descriptor 1-7; fio 3.36)" },				\
	{ .name = "cmdprio_bssplit", .type = OPT_CUSTOM,		\
	  OPT_FIELD(T, m.bssplit), .set = cmdprio_set_bssplit,	\
	  .hint = "BS/PERC[/CLASS/LEVEL[/HINT]]:...[,...]",		\
	  .help = "Percent of the I/Os of each block size sent with a "	\
	  "priority (its own, or cmdprio_class/cmdprio)" }

/* One priority and the percent of a block size's I/Os that get it. */
struct cmdprio_entry {
	uint32_t bs;         /* 0: every size (cmdprio_percentage) */
	unsigned int perc;
	uint16_t ioprio;     /* the kernel's IOPRIO_PRIO_VALUE_HINT */
	uint8_t stat_index;  /* its latency entry (workload/prio_stats.h) */
};

#define CMDPRIO_ENTRIES_MAX 64
struct cmdprio {
	bool on;
	unsigned int nr[DDIR_COUNT];
	struct cmdprio_entry e[DDIR_COUNT][CMDPRIO_ENTRIES_MAX];
	struct rng rng;      /* fio's prio_state: apart from the offsets' */
};

/* The kernel's priority value of class, level and hint. */
static inline uint16_t cmdprio_value(unsigned int cls, unsigned int level,
				     unsigned int hint)
{
	return (uint16_t)(cls << 13 | hint << 3 | level);
}

/* fio: cmdprio_percentage and cmdprio_bssplit exclude each other; the
 * engines' check_job. */
int cmdprio_check(const struct cmdprio_opts *o, const char *where,
		  struct errbuf *err);

/* Resolves @o for @job into @cp; cp->on is false when no I/O gets a
 * priority.  @seed seeds the choice. */
int cmdprio_init(struct cmdprio *cp, const struct cmdprio_opts *o,
		 const struct job *job, uint64_t seed, struct errbuf *err);

/* The entry of the next @ddir I/O of @len bytes; NULL: none (the
 * task's priority). */
const struct cmdprio_entry *cmdprio_pick(struct cmdprio *cp, enum ddir ddir,
					 uint32_t len);

struct worker;
struct io_unit;

/* cmdprio_init for worker @w's engine, seeded from the job's randseed
 * and the worker's number, so each clone draws its own sequence; it
 * also lists the priorities in w->prio, for latency per priority. */
int engine_cmdprio_init(const struct worker *w, struct cmdprio *cp,
			const struct cmdprio_opts *o, struct errbuf *err);
/* Sets u->ioprio for the unit about to be queued (0: the task's) and
 * its latency entry; true when it carries a priority of its own. */
bool engine_cmdprio_pick(struct cmdprio *cp, struct io_unit *u);

#endif /* IODIG_ENGINES_CMDPRIO_H */
