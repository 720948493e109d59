/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's file_service_type over a job's files: which file the next I/O goes
 * to (roundrobin, sequential, random, each for file_service_nr I/Os), and
 * each file's own offsets (a sequential cursor, a random map), as fio
 * keeps them per fio_file.
 */
#ifndef IODIG_FILE_SERVICE_H
#define IODIG_FILE_SERVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/rng.h"
#include "workload/offset_map.h"
#include "workload/job.h"
#include "workload/open_files.h"

struct file_cursor {
	uint64_t seq;            /* next sequential offset in the file */
	uint64_t issued;         /* bytes issued this pass */
	uint64_t size;           /* the file's bytes the job does I/O on */
	bool no_fit;             /* an I/O found no room: done this pass */
	bool found_done;         /* fio found it done (a fill failed there) */
	struct offset_gen gen;   /* random offsets */
};

struct file_picker {
	struct file_cursor *files;
	unsigned int nr;
	unsigned int cur;        /* the file in service */
	unsigned int left;       /* I/Os before the next switch */
	bool started;
	bool passes;             /* a new pass once every file is done */
	bool endless;            /* random without a map: never done */
	uint32_t granule;
	/* openfiles below the files (NULL: all stay open): a pick of a
	 * file that may not open now is fio's EBUSY, *busy set */
	struct open_files *of;
	bool busy;
	/* files the last pick found done: fio tried to fill an I/O on each,
	 * drawing its direction (io_u.c set_io_u_file) */
	unsigned int found;
};

/* @nr files of @file_size bytes each, or of @sizes[k] bytes when
 * @sizes is not NULL; @passes: once every file is done a new pass
 * starts (time_based, io_size beyond the files), else the job ends. */
int file_service_init(struct file_picker *fs, const struct job *job,
		      unsigned int nr, uint64_t file_size,
		      const uint64_t *sizes, bool passes);
/* The next I/O's file (*@file), offset in it (*@rel) and the bytes
 * from there to the file's end (*@room), what its length must fit in, as
 * fio draws the offset before the length; false when every file is done
 * and no pass follows, or with fs->busy when the file picked may not
 * open yet (fs->of). */
bool file_service_next(struct file_picker *fs, const struct job *job,
		       struct rng *r, unsigned int *file, uint64_t *rel,
		       uint64_t *room);
/* The I/O at @rel of @file is @len bytes: @len, or 0 when it is 0 or
 * passes the file's end, which makes the file done for this pass. */
uint32_t file_service_take(struct file_picker *fs, unsigned int file,
			   uint64_t rel, uint32_t len);
/* Every file not done again: a new pass (loops=, io_size, time_based). */
void file_service_new_pass(struct file_picker *fs);
void file_service_free(struct file_picker *fs);

#endif /* IODIG_FILE_SERVICE_H */
