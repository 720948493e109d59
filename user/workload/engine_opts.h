/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Engine options (fio's ioengine_ops.options): each engine declares a table
 * in its own file.  A job keeps what it is given (job->engine_given) until
 * its engine is known, then parses it into the engine's own struct in
 * job->engine_opts, so an option may come before ioengine=, from [global],
 * or from the command line.
 */
#ifndef IODIG_ENGINE_OPTS_H
#define IODIG_ENGINE_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/errbuf.h"
#include "base/option.h"
#include "workload/job.h"

/* The first declaration of @key (name or alias) by any engine; NULL when
 * no engine declares it. */
const struct opt_desc *engine_opt_lookup(const char *key);

/* Names of the engines declaring @name, "a or b", for messages. */
const char *engine_opt_owners(const char *name, char *buf, size_t len);

/* Keeps engine option @o (from engine_opt_lookup) for @job, replacing an
 * earlier value.  The value is parsed now, so a malformed one fails here
 * at @where; whether the job's engine takes the option is known only
 * later.  @line > 0 is the line of job->source that gave it; otherwise
 * the first bytes of @where are kept for a later error. */
int engine_opt_give(struct job *job, const struct opt_desc *o,
		    const char *value, const char *where, int line,
		    struct errbuf *err);

/* Clears job->engine_opts to the defaults of job->engine. */
void engine_opts_reset(struct job *job);

/* Parses what @job was given into the options of job->engine, then checks
 * that the engine takes the job's files (nrfiles, workload/files.h) and
 * runs the engine's check_job.  An option the engine does not declare fails
 * naming the file:line (or command line) that gave it; @job_where names
 * the job for the engine's check. */
int engine_opts_resolve(struct job *job, const char *job_where,
			struct errbuf *err);

/* For a report's "job options" (fio echoes what a job was given): from
 * *@i on, the next option of the job's engine whose value differs from
 * its default, as @key and @value text; false past the last. */
bool engine_opt_echo(const struct job *job, size_t *i, const char **key,
		     char *value, size_t len);

/* The options of every engine that has some, grouped by engine, as
 * fio --enghelp=ENGINE lists them. */
void engine_opts_print_help(FILE *out);

#endif /* IODIG_ENGINE_OPTS_H */
