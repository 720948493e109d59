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

/* --repeat=auto: at least this many repeats, at most the maximum. */
#define REPEAT_AUTO_MIN 3
#define REPEAT_AUTO_MAX 10
#define REPEAT_AUTO_DEFAULT_PCT 2.0

struct repeat_opts {
	unsigned int count;        /* >= 1; with auto_pct the maximum */
	uint64_t delay_ns;         /* pause between repeats */
	/* --repeat=auto[:PCT]: repeat until the 95% CI half-width of IOPS,
	 * bandwidth and lat avg is within PCT% of each mean; 0 = off */
	double auto_pct;
};

struct repeat_result {
	struct report rep;         /* the last repeat's report (text output) */
	struct json_object *tree;  /* the last repeat's fio-compatible JSON */
	struct figure_set *figures; /* each repeat's (@asked of them) */
	struct series_set *series; /* each repeat's latency over time (@asked) */
	/* each repeat's "kernel" section of the JSON report (@asked, NULL
	 * where it has none): the trace file keeps per-repeat details of it */
	struct json_object **kernels;
	uint64_t *started_ns;      /* each repeat's start, CLOCK_REALTIME */
	unsigned int done;         /* repeats that ran */
	unsigned int asked;
	uint64_t delay_ns;
	bool nothing_run;          /* a signal came before the first repeat */
	double auto_pct;           /* --repeat=auto's target, 0 = off */
	char auto_note[192];       /* why --repeat=auto stopped */
};

/* Opens probes, runs, collects and builds the report, @o->count times.
 * Returns 0 also when a signal stopped it (ctx->stop_signal says so). */
int repeat_execute(struct run_ctx *ctx, const struct repeat_opts *o,
		   struct repeat_result *res, struct errbuf *err);
void repeat_result_free(struct repeat_result *res);
/* repeat_execute in steps, for a caller that interleaves two run
 * contexts (run/ab.h): repeat_begin() sizes @res for @o; each
 * repeat_once() runs the next repeat after --repeat-delay (none before
 * the first), and returns 0 also when a signal stopped it. */
int repeat_begin(const struct repeat_opts *o, struct repeat_result *res, struct errbuf *err);
int repeat_once(struct run_ctx *ctx, struct repeat_result *res, struct errbuf *err);

/* repeat_auto.c: "N", "auto", "auto:5%" into @o; 0 or -EINVAL. */
int repeat_parse(const char *s, struct repeat_opts *o, struct errbuf *err);
/* Whether the repeats so far are enough for --repeat=auto (at least
 * REPEAT_AUTO_MIN, the headline CIs within the target); says why in
 * res->auto_note, and when @last also why not. */
bool repeat_auto_enough(struct repeat_result *res, bool last);

/* The "repeats" object: count, delay, runs[{start_unix_ns, figures, series}], summary{key: {n,
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
