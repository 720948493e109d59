/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `iodig diff A B [C...]`: the figures of trace files side by side, each
 * compared with A (absolute and % change, Welch's t-test when both sides
 * have repeats), the kernel-side rows with functions matched by name and
 * by role, and warnings where the environments make the comparison unfair.
 * diff.c builds the model (diff_rows.c its rows), diff_render.c prints it.
 */
#ifndef IODIG_DIFF_H
#define IODIG_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/errbuf.h"
#include "base/ttest.h"

struct tracefile;

enum diff_format { DIFF_TEXT, DIFF_JSON, DIFF_MD };
/* Strict on purpose: a handful of repeats on a shared machine, many rows. */
#define DIFF_DEFAULT_ALPHA 0.01

struct diff_opts {
	enum diff_format format;
	const char *svg_dir;
	double alpha;
};

enum diff_sig { SIG_SINGLE = -1, SIG_NOISE = 0, SIG_CHANGED = 1, SIG_NONE = 2 };

struct diff_cell {
	bool present;
	struct sample_summary s;
	double change;             /* mean - baseline mean */
	double change_pct;         /* NAN when the baseline is 0 */
	struct welch_result w;
	enum diff_sig sig;         /* SIG_NONE for the baseline or a missing side */
};

struct diff_row {
	char section[128];         /* "workload", "kernel", "functions", and
				    * with several job groups "group 1 (b) kernel" */
	char label[192];
	char unit[16];
	char note[192];            /* "only in A", "get_user_pages_fast → pin_user_pages_fast" */
	struct diff_cell *cells;   /* one per file */
};

struct diff {
	size_t nr_files;
	struct tracefile **tf;
	char (*tags)[4];           /* "A", "B", ... */
	struct diff_row *rows;
	size_t nr_rows, cap_rows;
	char **warnings;
	size_t nr_warnings;
	char **kernel_notes;       /* the kernel difference, plainly */
	size_t nr_kernel_notes;
	double alpha;
};

int diff_parse_format(const char *s, enum diff_format *out, struct errbuf *err);
/* Loads, compares, renders to @out; warnings about the inputs also go to
 * @warn (stderr) so they are seen when @out is redirected. */
int diff_files(const char *const *paths, size_t n, const struct diff_opts *o,
	       FILE *out, FILE *warn, struct errbuf *err);

/* The model, for tests and renderers; takes ownership of @tf's entries. */
int diff_build(struct tracefile **tf, size_t n, double alpha, struct diff **out,
	       struct errbuf *err);
void diff_free(struct diff *d);

/* diff_rows.c: the figure rows of @d, whose files are loaded; 0 or
 * -ENOMEM. */
int diff_add_rows(struct diff *d);

/* diff_render.c */
int diff_render_text(const struct diff *d, FILE *out);
int diff_render_md(const struct diff *d, FILE *out);
int diff_render_json(const struct diff *d, FILE *out);
/* "12.3 us", "4.56 M", "0.012": a figure in its unit, compact. */
void diff_fmt_value(char *buf, size_t size, double v, const char *unit);

#endif /* IODIG_DIFF_H */
