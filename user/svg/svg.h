/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pictures of runs: interactive flame graphs (click to zoom, search) of the
 * in-submission on-CPU stacks and of the off-CPU (context switch) stacks, a
 * differential flame graph for a diff, and the clat distribution on a log
 * axis with p50/p99/p99.9 marked.  Self-contained SVG: embedded script and
 * style, no network.  Flame graphs follow Brendan Gregg's idea; the code is
 * iodig's own.
 */
#ifndef IODIG_SVG_H
#define IODIG_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/errbuf.h"
#include "workload/series.h"
#include "workload/stats.h"

/* One folded stack ("root;...;leaf") and its weight (samples, switches). */
struct stack_count {
	char *stack;
	double count;
};

/* flamegraph.c: DIR/NAME, a flame graph of @cur, differential against
 * @base when @nr_base > 0 (see flamegraph_write).  Errors name the file. */
int svg_write_flame(const char *dir, const char *name, const char *title,
		    const char *subtitle, const struct stack_count *cur, size_t nr_cur,
		    const struct stack_count *base, size_t nr_base, struct errbuf *err);
/* latency_plot.c: DIR/latency.svg, the clat distributions of @n runs overlaid. */
int svg_write_latency(const char *dir, const struct hist *const *h,
		      const char *const *names, size_t n, struct errbuf *err);

/* timeseries_plot.c: one line of the latency-over-time chart: a series,
 * its name, its first steady interval (--steady; 0: all steady), its
 * colour, and whether it is an earlier repeat, drawn thin under the last
 * one (the last repeat's line is the one in the legend, @nr_thin says how
 * many thin lines share its colour). */
struct ts_line {
	const struct series *s;
	const char *name;
	size_t steady_from;
	size_t color;
	bool thin;
	size_t nr_thin;
};
/* DIR/timeseries.svg: @n lines on one time axis, 0 at the start of
 * measurement, ramp_time shaded before it. */
int svg_write_timeseries(const char *dir, const char *title, const struct ts_line *l,
			 size_t n, struct errbuf *err);
int timeseries_plot_write(FILE *out, const char *title, const struct ts_line *l, size_t n);

/* svg.c: the colour of the @i-th line of a chart. */
const char *svg_color(size_t i);
/* svg.c: @s with XML's five special characters escaped. */
void svg_escape(FILE *out, const char *s);
/* svg.c: DIR/NAME opened for writing (DIR created); NULL with *ret and
 * @err set when it cannot be. */
FILE *svg_file_open(const char *dir, const char *name, struct errbuf *err, int *ret);
/* svg.c: closes @f; @ret is the writer's result.  Errors name the file. */
int svg_file_close(FILE *f, int ret, const char *dir, const char *name, struct errbuf *err);

/* flamegraph.c: a flame graph of @cur; with @base (differential), widths
 * are @cur's and colours show each frame's change of share against @base
 * (red grew, blue shrank).  Returns 0 or -errno. */
int flamegraph_write(FILE *out, const char *title, const char *subtitle,
		     const struct stack_count *cur, size_t nr_cur,
		     const struct stack_count *base, size_t nr_base);

/* latency_plot.c: the clat distributions of @n runs overlaid, log-scale
 * x axis. */
int latency_plot_write(FILE *out, const char *title, const struct hist *const *h,
		       const char *const *names, size_t n);

#endif /* IODIG_SVG_H */
