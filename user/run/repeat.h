/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `iodig run --repeat=N`: runs the prepared jobs N times, each with freshly
 * loaded probes so every repeat's kernel figures are its own, and keeps
 * each repeat's headline and kernel figures for the trace file and for
 * mean / stdev / 95% CI (Student t).
 */
#ifndef IODIG_REPEAT_H
#define IODIG_REPEAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "base/errbuf.h"
#include "report/report.h"
#include "run/run.h"

struct json_object;

struct repeat_opts {
	unsigned int count;        /* >= 1 */
	uint64_t delay_ns;         /* pause between repeats */
};

struct repeat_result {
	struct report rep;         /* the last repeat's report (text output) */
	struct json_object *tree;  /* the last repeat's fio-compatible JSON */
	struct json_object **figures; /* one flat {key: value} per repeat */
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

/* One repeat's figures: headline (iops, bw_kib, {slat,clat,lat}_{mean,p50,
 * p99,p99.9}_ns, usr/sys cpu, ctx_per_io) from @r, kernel figures from the
 * "iodig" object of @tree.  Function rows are keyed "fn|ROLE|NAME|UNIT". */
int figures_extract(const struct report *r, struct json_object *tree,
		    struct json_object **out);

/* The "repeats" object: count, delay, runs[{figures}], summary{key: {n,
 * mean, stdev, ci95_low, ci95_high}}. */
struct json_object *repeat_json(const struct repeat_result *res);
/* --output-format=json: fio's JSON of the last repeat; with repeats its
 * "iodig" object also carries "repeats". */
int repeat_render_json(const struct repeat_result *res, FILE *out);
/* The text report's "Repeats" section (nothing for a single run). */
void repeat_render_text(const struct repeat_result *res, FILE *out);

/* Headline figure keys, in display order, with their labels. */
struct figure_def {
	const char *key;
	const char *label;
	const char *unit;
	int higher_is_better;      /* 1, 0, or -1 when it has no direction */
};
extern const struct figure_def headline_figures[];
extern const size_t nr_headline_figures;
extern const struct figure_def kernel_figures[];
extern const size_t nr_kernel_figures;

/* dev_t of a whole disk from /sys/block/NAME/dev, 0 when unknown. */
dev_t disk_devt(const char *disk);

#endif /* IODIG_REPEAT_H */
