// SPDX-License-Identifier: GPL-2.0
/*
 * fio's setup_files without size=: each file of a job is as long as it
 * is (io_size = real_file_size - file_offset), so a directory of files
 * of different sizes is read whole, each file to its own end.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "run/listed_sizes.h"
#include "workload/engine.h"
#include "workload/files.h"

static int size_of(const struct job *job, unsigned int k, uint64_t offset,
		   uint64_t *bytes, struct errbuf *err)
{
	char path[4096];
	struct stat st;

	if (job_listed_file(job, k, path, sizeof(path)))
		return err_set(err, ENAMETOOLONG, "%s:%d: job '%s': the path of its file %u is too long",
			       job->source, job->source_line, job->name, k);
	if (stat(path, &st))
		return err_set(err, errno, "%s:%d: job '%s': %s: %s; set size= so iodig can create its files",
			       job->source, job->source_line, job->name, path,
			       strerror(errno));
	if (!S_ISREG(st.st_mode))
		return err_set(err, EINVAL, "%s:%d: job '%s': %s is not a regular file: with several files, set size= or filesize=",
			       job->source, job->source_line, job->name, path);
	if ((uint64_t)st.st_size <= offset)
		return err_set(err, EINVAL, "%s:%d: job '%s': offset %llu is beyond the end of %s (%llu bytes)",
			       job->source, job->source_line, job->name,
			       (unsigned long long)offset, path,
			       (unsigned long long)st.st_size);
	*bytes = (uint64_t)st.st_size - offset;
	return 0;
}

int listed_sizes_resolve(const struct job *job, struct job_target *t,
			 uint64_t offset, struct errbuf *err)
{
	uint64_t *sizes;
	int ret = 0;

	/* fio's own names (nrfiles) are files iodig makes, so they need a
	 * size; null and the file operations reach file k at k * filesize */
	if (t->per_clone_files || !job->filename[0] ||
	    !(job->engine->flags & ENGINE_UNIT_FD) || job_engine_takes_files(job))
		return err_set(err, EINVAL, "%s:%d: job '%s': nrfiles=%u needs size= or filesize=",
			       job->source, job->source_line, job->name,
			       t->nr_files);
	sizes = calloc(t->nr_files, sizeof(*sizes));
	if (!sizes)
		return err_set(err, ENOMEM, "out of memory for %u file sizes", t->nr_files);
	t->region_len = 0;
	t->file_size = UINT64_MAX;
	for (unsigned int k = 0; k < t->nr_files && !ret; k++) {
		ret = size_of(job, k, offset, &sizes[k], err);
		t->region_len += sizes[k];
		if (sizes[k] < t->file_size)
			t->file_size = sizes[k];
	}
	if (ret) {
		free(sizes);
		return ret;
	}
	t->file_sizes = sizes;
	return 0;
}

void listed_sizes_free(struct run_ctx *ctx)
{
	for (size_t j = 0; ctx->targets && j < ctx->jobs.count; j++) {
		free(ctx->targets[j].file_sizes);
		ctx->targets[j].file_sizes = NULL;
	}
}
