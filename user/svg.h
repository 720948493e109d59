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

#include <stddef.h>
#include <stdio.h>

#include "errbuf.h"
#include "stats.h"

struct tracefile;
struct tf_stack;

/* --svg=DIR on run: DIR/oncpu.svg, DIR/offcpu.svg, DIR/latency.svg. */
int svg_write_run(const struct tracefile *tf, const char *dir, struct errbuf *err);
/* --svg=DIR on diff: DIR/oncpu-diff.svg and DIR/offcpu-diff.svg (B against
 * A), DIR/latency.svg with every file overlaid. */
int svg_write_diff(const struct tracefile *const *tf, size_t n, const char *dir,
		   struct errbuf *err);

/* Writes @s with XML's five special characters escaped. */
void svg_escape(FILE *out, const char *s);

/* flamegraph.c: a flame graph of @cur; with @base (differential), widths
 * are @cur's and colours show each frame's change of share against @base
 * (red grew, blue shrank).  Returns 0 or -errno. */
int flamegraph_write(FILE *out, const char *title, const char *subtitle,
		     const struct tf_stack *cur, size_t nr_cur,
		     const struct tf_stack *base, size_t nr_base);

/* The clat distributions of @n runs overlaid, log-scale x axis. */
int latency_plot_write(FILE *out, const char *title, const struct hist *const *h,
		       const char *const *names, size_t n);

#endif /* IODIG_SVG_H */
