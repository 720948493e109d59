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
/* @k is done for this pass: true when it must be closed now, else it
 * closes at its last completion (open_files_put). */
bool open_files_done(struct open_files *of, unsigned int k);
/* Between loops, with nothing in flight, fio closes every file: each
 * still open is forgotten (the caller closes its descriptor). */
void open_files_reset(struct open_files *of);

#endif /* IODIG_OPEN_FILES_H */
