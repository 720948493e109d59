// SPDX-License-Identifier: GPL-2.0
/*
 * Which clones fio 3.33's setup_files sets up (run/clone_setup.h): it
 * takes each file's size as it finds it when that size lies within
 * filesize= (an earlier clone or job may have laid the file out), the
 * size filesize= gives otherwise, and a start past that size fails the
 * clone ("you need to specify valid offset="), or, past a size it found,
 * leaves it an io_size that wraps and no I/O.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "base/mem.h"
#include "run/clone_setup.h"
#include "workload/files.h"

/* File @k of clone @c before the run: the target's own size as earlier
 * jobs' layouts leave it, or what another path holds now. */
static uint64_t size_before(const struct job *job, const struct job_target *t,
			    unsigned int c, unsigned int k)
{
	char path[4096];
	struct stat st;
	int ret;

	if (job->engine->flags & ENGINE_DISKLESS) /* fio's real_file_size -1 */
		return UINT64_MAX;
	if (!k && (!c || !t->per_clone_files))
		return t->info.exists ? t->info.size : 0;
	ret = t->per_clone_files ? job_file_name(job, c, k, path, sizeof(path)) :
	      job_listed_file(job, k, path, sizeof(path));
	if (ret || stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	return (uint64_t)st.st_size;
}

/* ... when clone @c's setup comes: a shared file clone 0 laid out, set
 * up first (fio's thread order), is as large as clone 0's region made it. */
static uint64_t size_at_setup(const struct job *job, const struct job_target *t,
			      unsigned int c, unsigned int k)
{
	uint64_t size = size_before(job, t, c, k), laid;

	if (!c || t->per_clone_files || target_clone_setup(t, 0) != CLONE_SET_UP)
		return size;
	if (t->clone_starts) /* as the clones before it in that order left it */
		return t->clone_starts[c + 1 < job->numjobs ? c + 1 : 0].file_size;
	laid = t->region_start + (t->file_sizes ? t->file_sizes[k] : t->file_size);
	return laid > size ? laid : size;
}

/* A start past filesize=: fio takes a file's size as it finds it when
 * it lies within filesize='s range, and fails the clone otherwise. */
static enum clone_setup past_filesize(const struct job *job, const struct job_target *t,
				      unsigned int c, uint64_t start)
{
	uint64_t high = job->filesize_high ? job->filesize_high : job->filesize;
	uint64_t size, most = 0;

	for (unsigned int k = 0; k < t->nr_files; k++) {
		size = size_at_setup(job, t, c, k);
		if (size < job->filesize || size > high)
			return CLONE_BAD_OFFSET;
		if (size > most)
			most = size;
	}
	if (start < most) /* a range's file found larger than the start */
		return CLONE_SET_UP;
	return start > most ? CLONE_PAST_END : CLONE_NO_ROOM;
}

static enum clone_setup decide(const struct job *job, const struct job_target *t,
			       unsigned int c)
{
	uint64_t start = t->region_start + target_clone_shift(job, t, c);

	if (!job->file_append && job->filesize && start > job->filesize)
		return past_filesize(job, t, c, start);
	/* no size: the file's own, without a range to take another */
	if (!job->file_append && t->to_end && start > t->info.size)
		return CLONE_BAD_OFFSET;
	return target_clone_has_room(job, t, c) ? CLONE_SET_UP : CLONE_NO_ROOM;
}

int clone_setup_resolve(const struct job *job, struct job_target *t,
			struct errbuf *err)
{
	unsigned int n = job->numjobs ? job->numjobs : 1;
	enum clone_setup *setups;
	bool all = true;

	setups = calloc(n, sizeof(*setups));
	if (!setups)
		return err_set(err, ENOMEM, "out of memory for %u clones", n);
	t->clone_setups = setups;
	/* clone 0 first: the others may find its layout */
	for (unsigned int c = 0; c < n; c++) {
		setups[c] = decide(job, t, c);
		all = all && setups[c] == CLONE_SET_UP;
	}
	if (all)
		FREE_AND_NULL(t->clone_setups);
	return 0;
}

enum clone_setup target_clone_setup(const struct job_target *t, unsigned int clone)
{
	return t->clone_setups ? t->clone_setups[clone] : CLONE_SET_UP;
}

void clone_setup_free(struct run_ctx *ctx)
{
	for (size_t j = 0; ctx->targets && j < ctx->jobs.count; j++)
		FREE_AND_NULL(ctx->targets[j].clone_setups);
}
