/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which clones of a job fio 3.33's setup_files sets up, and why not the
 * others: it sets the clones up one after the other before any runs, so
 * a clone's start past its files' end fails it alone or leaves it
 * nothing to do, as the files are when its turn comes.
 */
#ifndef IODIG_CLONE_SETUP_H
#define IODIG_CLONE_SETUP_H

#include "base/errbuf.h"
#include "run/run.h"

/*
 * Decides each clone of @job (its region, shifts and clone_starts
 * resolved) for a job whose clones' regions end with their files
 * (filesize=, or no size on a file there); t->clone_setups stays NULL
 * when every clone is set up.
 */
int clone_setup_resolve(const struct job *job, struct job_target *t,
			struct errbuf *err);
/* What fio's setup_files does with clone @clone of @t's job. */
enum clone_setup target_clone_setup(const struct job_target *t, unsigned int clone);
/* Frees every target's clone_setups. */
void clone_setup_free(struct run_ctx *ctx);

#endif /* IODIG_CLONE_SETUP_H */
