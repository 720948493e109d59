/* SPDX-License-Identifier: GPL-2.0 */
/*
 * offset=N% and offset_increment=N% of one file a job's clones share: fio
 * sets the clones up one after the other, each taking its share of the
 * file as the clones before it laid it out.
 */
#ifndef IODIG_CLONE_STARTS_H
#define IODIG_CLONE_STARTS_H

#include "base/errbuf.h"
#include "run/run.h"

/*
 * fio's setup_files runs clone by clone in thread order (0, then N-1 down
 * to 1; create_serialize) before any starts: each reads the file's size
 * then, takes its offset and increment as percentages of it and extends
 * the file to its region's end.  So a later clone starts further in, and
 * the file ends larger, than one size for all gives.  Fills
 * t->clone_starts for such a job (region_start and file_size resolved
 * for clone 0) and leaves it NULL for any other.
 */
int clone_starts_resolve(const struct job *job, struct job_target *t,
			 struct errbuf *err);
/* Where the shared file ends once every clone has laid it out. */
uint64_t clone_starts_file_end(const struct job *job, const struct job_target *t);
/* Frees every target's clone_starts. */
void clone_starts_free(struct run_ctx *ctx);

#endif /* IODIG_CLONE_STARTS_H */
