/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's file_service_type over a job's files: which file the next I/O goes
 * to (roundrobin, sequential, random, each for file_service_nr I/Os), and
 * each file's own offsets (each direction's position, a random map), as
 * fio keeps them per fio_file.
 */
#ifndef IODIG_FILE_SERVICE_H
#define IODIG_FILE_SERVICE_H

#include <stdbool.h>
#include <stdint.h>

#include "workload/fio_rand.h"
#include "workload/job.h"
#include "workload/offsets.h"
#include "workload/open_files.h"

struct file_cursor {
	uint64_t size;           /* the file's bytes the job does I/O on */
	struct offsets offs;     /* the file's positions (each direction's),
				  * map and lfsr; the job's draws */
	/* fio's fio_file_done: a fill found no I/O there this pass (a
	 * random offset or a length), or a pick passed over it */
	bool done;
};

struct file_picker {
	struct file_cursor *files;
	unsigned int nr;
	unsigned int cur;        /* the file in service */
	unsigned int next;       /* fio's next_file: a new pass's first
				  * (roundrobin, sequential) */
	unsigned int left;       /* I/Os before the next switch */
	bool started;
	bool passes;             /* a new pass once every file is done */
	bool pass_due;           /* every file is done and a pass follows:
				  * the caller starts fio's new loop
				  * (file_service_new_pass among it) */
	unsigned int pass;       /* the pass under way, 1 the first */
	uint32_t granule;
	struct frand pick;       /* file_service_type=random's draws (fio's
				  * next_file_state) */
	uint64_t pick_seed;
	enum ddir ddir;          /* the last offset's direction, */
	bool random_io;          /* and whether it was a random one */
	/* openfiles below the files (NULL: all stay open): a pick of a
	 * file that may not open now is fio's EBUSY, busy set */
	struct open_files *of;
	bool busy;
	/* files found done since the caller last looked: fio tried to fill
	 * an I/O on each, drawing its direction (set_io_u_file) */
	unsigned int found;
};

/* @nr files of @file_size bytes each, or of @sizes[k] bytes when
 * @sizes is not NULL; @passes: once every file is done a new pass
 * starts (time_based, io_size beyond the files), else the job ends.
 * Random offsets and file choices are drawn as fio draws them, from
 * @draws (the job's offsets) and the seeds of @seed_base for
 * @thread_number. */
int file_service_init(struct file_picker *fs, const struct job *job,
		      unsigned int nr, uint64_t file_size,
		      const uint64_t *sizes, bool passes,
		      struct offsets *draws, struct frand_base seed_base,
		      unsigned int thread_number);
/* The file the next I/O, or a sync, goes to (fio's get_next_file, a
 * turn of file_service_nr); fs->nr when every file is done (with
 * fs->pass_due when a new pass follows), or with fs->busy when the file
 * picked may not open yet (fs->of).  Files it passes over with no I/O
 * left are found done (fs->found). */
unsigned int file_service_pick(struct file_picker *fs, const struct job *job);
/* The offset in file @k (*@rel) of the next I/O in direction @d and the
 * bytes from there to the file's end (*@room), what its length must fit
 * in, as fio draws the offset before the length; false when the file has
 * no offset left: the caller finds it done and fills the I/O again, as
 * fio's set_io_u_file. */
bool file_service_offset(struct file_picker *fs, unsigned int k, enum ddir d,
			 uint64_t *rel, uint64_t *room);
/* fio's set_io_u_file found file @k done (a fill failed there): done
 * for this pass, closed below openfiles, fs->found one more. */
void file_service_found_done(struct file_picker *fs, unsigned int k);
/* The I/O at @rel of @file is @len bytes: @len, or 0 when it is 0 or
 * passes the file's end (the caller finds the file done). */
uint32_t file_service_take(struct file_picker *fs, unsigned int file,
			   uint64_t rel, uint32_t len);
/* Every file not done again: a new pass (loops=, io_size, time_based). */
void file_service_new_pass(struct file_picker *fs);
/* randrepeat's new loop: the file choices from their seed again. */
void file_service_reseed(struct file_picker *fs);
void file_service_free(struct file_picker *fs);

#endif /* IODIG_FILE_SERVICE_H */
