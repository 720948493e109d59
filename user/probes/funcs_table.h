/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The funcs family's function table (funcs_table.c), and the read-only
 * views its report (funcs_report.c) takes of the family's state
 * (funcs.c).  Adding a traced function is one row in funcs_table.c.
 */
#ifndef IODIG_PROBES_FUNCS_TABLE_H
#define IODIG_PROBES_FUNCS_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "iodig/funcs.h"
#include "probes/probe.h"
#include "workload/stats.h"

/* Alternative kernel names of one role, first present wins. */
#define FUNCS_MAX_ALT 3
#define FUNCS_TABLE_MAX_NAMES 48

enum funcs_group {
	FG_TAG,       /* blk-mq tag allocation */
	FG_PIN,       /* pinning the user's pages for O_DIRECT */
	FG_RELEASE,   /* unpinning / putting them back */
	FG_DAX,       /* DAX page faults */
	FG_IOURING,   /* io_uring issue and punt to io-wq */
	FG_NR,
};

/* What a function's total time is compared with. */
enum funcs_share {
	SHARE_SLAT,   /* submission (clat for sync engines, which have none) */
	SHARE_CLAT,   /* completion latency */
};

struct func_def {
	const char *role;                 /* the name shown */
	const char *names[FUNCS_MAX_ALT]; /* kernel names, NULL-terminated */
	enum funcs_group group;
	enum funcs_kind kind;
	uint32_t flags;                   /* FF_* */
	uint32_t arg_a, arg_b;            /* see enum funcs_kind */
	enum funcs_share share;
};

extern const struct func_def func_table[];
extern const size_t func_table_len;
extern const char *const funcs_group_names[FG_NR];

struct funcs_slot_view {
	const struct func_def *def;
	const char *kname;
	bool attached;
	const struct funcs_fn_counters *c;
	const struct hist *h;
};

struct funcs_info_view {
	const char *mechanism;
	const char *absent;
	const char *failed;
	const struct probe_workload *wl;
	const struct funcs_global *g;
	const struct funcs_overflow *overflow;   /* NULL: no stack overflowed */
};

size_t funcs_state_slots(const void *state);
bool funcs_state_slot(const void *state, size_t i, struct funcs_slot_view *v);
void funcs_state_info(const void *state, struct funcs_info_view *v);

void funcs_render_text(const void *state, FILE *out);
void funcs_render_json(const void *state, struct json_object *kernel);
struct figure_set;
/* Each timed function's calls and time per I/O, as figures (the family's
 * figures hook). */
void funcs_figures(const void *state, const struct probe_workload *wl,
		   struct figure_set *out);

#endif /* IODIG_PROBES_FUNCS_TABLE_H */
