/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `iodig run --repeat=N`: runs the prepared jobs N times, each job group
 * with freshly loaded probes so every repeat's (and group's) kernel
 * figures are its own, and keeps each repeat's figures (the report's and
 * the families', report_run_figures()) for the trace file and for mean /
 * stdev / 95% CI (Student t).
 */
#ifndef IODIG_REPEAT_H
#define IODIG_REPEAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/errbuf.h"
#include "report/report.h"
#include "run/run.h"

struct figure_set;
struct json_object;

struct repeat_opts {
	unsigned int count;        /* >= 1 */
	uint64_t delay_ns;         /* pause between repeats */
};

struct repeat_result {
	struct report rep;         /* the last repeat's report (text output) */
	struct json_object *tree;  /* the last repeat's fio-compatible JSON */
	struct figure_set *figures; /* each repeat's (@asked of them) */
	unsigned int done;         /* repeats that ran */
	unsigned int asked;
	uint64_t delay_ns;
	bool nothing_run;          /* a signal came before the first repeat */
};

/* Opens probes, runs, collects and builds the report, @o->count times.
 * Returns 0 also when a signal stopped it (ctx->stop_signal says so). */
int repeat_execute(struct run_ctx *ctx, const struct repeat_opts *o,
		   struct repeat_result *res, struct errbuf *err);
void repeat_result_free(struct repeat_result *res);

/* The "repeats" object: count, delay, runs[{figures}], summary{key: {n,
 * mean, stdev, ci95_low, ci95_high}}. */
struct json_object *repeat_json(const struct repeat_result *res);
/* --output-format=json: fio's JSON of the last repeat; with repeats its
 * "iodig" object also carries "repeats". */
int repeat_render_json(const struct repeat_result *res, FILE *out);
/* repeat_render_json with another rendering of the last repeat's report
 * (json+'s, with histogram bins). */
int repeat_render_json_tree(const struct repeat_result *res, struct json_object *tree,
			    FILE *out);
/* The text report's "Repeats" section (nothing for a single run). */
void repeat_render_text(const struct repeat_result *res, FILE *out);

#endif /* IODIG_REPEAT_H */
