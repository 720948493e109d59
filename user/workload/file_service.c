// SPDX-License-Identifier: GPL-2.0
/*
 * fio's file_service_type (io_u.c get_next_file): the file in service
 * keeps the next file_service_nr I/Os; then roundrobin takes the next
 * file, random any, and sequential stays until the file is done.  A file
 * where a fill found no I/O is skipped until every file is done, when a
 * new pass starts (time_based, io_size past size, loops).  Each file
 * keeps its own offsets (fio's per-fio_file last_pos[] of each
 * direction, random map, lfsr), so a mixed job's reads and writes each
 * go on from where that direction last was in that file.
 */
#include <errno.h>
#include <stdlib.h>

#include "workload/file_service.h"

/* Random offsets step by the smallest block size the job uses. */
static uint32_t min_active_bs(const struct job *job)
{
	uint32_t m = UINT32_MAX;

	for (int d = 0; d < DDIR_COUNT; d++)
		if (rw_has_dir(job->rw, (enum ddir)d) && job->bs_min[d] < m)
			m = job->bs_min[d];
	return m;
}

int file_service_init(struct file_picker *fs, const struct job *job,
		      unsigned int nr, uint64_t file_size,
		      const uint64_t *sizes, bool passes,
		      struct offsets *draws, struct frand_base seed_base,
		      unsigned int thread_number)
{
	*fs = (struct file_picker){ .nr = nr, .granule = min_active_bs(job),
				    .passes = passes, .pass = 1 };
	fs->files = calloc(nr, sizeof(*fs->files));
	if (!fs->files)
		return -ENOMEM;
	/* fio seeds next_file_state from its FIO_RAND_FILE_OFF seed */
	fs->pick_seed = frand_job_seed(seed_base, thread_number, FRAND_FILE);
	frand_seed(&fs->pick, fs->pick_seed,
		   job->random_generator == RGEN_TAUSWORTHE64);
	for (unsigned int k = 0; k < nr; k++) {
		struct file_cursor *c = &fs->files[k];
		int ret;

		c->size = sizes ? sizes[k] : file_size;
		/* a file smaller than a block is done from the start: its
		 * offsets are never drawn */
		if (c->size < fs->granule)
			continue;
		/* fio 3.33's get_next_seq_offset wraps a time_based job's
		 * position in place only when it has one file; with more
		 * the file is done at its end, and a new pass follows */
		ret = offsets_init(&c->offs, job, c->size, c->size,
				   job->time_based && nr == 1, seed_base, thread_number);
		if (ret) {
			file_service_free(fs);
			return ret;
		}
		offsets_share_draws(&c->offs, draws);
	}
	return 0;
}

/* Whether file @k has no I/O left this pass: found done already, or
 * too small for a block.  Otherwise it has room until a fill finds no
 * offset or length there, in the direction drawn for it (a mixed job's
 * reads may be at the file's end while its writes are not), so only
 * that finds it done, as in fio. */
static bool file_done(const struct file_picker *fs, unsigned int k)
{
	const struct file_cursor *c = &fs->files[k];

	return c->done || c->size < fs->granule;
}

/* fio finds a file done where a fill on it fails, and closes it there
 * (set_io_u_file): below openfiles that frees a place.  A pick passing
 * over a file with no I/O left is such a fill, and draws a direction. */
static bool found_done(struct file_picker *fs, unsigned int k)
{
	if (!file_done(fs, k))
		return false;
	if (!fs->files[k].done)
		file_service_found_done(fs, k);
	return true;
}

void file_service_found_done(struct file_picker *fs, unsigned int k)
{
	struct file_cursor *c = &fs->files[k];

	c->done = true;
	fs->found++;
	if (fs->of)
		open_files_done(fs->of, k);
}

void file_service_new_pass(struct file_picker *fs)
{
	fs->pass++;
	fs->pass_due = false;
	/* fio closes the files and opens them again: the new pass starts
	 * as the first did, not from the file in service, roundrobin and
	 * sequential from the file after the last one picked */
	fs->started = false;
	/* fio's fio_file_reset as each file opens again: every direction
	 * from the file's start, every block unvisited */
	for (unsigned int k = 0; k < fs->nr; k++) {
		fs->files[k].done = false;
		offsets_reset(&fs->files[k].offs);
	}
}

void file_service_reseed(struct file_picker *fs)
{
	frand_seed(&fs->pick, fs->pick_seed, fs->pick.use64);
}

/* fio's __get_next_fileno_rand: the draw scaled to the file count. */
static unsigned int draw_file(struct file_picker *fs)
{
	double unit = (double)frand_next(&fs->pick) /
		      (fs->pick.use64 ? 18446744073709551616.0 : 4294967296.0);

	return (unsigned int)((double)fs->nr * unit);
}

static bool any_holds_block(const struct file_picker *fs)
{
	for (unsigned int k = 0; k < fs->nr; k++)
		if (fs->files[k].size >= fs->granule)
			return true;
	return false;
}

static bool all_done(const struct file_picker *fs)
{
	for (unsigned int k = 0; k < fs->nr; k++)
		if (!file_done(fs, k))
			return false;
	return true;
}

unsigned int file_service_pick(struct file_picker *fs, const struct job *job)
{
	bool seq = job->file_service == FILE_SERVICE_SEQUENTIAL;
	unsigned int k = fs->cur;
	/* after fio's EBUSY its round robin goes on past the file it
	 * could not open */
	bool step = fs->busy;

	fs->busy = false;
	if (!fs->started) { /* the first file: fio's next_file, or any */
		fs->started = true;
		k = job->file_service == FILE_SERVICE_RANDOM ? draw_file(fs) : fs->next;
		goto chosen;
	}
	/* the file in service stays for file_service_nr I/Os, or with
	 * sequential until it is found done */
	if (!step && (fs->left || seq) && !found_done(fs, k)) {
		if (fs->left)
			fs->left--;
		return k;
	}
	if (all_done(fs)) {
		/* fio tried each file still open before it saw none left */
		for (unsigned int i = 1; i <= fs->nr; i++)
			found_done(fs, (k + i) % fs->nr);
		/* fio's do_io ends there; with passes to go keep_running
		 * starts a new loop (the caller's), unless no file holds a
		 * block */
		fs->pass_due = fs->passes && any_holds_block(fs);
		return fs->nr;
	}
	/* fio draws (or steps) until a file not done comes up */
	do {
		if (job->file_service == FILE_SERVICE_RANDOM)
			k = draw_file(fs);
		else if (!seq || file_done(fs, k) || step)
			k = (k + 1) % fs->nr;
	} while (found_done(fs, k));
chosen:
	fs->cur = k;
	fs->next = (k + 1) % fs->nr;
	fs->left = job->file_service_nr ? job->file_service_nr - 1 : 0;
	if (fs->of && open_files_blocked(fs->of, k)) {
		fs->left = 0;
		fs->busy = true;
		return fs->nr;
	}
	return k;
}

bool file_service_offset(struct file_picker *fs, unsigned int k, enum ddir d,
			 uint64_t *rel_out, uint64_t *room)
{
	struct file_cursor *c = &fs->files[k];
	uint64_t rel;

	/* fio: a file with no offset left is done and closed; one smaller
	 * than a block never had one */
	if (c->size < fs->granule ||
	    !offsets_next(&c->offs, d, &rel, &fs->random_io))
		return false;
	fs->ddir = d;
	*rel_out = rel;
	*room = c->size - rel;
	return true;
}

uint32_t file_service_take(struct file_picker *fs, unsigned int file,
			   uint64_t rel, uint32_t len)
{
	struct file_cursor *c = &fs->files[file];

	/* an I/O that cannot be filled there: the caller finds the file
	 * done (file_service_found_done) */
	if (!len || rel + len > c->size)
		return 0;
	/* the direction's position moves past it; the random map takes
	 * the blocks it covers and cuts it at the first one done already,
	 * as fio's mark_random_map */
	return offsets_take(&c->offs, fs->ddir, rel, len, fs->random_io);
}

void file_service_free(struct file_picker *fs)
{
	for (unsigned int k = 0; fs->files && k < fs->nr; k++)
		offsets_free(&fs->files[k].offs);
	free(fs->files);
	fs->files = NULL;
}
