// SPDX-License-Identifier: GPL-2.0
/*
 * fio's file_service_type (io_u.c get_next_file): the file in service
 * keeps the next file_service_nr I/Os; then roundrobin takes the next
 * file, random any, and sequential stays until the file is done.  A file
 * whose bytes for this pass are issued is skipped until every file is
 * done, when a new pass starts (time_based).
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
		      const uint64_t *sizes, bool passes)
{
	uint32_t granule = min_active_bs(job);

	*fs = (struct file_picker){ .nr = nr, .granule = granule,
				    .passes = passes,
				    .endless = rw_is_random(job->rw) && job->norandommap };
	fs->files = calloc(nr, sizeof(*fs->files));
	if (!fs->files)
		return -ENOMEM;
	for (unsigned int k = 0; k < nr; k++) {
		int ret;

		fs->files[k].size = sizes ? sizes[k] : file_size;
		ret = offset_gen_init(&fs->files[k].gen, fs->files[k].size / granule,
				      rw_is_random(job->rw), !job->norandommap);
		if (ret) {
			file_service_free(fs);
			return ret;
		}
	}
	return 0;
}

/* fio's file is done when its next I/O would pass its end: no room for
 * another block of the smallest size.  Random offsets without a map
 * always find room, so fio never finds such a file done (only a length
 * that does not fit makes it so): the job's size ends the job, on the
 * files the service reached. */
static bool file_done(const struct file_picker *fs, unsigned int k)
{
	if (fs->files[k].no_fit)
		return true;
	return !fs->endless && fs->files[k].issued + fs->granule > fs->files[k].size;
}


void file_service_new_pass(struct file_picker *fs)
{
	for (unsigned int k = 0; k < fs->nr; k++) {
		fs->files[k].issued = 0;
		fs->files[k].no_fit = false;
		fs->files[k].found_done = false;
	}
}

static bool all_done(const struct file_picker *fs)
{
	for (unsigned int k = 0; k < fs->nr; k++)
		if (!file_done(fs, k))
			return false;
	return true;
}

/* fio finds a file done when no I/O fits it any more, and closes it
 * there (set_io_u_file): below openfiles that frees a place. */
static bool found_done(struct file_picker *fs, unsigned int k)
{
	struct file_cursor *c = &fs->files[k];

	if (!file_done(fs, k))
		return false;
	if (!c->found_done) {
		c->found_done = true;
		fs->found++;
		if (fs->of)
			open_files_done(fs->of, k);
	}
	return true;
}

/* The file of the next I/O; fs->nr once every file is done and no new
 * pass may start, or with fs->busy when the file may not open yet. */
static unsigned int pick_file(struct file_picker *fs, const struct job *job,
			      struct rng *r)
{
	bool seq = job->file_service == FILE_SERVICE_SEQUENTIAL;
	unsigned int k = fs->cur;
	/* after fio's EBUSY its round robin goes on past the file it
	 * could not open */
	bool step = fs->busy;

	fs->busy = false;
	if (!fs->started) { /* the first file: fio's first, or any */
		fs->started = true;
		k = job->file_service == FILE_SERVICE_RANDOM ?
		    (unsigned int)rng_below(r, fs->nr) : 0;
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
		for (unsigned int i = 1; i <= fs->nr; i++)
			found_done(fs, (k + i) % fs->nr);
		if (!fs->passes)
			return fs->nr; /* fio's job ends there */
		file_service_new_pass(fs);
		goto chosen; /* from the file in service */
	}
	/* fio draws (or steps) until a file not done comes up */
	do {
		if (job->file_service == FILE_SERVICE_RANDOM)
			k = (unsigned int)rng_below(r, fs->nr);
		else if (!seq || file_done(fs, k) || step)
			k = (k + 1) % fs->nr;
	} while (found_done(fs, k));
chosen:
	fs->cur = k;
	fs->left = job->file_service_nr ? job->file_service_nr - 1 : 0;
	if (fs->of && open_files_blocked(fs->of, k)) {
		fs->left = 0;
		fs->busy = true;
		return fs->nr;
	}
	return k;
}

bool file_service_next(struct file_picker *fs, const struct job *job,
		       struct rng *r, unsigned int *file, uint64_t *rel_out,
		       uint64_t *room)
{
	struct file_cursor *c;
	uint64_t rel;
	unsigned int k;

	fs->found = 0;
	k = pick_file(fs, job, r);

	if (k == fs->nr)
		return false;
	c = &fs->files[k];

	if (rw_is_random(job->rw)) {
		rel = offset_gen_next(&c->gen, r) * fs->granule;
	} else {
		if (c->seq + fs->granule > c->size)
			c->seq = 0;
		rel = c->seq;
	}
	*file = k;
	*rel_out = rel;
	*room = c->size - rel;
	return true;
}

uint32_t file_service_take(struct file_picker *fs, unsigned int file,
			   uint64_t rel, uint32_t len)
{
	struct file_cursor *c = &fs->files[file];

	if (!len || rel + len > c->size) {
		/* fio's set_io_u_file: an I/O that cannot be filled there
		 * marks the file done; its next pass starts at its start */
		c->issued = c->size;
		c->no_fit = true;
		c->found_done = true;
		c->seq = 0;
		return 0;
	}
	if (c->gen.random) {
		/* the random map takes the blocks the I/O covers, and cuts it
		 * at the first one done already, as fio's mark_random_map */
		uint64_t n = offset_gen_cover(&c->gen, rel / fs->granule,
					      (len + fs->granule - 1) / fs->granule);

		if (n * fs->granule < len)
			len = (uint32_t)(n * fs->granule);
	}
	c->seq = rel + len;
	c->issued += len;
	return len;
}

void file_service_free(struct file_picker *fs)
{
	for (unsigned int k = 0; fs->files && k < fs->nr; k++)
		offset_gen_free(&fs->files[k].gen);
	free(fs->files);
	fs->files = NULL;
}
