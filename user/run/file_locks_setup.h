/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lockfile's locks for a run: one per file name among the workers whose
 * job asks for lockfile, so every worker doing I/O on a file of that
 * name (other jobs' included) takes the same one, as fio's file hash
 * shares a file's lock.
 */
#ifndef IODIG_FILE_LOCKS_SETUP_H
#define IODIG_FILE_LOCKS_SETUP_H

#include "base/errbuf.h"
#include "run/run.h"

/* Gives each such worker's files their locks (w->file_locks), anew after
 * any earlier call; nothing when no job has lockfile. */
int file_locks_setup(struct run_ctx *ctx, struct errbuf *err);
void file_locks_free(struct run_ctx *ctx);

#endif /* IODIG_FILE_LOCKS_SETUP_H */
