/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's replay options (read_iolog, replay_*): their rows of the job's
 * option table and their checks against the rest of the job.  The log is
 * read once the job's target is known (run/replay_prepare.c).
 */
#ifndef IODIG_REPLAY_OPTS_H
#define IODIG_REPLAY_OPTS_H

#include "base/errbuf.h"
#include "base/option.h"
#include "workload/job.h"

/* The rows of these options, a table of the job's (job/options.c). */
extern const struct opt_desc replay_options[];

/* What a replay cannot be combined with; read_iolog overrides
 * write_iolog, as in fio.  @where names the job. */
int replay_opts_check(struct job *job, const char *where, struct errbuf *err);

#endif /* IODIG_REPLAY_OPTS_H */
