/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A read_iolog job before anything runs: its log read and its target
 * made from it.  The target it is redirected to (--target, or
 * replay_redirect) is inspected before the log is read, so a missing
 * target is what is reported first, as for any job.
 */
#ifndef IODIG_REPLAY_PREPARE_H
#define IODIG_REPLAY_PREPARE_H

#include "base/errbuf.h"
#include "run/run.h"

/* @t->path is the redirect ("" for none: the log's own files).  Reads
 * the log into @t->replay; names the job's files after the log's (unless
 * redirected), takes its directions and block sizes from the log (fio's
 * read_iolog sets td_ddir and max_bs so), and inspects and write-guards
 * each file.  Nothing is laid out: fio lays out nothing for a replay.
 * 0 or -errno with the reason in @err. */
int replay_prepare(const struct run_ctx *ctx, struct job *job,
		   struct job_target *t, struct errbuf *err);
/* Frees the logs of @ctx's targets. */
void replay_targets_free(struct run_ctx *ctx);

#endif /* IODIG_REPLAY_PREPARE_H */
