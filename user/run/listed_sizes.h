/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The files filename= (or opendir=) lists, sized as fio sizes them when
 * the job gives no size= or filesize=: each by its own size.
 */
#ifndef IODIG_LISTED_SIZES_H
#define IODIG_LISTED_SIZES_H

#include "base/errbuf.h"
#include "run/run.h"

/* Sizes @t's t->nr_files listed files of @job, none sized by the job:
 * t->file_sizes[k] is file k's bytes past @offset (fio's real_file_size
 * - file_offset), t->region_len their sum and t->file_size the smallest.
 * Each must be an existing regular file reaching past @offset, and the
 * job's engine one that does its I/O over several files; otherwise the
 * error says to give size=. */
int listed_sizes_resolve(const struct job *job, struct job_target *t,
			 uint64_t offset, struct errbuf *err);
/* Frees every target's file_sizes. */
void listed_sizes_free(struct run_ctx *ctx);

#endif /* IODIG_LISTED_SIZES_H */
