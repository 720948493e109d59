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
#include "base/option.h"
#include "workload/job.h"

/* What the job-file parser keeps and tells (fio's --section and
 * --showcmd); NULL: every job, nothing told. */
#define JOBFILE_MAX_SECTIONS 32
/* The largest block size a job may ask for: fio's examples use 256 MiB
 * (zoned drives' zone size); each unit of the depth holds one. */
#define JOB_BS_MAX (1ull << 30)
struct jobfile_select {
	/* when any: only these jobs; [global] sections are always read and
	 * the lines of the others skipped unread, as fio does */
	const char *sections[JOBFILE_MAX_SECTIONS];
	unsigned int nr_sections;
	/* called, when set, for each section read (@key NULL), then for
	 * each of its options as it is applied (@value NULL for a bare
	 * key): in file order, kb_base and unit_base first */
	void (*echo)(void *arg, const char *section, const char *key, const char *value);
	void *echo_arg;
};

/* An OPT_SIZE row of struct job that also takes fio's 'Nz' (zones),
 * counted in job->zone_counts.@f. */
#define ZONES(f) .flags = OPT_ZONES, \
	.zones_offset = offsetof(struct job, zone_counts.f)

struct job_list {
	struct job *jobs;
	size_t count;
	const struct jobfile_select *select; /* for jobfile_parse; NULL: all */
};

/* fio's defaults: bs=4k, rw=read, iodepth=1, numjobs=1, ioengine=psync,
 * rwmixread=50, randrepeat=1, randseed=0x89, group 0. */
void job_set_defaults(struct job *job);

/* Applies one option (key without leading dashes) to @job.  @value may be
 * NULL for a bare boolean ("time_based").  @where is "file:line" or
 * "option --x" and prefixes the error message.  An engine option (one an
 * engine declares, see workload/engine_opts.h) is checked and kept; it is
 * applied once the job's engine is known, by job_list_finalize. */
int job_option_set(struct job *job, const char *key, const char *value,
		   const char *where, struct errbuf *err);

/* job_option_set for "--key=value" on the command line, where fio 3.33
 * refuses every empty value. */
int job_option_set_cli(struct job *job, const char *key, const char *value,
		       const char *where, struct errbuf *err);

/* job_option_set for a line of a job file (@where is "file:line"): an
 * engine option keeps @line, so that an error found once the job's engine
 * is known (job_list_finalize) names that line in job->source. */
int job_option_set_at(struct job *job, const char *key, const char *value,
		      const char *where, int line, struct errbuf *err);

/* True when @key names a job option or an engine option (so the CLI can
 * tell iodig's own options from job options). */
bool job_option_known(const char *key);

/* The option's own name for @key, which may be an alias ("blocksize" is
 * "bs"); @key itself when no option has it. */
const char *job_option_name(const char *key);

/* Parses an INI job file ([global] plus job sections) and appends its jobs.
 * numjobs is kept as a count; it is not expanded into copies.  A file with
 * no job (only [global], or nothing) appends none and is no error, as in
 * fio: whether a run without jobs is one is the caller's to say. */
int jobfile_parse(const char *path, struct job_list *list, struct errbuf *err);
int jobfile_parse_buffer(const char *name, const char *buf, size_t len,
			 struct job_list *list, struct errbuf *err);

/* fio's command-line form: "--key=value" arguments; options before the
 * first --name are global, each --name starts a job (none: no job, and no
 * error, as for a job file). */
int cmdline_jobs_parse(int argc, char *const argv[], struct job_list *list,
		       struct errbuf *err);

/* Checks values that depend on each other (bs <= size, iodepth >= 1,
 * rwmixread <= 100, engine known, ...), resolves the engine, applies the
 * engine options and assigns stonewall groups.  Errors name the job's
 * source and the option (an engine option: the line that gave it). */
int job_list_finalize(struct job_list *list, struct errbuf *err);

/* What only the machine that runs the jobs can check (the CPUs a job
 * names exist); fio too checks it when it runs, not with --parse-only. */
int job_list_check_host(const struct job_list *list, struct errbuf *err);

void job_list_free(struct job_list *list);

/* Prints the option table (name, type, default, help) for --help, then
 * each engine's options under its name. */
void options_print_help(FILE *out);

/* Calls @fn for every job option, in the order --help lists them: the
 * job table, then each engine's options (an option several engines take
 * once). */
typedef void (*job_option_fn)(const struct opt_doc *doc, void *arg);
void job_options_foreach(job_option_fn fn, void *arg);

#endif /* IODIG_OPTIONS_H */
