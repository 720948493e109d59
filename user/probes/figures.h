/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Figures: the numbers of a run that --repeat summarizes, the trace file
 * keeps and `iodig diff` compares.  Each figure has one owner, which
 * declares its definition (key, label, unit, which way is better) next to
 * the state it is computed from and fills its value from that state: the
 * report for the workload's figures, each probe family for its own.
 * Readers take labels and units from the definitions, never from a table
 * of their own.
 */
#ifndef IODIG_FIGURES_H
#define IODIG_FIGURES_H

#include <stddef.h>
#include <stdint.h>

enum figure_kind {
	FIGURE_WORKLOAD,           /* the workload's own: iops, latencies */
	FIGURE_KERNEL,             /* one figure of a probe family */
	FIGURE_FUNCTION,           /* one row per kernel function */
};

enum figure_better {
	FIGURE_NO_DIRECTION,
	FIGURE_HIGHER,             /* higher is better */
	FIGURE_LOWER,              /* lower is better */
};

struct figure_def {
	enum figure_kind kind;
	/* The figure's key ("iops", "kernel.punt_ratio"); for FIGURE_FUNCTION
	 * the pattern "fn|ROLE|*|MEASURE", '*' standing for the function. */
	const char *key;
	/* The row's label; for FIGURE_FUNCTION the role's ("blocks in").
	 * NULL: the figure is kept (repeats, trace file) but is no row. */
	const char *label;
	const char *measure;       /* FIGURE_FUNCTION: "off-CPU time/IO" */
	const char *unit;          /* "ns", "KiB/s", "%", "ns/IO", "" */
	enum figure_better better;
	/* Order among its kind, lower first, as rows and in the trace file.
	 * Families space theirs by tens, so a new one fits between: kernel
	 * figures io_uring 0, sched 10, faults 20, counters 25, block 30; function rows
	 * sampling 0, funcs (exact) 5, sched 10, syscalls 20. */
	int rank;
};

/* A family's definitions: its kernel figures are ratios (no unit), its
 * function rows FIGURE_FUNCTION patterns. */
#define FIGURE_KERNEL_DEF(k, l, b, r) \
	{ .kind = FIGURE_KERNEL, .key = (k), .label = (l), .unit = "", .better = (b), .rank = (r) }
#define FIGURE_FUNCTION_DEF(k, l, m, u, b, r) \
	{ .kind = FIGURE_FUNCTION, .key = (k), .label = (l), .measure = (m), .unit = (u), \
	  .better = (b), .rank = (r) }
/* A function role's two figures, its calls and its time per I/O
 * ("fn|<role>|*|calls_per_io", "fn|<role>|*|ns_per_io"), fewer better:
 * an array of two for figure_put_fn_per_io(). */
#define FIGURE_FUNCTION_PER_IO_DEFS(role, l, calls_measure, ns_measure, r)		\
	{ FIGURE_FUNCTION_DEF("fn|" role "|*|calls_per_io", (l), (calls_measure),	\
			      "calls/IO", FIGURE_LOWER, (r)),				\
	  FIGURE_FUNCTION_DEF("fn|" role "|*|ns_per_io", (l), (ns_measure),		\
			      "ns/IO", FIGURE_LOWER, (r)) }

struct figure {
	const struct figure_def *def; /* borrowed: outlives the set */
	char *key;                 /* the full key, group prefix included */
	double value;
};

/* The stacks behind the figures, for flame graphs and --folded. */
enum figure_stack_kind {
	FIGURE_STACK_ON_CPU,       /* sampled inside the submitting calls */
	FIGURE_STACK_OFF_CPU,      /* a switch-out's blocking stack */
};

struct figure_stack {
	enum figure_stack_kind kind;
	char *stack;               /* folded, root first: "a;b;c" */
	uint64_t count;
};

struct figure_set {
	struct figure *v;
	size_t n, cap;
	struct figure_stack *stacks;
	size_t nr_stacks, cap_stacks;
	int err;                   /* first failure (-ENOMEM), 0 = none */
	char prefix[16];           /* put before every key ("g1/"), "" = none */
};

/* Adds @value under @def's key; non-finite values are left out, a key
 * already there keeps its place and takes the new value. */
void figure_put(struct figure_set *s, const struct figure_def *def, double value);
/* figure_put with the key given whole (a function row's, or one from
 * another set), under the set's prefix. */
void figure_put_key(struct figure_set *s, const struct figure_def *def, const char *key,
		    double value);
/* A FIGURE_FUNCTION row: @def's pattern with @function for the '*'. */
void figure_put_fn(struct figure_set *s, const struct figure_def *def,
		   const char *function, double value);
/* @function's rows of a FIGURE_FUNCTION_PER_IO_DEFS pair: @calls and @ns
 * divided by @ios. */
void figure_put_fn_per_io(struct figure_set *s, const struct figure_def defs[2],
			  const char *function, uint64_t calls, uint64_t ns,
			  uint64_t ios);
void figure_put_stack(struct figure_set *s, enum figure_stack_kind kind,
		      const char *stack, uint64_t count);
/* @part / @whole, 0 when @whole is 0: the per-I/O figures. */
double figure_ratio(double part, double whole);
/* Orders the figures from index @from on by kind, then rank, keeping the
 * order they were put in otherwise. */
void figure_set_sort(struct figure_set *s, size_t from);
const struct figure *figure_find(const struct figure_set *s, const char *key);
void figure_set_free(struct figure_set *s);

/* "higher", "lower", "none" and back; -1 for an unknown name. */
const char *figure_better_name(enum figure_better b);
int figure_better_parse(const char *name);
/* A group's figures carry its prefix, "g<ID>/": the key without it, and
 * the group's id in @group (-1 for a key without one). */
const char *figure_base_key(const char *key, int *group);
/* Splits a FIGURE_FUNCTION key "fn|ROLE|NAME|MEASURE" (or pattern);
 * 0, or -1 when @key is not one. */
int figure_split_fn(const char *key, char *role, size_t role_size,
		    char *name, size_t name_size, char *measure, size_t measure_size);

#endif /* IODIG_FIGURES_H */
