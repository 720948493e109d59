// SPDX-License-Identifier: GPL-2.0
/*
 * Each clone's start in one file its job's clones share, when offset=N%
 * or offset_increment=N% make it depend on the file's size: fio's
 * get_start_offset on the size each clone's setup sees.
 */
#include <errno.h>
#include <stdlib.h>

#include "run/clone_starts.h"

/* A job whose clones share one file that its layout may extend, with a
 * start that depends on that file's size. */
static bool shares_growing_file(const struct job *job, const struct job_target *t)
{
	const struct target_info *ti = &t->info;

	if (job->numjobs < 2 || !(job->offset_percent || job->offset_increment_percent))
		return false;
	if (t->per_clone_files || t->nr_files != 1 || t->sizes_per_clone || t->replay)
		return false;
	if (ti->is_blockdev || (ti->exists && !ti->is_regular))
		return false;
	/* these lay nothing out before the clones start (layout.c) */
	return !(job->engine->flags & ENGINE_DISKLESS) && job->zonemode != ZONEMODE_ZBD &&
	       !job->create_on_open && !job->fill_device && !job->file_append &&
	       job->allow_file_create;
}

/* fio's get_start_offset for @clone in a file of @size bytes. */
static uint64_t start_in(const struct job *job, const struct job_target *t,
			 uint64_t size, unsigned int clone)
{
	uint64_t raw = job->offset_percent ? percent_of(size, job->offset_percent) : job->offset;
	uint64_t incr = job->offset_increment_percent ?
			percent_of(size, job->offset_increment_percent) : job->offset_increment;
	uint64_t start = raw + clone * incr;

	return (start + t->clone_align - 1) / t->clone_align * t->clone_align;
}

/* Where @clone's region ends when it starts @shift past clone 0's: a
 * size= region moves with its start, one that runs to the file's end
 * (no size, or filesize=) does not. */
static uint64_t region_end(const struct job_target *t, uint64_t shift)
{
	return t->region_start + t->file_size + (t->to_end || t->filesize_bound ? 0 : shift);
}

int clone_starts_resolve(const struct job *job, struct job_target *t,
			 struct errbuf *err)
{
	uint64_t size = t->info.exists ? t->info.size : 0, start, end;
	struct clone_start *cs;

	if (!shares_growing_file(job, t) || !t->clone_align)
		return 0;
	cs = calloc(job->numjobs, sizeof(*cs));
	if (!cs)
		return err_set(err, ENOMEM, "out of memory for %u clones' offsets", job->numjobs);
	for (unsigned int i = 0; i < job->numjobs; i++) {
		unsigned int c = job_clone_at(job->numjobs, i);

		start = start_in(job, t, size, c);
		/* clone 0 is set up first, on the size region_start took */
		cs[c].shift = start > t->region_start ? start - t->region_start : 0;
		end = region_end(t, cs[c].shift);
		if (end > size)
			size = end;
		cs[c].file_size = size;
	}
	t->clone_starts = cs;
	return 0;
}

uint64_t clone_starts_file_end(const struct job *job, const struct job_target *t)
{
	uint64_t end = 0;

	for (unsigned int c = 0; t->clone_starts && c < job->numjobs; c++)
		if (t->clone_starts[c].file_size > end)
			end = t->clone_starts[c].file_size;
	return end;
}

void clone_starts_free(struct run_ctx *ctx)
{
	for (size_t j = 0; ctx->targets && j < ctx->jobs.count; j++) {
		free(ctx->targets[j].clone_starts);
		ctx->targets[j].clone_starts = NULL;
	}
}
