/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filesize=LOW-HIGH: each file of each clone a random size in the range,
 * drawn as fio 3.33 draws it.
 */
#ifndef IODIG_FILESIZE_RANGE_H
#define IODIG_FILESIZE_RANGE_H

#include "base/errbuf.h"
#include "run/run.h"

/* Draws the sizes of @t's files for each of @job's clones, clone 0
 * numbered @first_thread and the others in fio's order (job_clone_at):
 * t->file_sizes[c * t->nr_files + k] is clone c's
 * file k; t->file_size the smallest, t->region_len the smallest clone's
 * total (each clone's own is clone_region_len()).  Files the clones
 * share (filename=) have the first clone's sizes in every clone's slots. */
int filesize_range_draw(const struct job *job, struct job_target *t,
			unsigned int first_thread, struct errbuf *err);
/* The bytes of clone @c's files of @t. */
uint64_t clone_region_len(const struct job_target *t, unsigned int c);

#endif /* IODIG_FILESIZE_RANGE_H */
