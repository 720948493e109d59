/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's openfiles below the job's file count: at most @limit files open
 * at once.  As fio (io_u.c get_next_file, filesetup.c put_file), a file
 * opens when the file service first picks it, and closes once it is done,
 * or, with I/O of it still in flight, when the last of those completes
 * (fio's "closing" file, still counted open).  A pick of a closed file
 * while the limit is reached is fio's EBUSY: no I/O this time.  This is
 * the policy only; the worker does the open() and close() it asks for.
 */
#ifndef IODIG_OPEN_FILES_H
#define IODIG_OPEN_FILES_H

#include <stdbool.h>

enum open_file_state { OPEN_FILE_CLOSED, OPEN_FILE_OPEN, OPEN_FILE_CLOSING };

struct open_files {
	unsigned int nr;
	unsigned int limit;        /* openfiles */
	unsigned int nr_open;      /* open or closing: fio's nr_open_files */
	unsigned int *refs;        /* per file: I/Os taken, not completed */
	unsigned char *state;      /* per file: enum open_file_state */
	unsigned int *due;         /* files done, their close not yet seen to */
	unsigned int nr_due;
};

/* @nr files, all closed, at most @limit open.  -ENOMEM. */
int open_files_init(struct open_files *of, unsigned int nr, unsigned int limit);
void open_files_free(struct open_files *of);
/* fio's EBUSY: @k is not open and no other file may open now. */
bool open_files_blocked(const struct open_files *of, unsigned int k);
/* An I/O goes to @k: true when @k must be opened first (it counts as
 * open from now on). */
bool open_files_get(struct open_files *of, unsigned int k);
/* An I/O of @k completed: true when @k must be closed now. */
bool open_files_put(struct open_files *of, unsigned int k);
/* @k is found done, as fio finds it when no I/O fits it any more: when
 * open, it closes now or at its last completion (open_files_put), and
 * waits in the due list for the caller to see to it. */
void open_files_done(struct open_files *of, unsigned int k);
/* The next file open_files_done() closed (*@k): false when none is due;
 * *@close_now: no I/O holds it, its descriptor closes now. */
bool open_files_next_due(struct open_files *of, unsigned int *k, bool *close_now);

#endif /* IODIG_OPEN_FILES_H */
