// SPDX-License-Identifier: GPL-2.0
/*
 * fio 3.33's get_rand_file_size: per file, LOW plus the span times a
 * 32-bit draw over 2^32, rounded down to the job's smallest block size,
 * from a generator of each clone's own (FRAND_FILE_SIZE).  A clone draws
 * its files in order, so the sizes repeat run to run as fio's do; files
 * the clones share (filename=) have the first clone's sizes, as in fio.
 */
#include <errno.h>
#include <stdlib.h>

#include "base/clock.h"
#include "run/filesize_range.h"
#include "workload/fio_rand.h"

/* fio's setup_random_seeds: randseed unless randrepeat=0 without one. */
static struct frand_base size_seed_base(const struct job *job)
{
	bool repeatable = job->randrepeat || job->randseed_set ||
			  job->allrandrepeat;

	return (struct frand_base){
		.randseed = repeatable ? job->randseed : now_ns(),
		.allrand = job->allrandrepeat,
	};
}

static uint32_t min_block_size(const struct job *job)
{
	uint32_t bs = job->bs_min[0];

	for (int d = 1; d < DDIR_COUNT; d++)
		if (job->bs_min[d] < bs)
			bs = job->bs_min[d];
	return bs ? bs : 1;
}

static uint64_t draw_size(const struct job *job, struct frand *r,
			  uint32_t min_bs)
{
	uint64_t span = job->filesize_high - job->filesize;
	uint64_t size = (uint64_t)((double)span *
				   ((double)(uint32_t)frand_next(r) / 4294967296.0));

	size += job->filesize;
	return size - size % min_bs;
}

uint64_t clone_region_len(const struct job_target *t, unsigned int c)
{
	uint64_t sum = 0;

	for (unsigned int k = 0; k < t->nr_files; k++)
		sum += t->file_sizes[c * t->nr_files + k];
	return sum;
}

int filesize_range_draw(const struct job *job, struct job_target *t,
			unsigned int first_thread, struct errbuf *err)
{
	struct frand_base base = size_seed_base(job);
	uint32_t min_bs = min_block_size(job);
	unsigned int clones = job->numjobs ? job->numjobs : 1;
	uint64_t *sizes = calloc((size_t)clones * t->nr_files, sizeof(*sizes));

	if (!sizes)
		return err_set(err, ENOMEM, "out of memory for %u file sizes",
			       clones * t->nr_files);
	t->file_sizes = sizes;
	t->sizes_per_clone = true;
	t->file_size = UINT64_MAX;
	t->region_len = UINT64_MAX;
	for (unsigned int c = 0; c < clones; c++) {
		struct frand r;

		frand_seed(&r, frand_job_seed(base, first_thread +
					      job_clone_at(clones, c),
					      FRAND_FILE_SIZE), false);
		for (unsigned int k = 0; k < t->nr_files; k++) {
			/* files the clones share keep the first clone's sizes */
			uint64_t size = t->per_clone_files || !c ?
					draw_size(job, &r, min_bs) : sizes[k];

			sizes[c * t->nr_files + k] = size;
			if (size < t->file_size)
				t->file_size = size;
		}
		if (clone_region_len(t, c) < t->region_len)
			t->region_len = clone_region_len(t, c);
	}
	return 0;
}
