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
#include "probes/figures.h"

struct tracefile;

enum diff_format { DIFF_TEXT, DIFF_JSON, DIFF_MD };
/* Strict on purpose: a handful of repeats on a shared machine, many rows.
 * It is the false discovery rate, Benjamini–Hochberg over every row. */
#define DIFF_DEFAULT_ALPHA 0.01
/* Changes smaller than this many percent are never called changed. */
#define DIFF_DEFAULT_MIN_CHANGE 2.0

struct diff_opts {
	enum diff_format format;
	const char *svg_dir;
	double alpha;
	double min_change;         /* percent */
	bool all;                  /* --all: the folded rows and every table */
	const char *fail_on;       /* --fail-on=METRIC[:PCT], checked by diff_parse_fail_on */
	bool steady;               /* --steady: the series' transient left out */
};

enum diff_sig {
	SIG_SINGLE = -1,           /* a side has one run: no estimate of noise */
	SIG_NOISE = 0,             /* q >= alpha */
	SIG_CHANGED = 1,           /* q < alpha and at least --min-change */
	SIG_NONE = 2,              /* the baseline, or a side without the figure */
	SIG_SMALL = 3,             /* q < alpha but below --min-change */
};

enum diff_test {
	DIFF_TEST_NONE,
	DIFF_TEST_WELCH,           /* means */
	DIFF_TEST_MWU_EXACT,       /* percentiles, exact Mann–Whitney U */
	DIFF_TEST_MWU_NORMAL,      /* percentiles with ties: its normal approximation */
};

struct diff_cell {
	bool present;
	const double *v;           /* the repeats' values (borrowed) */
	struct sample_summary s;
	double change;             /* mean - baseline mean */
	double change_pct;         /* NAN when the baseline is 0 */
	struct welch_result w;     /* also the 95% CI of the change */
	enum diff_test test;
	double p, q;               /* the test's two-sided p; its BH q-value */
	enum diff_sig sig;         /* SIG_NONE for the baseline or a missing side */
	/* sampled rows (NAN otherwise): the samples the mean rests on, and
	 * the Poisson p of the change against the baseline's count */
	double samples, sample_p;
};

enum diff_row_kind { ROW_WORKLOAD, ROW_KERNEL, ROW_FUNCTION, ROW_PROBES };

struct diff_row {
	char section[128];         /* "workload", "kernel", "functions", and
				    * with several job groups "group 1 (b) kernel" */
	char key[256];             /* the figure's key, "" for iodig's probes */
	char label[192];
	char unit[16];
	char note[192];            /* "only in A", "get_user_pages_fast → pin_user_pages_fast" */
	enum diff_row_kind kind;
	enum figure_better better;
	int group;                 /* job group, -1 for the whole run's */
	bool headline;
	struct diff_cell *cells;   /* one per file */
	double *own;               /* values the diff made itself (sums, zeros) */
	/* the story, B against A: the change in ns per I/O the row stands
	 * for (NAN: none), its share of the change of lat avg (NAN: none) */
	double time_delta;
	double explains_pct;
	long time_row;             /* the row holding a count's time, -1: none */
	/* Why the row is context, not an explanation (its time contains
	 * other rows'), or NULL. */
	const char *context;
	bool sampling_noise;       /* sampled, its change within the samples' noise */
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
	double alpha, min_change;
	bool all;                  /* render every row, not only the story */
	size_t nr_tested;          /* rows with a test, the BH family */
	/* The story (diff_story.c): the headline rows, then the kernel rows
	 * ranked by their share of the change; the first nr_story_shown are
	 * changed, the rest folded. */
	size_t *headline, nr_headline;
	size_t *story, nr_story, nr_story_shown;
	long probes_row;           /* iodig's probes, -1 when none */
	long lat_row;              /* whole-run lat avg, -1 when none */
	long slat_row;             /* whole-run slat avg, -1 when none */
};

int diff_parse_format(const char *s, enum diff_format *out, struct errbuf *err);
/* "2", "2%", "0.5%": a percentage from 0 to 1000. */
int diff_parse_min_change(const char *s, double *out, struct errbuf *err);
/* "lat_p99_ns", "iops:5", "lat p99:5%": checked for form only; the
 * metric is looked up when the files are loaded. */
int diff_parse_fail_on(const char *s, struct errbuf *err);

/* What --fail-on found: @worse when B is significantly worse than A on
 * the metric by at least the percentage. */
struct diff_outcome {
	bool worse;
	char why[256];
};

int diff_parse_format(const char *s, enum diff_format *out, struct errbuf *err);
/* Loads, compares, renders to @out; warnings about the inputs also go to
 * @warn (stderr) so they are seen when @out is redirected. */
int diff_files(const char *const *paths, size_t n, const struct diff_opts *o,
	       FILE *out, FILE *warn, struct diff_outcome *outcome, struct errbuf *err);
/* The same for files already loaded (`run --baseline`); takes ownership
 * of @tf's entries. */
int diff_loaded(struct tracefile **tf, size_t n, const struct diff_opts *o,
		FILE *out, FILE *warn, struct diff_outcome *outcome, struct errbuf *err);

/* The model, for tests and renderers; takes ownership of @tf's entries. */
int diff_build(struct tracefile **tf, size_t n, const struct diff_opts *o,
	       struct diff **out, struct errbuf *err);
void diff_free(struct diff *d);

/* diff_rows.c: the figure rows of @d, whose files are loaded; 0 or
 * -ENOMEM.  A new row, its cells empty; NULL when out of memory. */
int diff_add_rows(struct diff *d);
struct diff_row *diff_row_new(struct diff *d, const char *section, const char *label,
			      const char *unit);

/* diff_stats.c: each cell's test against the baseline, BH over every
 * row of a column, the verdicts; 0 or -ENOMEM. */
int diff_judge(struct diff *d);
/* diff_probes.c: whether @fn is iodig's own (BPF programs, trampolines,
 * the maps it updates), and the one row that sums them; 0 or -ENOMEM. */
bool diff_is_probe_fn(const char *fn);
int diff_add_probes_row(struct diff *d);
/* diff_sampled.c: a self row beside each sampled (inclusive) submission
 * row, 0 or -ENOMEM; each sampled cell's sample count and Poisson p. */
int diff_add_self_rows(struct diff *d);
void diff_count_samples(struct diff *d);
/* After diff_count_samples(): a self row whose samples' change is within
 * their Poisson noise is not called changed (diff_sampled.c). */
void diff_judge_self_rows(struct diff *d);
/* diff_story.c: the headline and the ranked kernel rows; 0 or -ENOMEM. */
int diff_tell(struct diff *d);
/* The row of figure @name (a key or a label) in the whole run; -1. */
long diff_find_row(const struct diff *d, const char *name);

/* diff_render.c */
int diff_render_text(const struct diff *d, FILE *out);
int diff_render_md(const struct diff *d, FILE *out);
int diff_render_json(const struct diff *d, FILE *out);
/* "Welch t", "changed": the names every format prints. */
const char *diff_test_name(enum diff_test t);
const char *diff_sig_name(enum diff_sig s);
/* "12.3 us", "4.56 M", "0.012": a figure in its unit, compact. */
void diff_fmt_value(char *buf, size_t size, double v, const char *unit);

#endif /* IODIG_DIFF_H */
