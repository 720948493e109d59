/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options a job was given, as given: fio's "global options" and "job
 * options" in its JSON echo them (name and value strings, never the
 * defaults).  Kept in job->given as "name=value\n" lines.
 */
#ifndef IODIG_GIVEN_OPTS_H
#define IODIG_GIVEN_OPTS_H

#include <stdbool.h>

#include "workload/job.h"

/* Records @name=@value; a bare key (@value NULL) is not echoed, as in
 * fio.  An entry that does not fit is left out of the echo (the option
 * itself is applied). */
void job_given_add(struct job *job, const char *name, const char *value);

/* Marks the options recorded so far as the [global] ones: called when a
 * job starts as a copy of the global defaults. */
void job_given_mark_global(struct job *job);

/* Whether @name was given a value (fio's fio_option_is_set); a bare key
 * is not recorded, nor an entry that did not fit. */
bool job_given_has(const struct job *job, const char *name);

#endif /* IODIG_GIVEN_OPTS_H */
