/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Job options: one table serves job files and the fio-style command line, so
 * the two can never disagree.  Unknown options are errors naming file:line.
 */
#ifndef IODIG_OPTIONS_H
#define IODIG_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/errbuf.h"
#include "workload/job.h"

struct job_list {
	struct job *jobs;
	size_t count;
};

/* fio's defaults: bs=4k, rw=read, iodepth=1, numjobs=1, ioengine=psync,
 * rwmixread=50, randrepeat=1, randseed=0x89, group 0. */
void job_set_defaults(struct job *job);

/* Applies one option (key without leading dashes) to @job.  @value may be
 * NULL for a bare boolean ("time_based").  @where is "file:line" or
 * "option --x" and prefixes the error message. */
int job_option_set(struct job *job, const char *key, const char *value,
		   const char *where, struct errbuf *err);

/* True when @key names a job option (so the CLI can tell iodig's own
 * options from job options). */
bool job_option_known(const char *key);

/* Parses an INI job file ([global] plus job sections) and appends its jobs.
 * numjobs is kept as a count; it is not expanded into copies. */
int jobfile_parse(const char *path, struct job_list *list, struct errbuf *err);
int jobfile_parse_buffer(const char *name, const char *buf, size_t len,
			 struct job_list *list, struct errbuf *err);

/* fio's command-line form: "--key=value" arguments; options before the
 * first --name are global, each --name starts a job. */
int cmdline_jobs_parse(int argc, char *const argv[], struct job_list *list,
		       struct errbuf *err);

/* Checks values that depend on each other (bs <= size, iodepth >= 1,
 * rwmixread <= 100, engine known, ...), resolves the engine and assigns
 * stonewall groups.  Errors name the job's source and the option. */
int job_list_finalize(struct job_list *list, struct errbuf *err);

void job_list_free(struct job_list *list);

/* Prints the option table (name, type, default, help) for --help. */
void options_print_help(FILE *out);

/* One job option as --help, the man page and shell completion show it. */
struct job_option_doc {
	const char *name;
	const char *alias;        /* NULL: none */
	const char *arg;          /* value kind: STR, SIZE, INT, BOOL, TIME ... */
	const char *help;
	const char *def;          /* default, as a job file writes it; NULL: none */
	bool has_range;           /* INT: min and max bound it */
	uint64_t min, max;
	char values[512];         /* the words it takes, ", " between; "" any */
};
typedef void (*job_option_fn)(const struct job_option_doc *doc, void *arg);

/* Calls @fn for every job option, in the order --help lists them. */
void job_options_foreach(job_option_fn fn, void *arg);

/* Size with fio's suffixes: k/K/KiB = 1024 ..., p; plain number = bytes. */
int parse_size(const char *s, uint64_t *out);
/* Time with fio's suffixes us/ms/s/m/h/d; a bare number is in @unit_ns. */
int parse_time_ns(const char *s, uint64_t unit_ns, uint64_t *out);
int parse_bool(const char *s, bool *out);

#endif /* IODIG_OPTIONS_H */
