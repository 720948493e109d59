/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace file: one self-contained JSON document per `iodig run` with
 * the fio-compatible results, the kernel sections, full histograms, folded
 * stacks, every repeat's figures and the environment.  Schema in
 * docs/trace-file.md; "iodig_trace_version" is MAJOR.MINOR and readers refuse
 * a newer major.
 */
#ifndef IODIG_TRACEFILE_H
#define IODIG_TRACEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/errbuf.h"
#include "probes/figures.h"
#include "svg/svg.h"
#include "workload/series.h"
#include "workload/stats.h"

struct json_object;
struct repeat_result;
struct run_ctx;

/* 1.1: iodig.figure_definitions; iodig.groups with several job groups
 * 1.2: iodig.series, latency over time
 * 1.3: iodig.repeats.runs[].series, every repeat's
 * 1.4: iodig.repeats.runs[].sampling, every repeat's sampled breakdown */
#define TRACEFILE_VERSION "1.4"
#define TRACEFILE_MAJOR 1
#define TRACEFILE_DIR "iodig-runs"

/* A function's samples in a sampled slat breakdown. */
struct tf_sampled_fn {
	char *name;
	double samples;            /* stacks with it anywhere */
	double self_samples;       /* stacks with it as the leaf */
};

/* One repeat's sampled slat breakdown (iodig.kernel.sampling's counts). */
struct tf_sampling {
	bool valid;
	double basis_ns_per_io;    /* the time per I/O the samples share */
	double submission_stacked; /* samples in submission with a stack */
	double sampled_ns_per_io;  /* the samples' own time per I/O, 0: not given */
	struct tf_sampled_fn *fns;
	size_t nr_fns;
	struct stack_count *oncpu; /* its listed stacks, root first */
	size_t nr_oncpu;
};

/* One figure over the repeats of a run (n == 1 for a single run). */
struct tf_metric {
	char *key;                 /* "iops", "kernel.punt_ratio", "fn|slat|NAME|ns_per_io" */
	double *v;
	size_t n;
};

struct tracefile {
	char *name;                /* file name, for messages */
	int major, minor;
	struct json_object *root;  /* the whole document */
	struct json_object *env;   /* iodig.environment (borrowed from root) */
	struct tf_metric *metrics;
	size_t nr_metrics;
	/* how to show the figures, in display order (rank = index): from
	 * iodig.figure_definitions, or the 1.0 table for older files */
	struct figure_def *defs;
	size_t nr_defs;
	size_t nr_repeats;
	struct stack_count *oncpu;    /* in-submission on-CPU samples */
	size_t nr_oncpu;
	struct stack_count *offcpu;   /* context switches by blocking stack */
	size_t nr_offcpu;
	struct hist *clat;         /* clat of every job and direction */
	/* latency over time, each series marked with its repeat: every
	 * repeat's from 1.3, the last repeat's in 1.2, empty before */
	struct series_set series;
	/* the sampled breakdown: each repeat's (1.4, NULL before) and the
	 * last repeat's (iodig.kernel.sampling, every version) */
	struct tf_sampling *sampling;
	struct tf_sampling sampling_last;
};

/* Assembles the trace document from a finished run. */
int tracefile_build(const struct repeat_result *res, const struct run_ctx *ctx,
		    struct json_object **out, struct errbuf *err);
/* ./iodig-runs/<job>-<YYYYmmdd-HHMMSS>.json, creating the folder. */
int tracefile_default_path(const char *job_name, char *buf, size_t size,
			   struct errbuf *err);
/* Writes a temp file next to @path, fsyncs and renames it into place. */
int tracefile_write(struct json_object *doc, const char *path, struct errbuf *err);

/* Validates and indexes a trace file held in memory; @name is only used
 * in messages.  Never trusts the input: this is the fuzzing entry point. */
int tracefile_parse_buffer(const char *name, const char *buf, size_t len,
			   struct tracefile **out, struct errbuf *err);
int tracefile_load(const char *path, struct tracefile **out, struct errbuf *err);
/* Indexes an already-built document (takes a reference of @doc). */
int tracefile_from_doc(const char *name, struct json_object *doc,
		       struct tracefile **out, struct errbuf *err);
void tracefile_free(struct tracefile *tf);

const struct tf_metric *tracefile_metric(const struct tracefile *tf, const char *key);
/* The definition of figure @key (a group's prefix left out, a function
 * row found by its "fn|ROLE|*|MEASURE" pattern); NULL when the file has
 * none. */
const struct figure_def *tracefile_def(const struct tracefile *tf, const char *key);
/* A string from the environment by dotted path ("cpu.online", an array's
 * entry by its index: "devices.0.name"); "" if absent. */
const char *tracefile_env_str(const struct tracefile *tf, const char *path,
			      char *buf, size_t size);

/* tracefile_defs.c: the definitions of the figures of @res, for the
 * file; reading them into tf->defs (after the version is known). */
struct json_object *tracefile_defs_json(const struct repeat_result *res);
int tracefile_parse_defs(struct tracefile *tf, struct json_object *iodig,
			 struct errbuf *err);

/* tracefile_series.c: every repeat's series (1.3), else iodig.series as
 * the last repeat's, into tf->series (none: left empty).  After
 * tf->nr_repeats is known. */
int tracefile_parse_series(struct tracefile *tf, struct json_object *iodig,
			   struct errbuf *err);

/* Member @key of object @o; NULL when @o is no object or lacks it. */
struct json_object *tracefile_jget(struct json_object *o, const char *key);

/* tracefile_sampling.c: repeat @run's sampled counts for its run object
 * (NULL when the sampling family did not run); reading every repeat's
 * (1.4) and the last one's into tf->sampling, tf->sampling_last, after
 * tf->nr_repeats is known; repeat @run's, NULL when the file has none. */
struct json_object *tracefile_sampling_json(const struct repeat_result *res, unsigned int run);
int tracefile_parse_sampling(struct tracefile *tf, struct json_object *iodig,
			     struct errbuf *err);
const struct tf_sampling *tracefile_sampling(const struct tracefile *tf, size_t run);
void tracefile_sampling_free(struct tracefile *tf);

/* The figures' stacks of @kind as [["a;b;c", count], ...]; a stack list
 * at @where (for messages) read back into @out. */
struct json_object *tracefile_stacks_json(const struct figure_set *figs,
					  enum figure_stack_kind kind);
int tracefile_parse_stacks(struct tracefile *tf, struct json_object *arr, const char *where,
			   struct stack_count **out, size_t *nr, struct errbuf *err);

/* --folded: "on-cpu;..." and "off-cpu;..." lines, "stack count". */
int tracefile_write_folded(const struct tracefile *tf, const char *path,
			   struct errbuf *err);

#endif /* IODIG_TRACEFILE_H */
