/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsync=, fdatasync=, end_fsync, fsync_on_close (fio's DDIR_SYNC and
 * DDIR_DATASYNC): when a sync is due, counted as fio's should_fsync and
 * get_rw_ddir count it, and the sync itself.  The I/O loop drains what is
 * in flight, then the engine syncs (its sync_file: io_uring's
 * IORING_OP_FSYNC) or the worker calls fsync(2)/fdatasync(2), as fio's
 * sync engines (do_io_u_sync) and libaio do.
 */
#ifndef IODIG_FILE_SYNC_H
#define IODIG_FILE_SYNC_H

#include <stdbool.h>
#include <stdint.h>

#include "base/errbuf.h"
#include "workload/engine.h"
#include "workload/job.h"

struct worker;

struct file_sync {
	uint64_t writes;     /* writes issued (fio's io_issues[DDIR_WRITE]) */
	int fd;              /* the file of the last write */
	unsigned int file;   /* its index among the job's files */
	bool last_was_sync;  /* fio never syncs twice in a row */
};

enum file_sync_kind { FILE_SYNC_NONE, FILE_SYNC_FSYNC, FILE_SYNC_FDATASYNC };

void file_sync_init(struct file_sync *s, int fd);
/* Notes an I/O handed to the engine. */
void file_sync_issued(struct file_sync *s, const struct io_unit *u);
/* The sync due before the next I/O of @job (fio checks fsync= first). */
enum file_sync_kind file_sync_due(const struct file_sync *s, const struct job *job);
/* Does the due sync of kind @k on the last write's file, through @e
 * when it syncs: 0 or -errno. */
int file_sync_run(struct file_sync *s, struct worker *w,
		  const struct engine_ops *e, enum file_sync_kind k);
/* end_fsync, fsync_on_close: an fsync of each of @w's files once a
 * writing job's I/O is over (fio counts these nowhere): 0 or -errno. */
int file_sync_at_end(struct worker *w, const struct engine_ops *e);

/* fsync=/fdatasync= where iodig syncs as fio does: with a synchronous
 * engine, libaio (fio's drains first too) or at iodepth=1.  fio's
 * io_uring and posixaio queue the sync beside the writes in flight and
 * issue a number of syncs that depends on the timing: refused. */
int file_sync_check_job(const struct job *job, const char *where,
			struct errbuf *err);

#endif /* IODIG_FILE_SYNC_H */
