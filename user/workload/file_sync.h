/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fsync=, fdatasync=, sync_file_range=, end_fsync, fsync_on_close (fio's
 * DDIR_SYNC, DDIR_DATASYNC and DDIR_SYNC_FILE_RANGE): when a sync is due,
 * by fio 3.33's rule (get_rw_ddir,
 * should_fsync, io_completed), and the sync itself when the worker does
 * it.  The rule: before each new I/O, a sync is due when the writes
 * issued are a multiple of N and the last I/O *completed* was not a sync.
 * An engine that queues syncs (ENGINE_QUEUED_SYNC: io_uring, posixaio)
 * takes them as units beside the writes in flight, so until a sync's
 * completion is reaped every free slot may get another: how many depends
 * on the order completions arrive in.  Any other engine syncs with the
 * writes in flight left alone, by its sync_file or fsync(2)/fdatasync(2),
 * as fio's sync engines (do_io_u_sync) and libaio do.
 * sync_file_range= syncs the range of the file written since its last
 * sync completed (fio's first_write, last_write: from the lowest offset
 * to the highest end of the writes completed since), and with nothing
 * written makes no call, as fio's do_sync_file_range.
 */
#ifndef IODIG_FILE_SYNC_H
#define IODIG_FILE_SYNC_H

#include <stdbool.h>
#include <stdint.h>

#include "base/errbuf.h"
#include "workload/engine.h"
#include "workload/job.h"

struct worker;

/* Bytes of a file written since its last sync: [first, end); first is
 * UINT64_MAX when none. */
struct written_range {
	uint64_t first, end;
};

struct file_sync {
	uint64_t writes;     /* writes issued (fio's io_issues[DDIR_WRITE]) */
	int fd;              /* the last write's file, or the sync's */
	unsigned int file;   /* its index among the job's files */
	bool last_was_sync;  /* the last I/O completed was a sync */
	bool aimed;          /* the sync due has its file (file_sync_aim()),
			      * until it is sent */
	/* sync_file_range=: each file's written range; NULL without */
	struct written_range *written;
	unsigned int nr_files;
};

/* For @job's @nr_files files, the first of them @fd: 0 or -ENOMEM. */
int file_sync_init(struct file_sync *s, int fd, const struct job *job,
		   unsigned int nr_files);
void file_sync_free(struct file_sync *s);
/* The system call of sync @k, for messages: "fsync" ... */
const char *io_sync_name(enum io_sync k);
/* Notes an I/O handed to the engine. */
void file_sync_issued(struct file_sync *s, const struct io_unit *u);
/* Notes an I/O completed, sync or not, failed or not (as fio's
 * io_completed sets last_was_sync before it looks at errors). */
void file_sync_completed(struct file_sync *s, const struct io_unit *u);
/* The sync due before the next I/O of @job (fio checks fsync= first). */
enum io_sync file_sync_due(const struct file_sync *s, const struct job *job);
/* Several files: the sync due goes to file @file (@fd), the one fio's
 * get_next_file gives it as to an I/O, not the last write's; until it
 * is sent, a sync after it takes its own file as fio's next io_u does. */
void file_sync_aim(struct file_sync *s, int fd, unsigned int file);
/* The sync due went to the engine (file_sync_run() notes its own). */
void file_sync_sent(struct file_sync *s);
/* A new loop (fio's reset_io_counters): the write count goes on, but
 * the next I/O follows no sync, and a sync due takes its file anew. */
void file_sync_new_loop(struct file_sync *s);
/* Makes @u the due sync @k of its file (file_sync_aim()'s or the last
 * write's), for the engine's
 * queue() (ENGINE_QUEUED_SYNC); IO_SYNC_FILE_RANGE's range in its offset
 * and len (fio's io_uring: the offset UINT64_MAX and len 0 when empty). */
void file_sync_fill(const struct file_sync *s, struct io_unit *u, enum io_sync k);
/* Does the due sync of kind @k on the last write's file, through @e
 * when it syncs, and waits for it: 0 or -errno. */
int file_sync_run(struct file_sync *s, struct worker *w,
		  const struct engine_ops *e, enum io_sync k);
/* A sync read_iolog's log asks for, of @w's file @file, through @e as
 * file_sync_run: 0 or -errno. */
int file_sync_replayed(struct worker *w, const struct engine_ops *e,
		       unsigned int file, bool datasync);
/* end_fsync, fsync_on_close: an fsync of each of @w's files once a
 * writing job's I/O is over (fio counts these nowhere): 0 or -errno. */
int file_sync_at_end(struct worker *w, const struct engine_ops *e);

/* fsync=/fdatasync=/sync_file_range= where iodig syncs as fio does: a synchronous engine,
 * libaio, an engine that queues syncs, or iodepth=1; refused otherwise. */
int file_sync_check_job(const struct job *job, const char *where,
			struct errbuf *err);

#endif /* IODIG_FILE_SYNC_H */
