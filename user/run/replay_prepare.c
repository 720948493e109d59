// SPDX-License-Identifier: GPL-2.0
/* A read_iolog job before anything runs (run/replay_prepare.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "job/given_opts.h"
#include "run/replay_prepare.h"
#include "target/write_guard.h"
#include "workload/files.h"

static bool diskless(const struct job *job)
{
	return job->engine->flags & ENGINE_DISKLESS;
}

/* The log's files as the job's filename= list (names each ended by a
 * NUL, the last by two), so the worker opens them as it opens those. */
static int name_files(struct job *job, const struct replay_log *log,
		      struct errbuf *err)
{
	size_t n = 0;

	for (unsigned int i = 0; i < log->nr_files; i++) {
		size_t len = strlen(log->files[i]) + 1;

		if (n + len + 1 > sizeof(job->filename))
			return err_set(err, ENAMETOOLONG, "read_iolog=%s: the names "
				       "of its %u files are too long together",
				       job->replay.log, log->nr_files);
		memcpy(job->filename + n, log->files[i], len);
		n += len;
	}
	job->filename[n] = '\0';
	return 0;
}

/* fio's read_iolog: the job does what its log does, in buffers as long
 * as the log's longest I/O; a blktrace trace's depth is the job's unless
 * it sets iodepth (fio's read_blktrace). */
static void take_shape(struct job *job, const struct replay_log *log)
{
	bool reads = log->ios[DDIR_READ], writes = log->ios[DDIR_WRITE];

	job->rw = reads && writes ? RW_RW : writes ? RW_WRITE : RW_READ;
	for (int d = 0; d < DDIR_COUNT; d++)
		if (log->max_len[d] > job->bs_max[d])
			job->bs_max[d] = log->max_len[d];
	if (log->depth && !job_given_has(job, "iodepth"))
		job->iodepth = log->depth;
}

static int check_file(const struct run_ctx *ctx, const struct job *job,
		      const struct job_target *t, const struct target_info *ti,
		      struct errbuf *err)
{
	if (ti->is_blockdev && t->replay->end > ti->size)
		return err_set(err, ENOSPC, "%s:%d: job '%s': read_iolog=%s reaches "
			       "byte %llu, but %s has %llu", job->source,
			       job->source_line, job->name, job->replay.log,
			       (unsigned long long)t->replay->end, ti->path,
			       (unsigned long long)ti->size);
	if (!ti->exists && !t->replay->ios[DDIR_WRITE])
		return err_set(err, ENOENT, "%s:%d: job '%s': %s, which read_iolog=%s "
			       "reads, does not exist", job->source,
			       job->source_line, job->name, ti->path,
			       job->replay.log);
	if (t->replay->ios[DDIR_WRITE] && !t->scratch)
		return target_write_guard(ti, ctx->opts.allow_destructive ||
					  job->allow_mounted_write, err);
	return 0;
}

/* Each file the replay reaches, inspected and guarded; the first is the
 * job's target as the report names it. */
static int inspect_files(const struct run_ctx *ctx, const struct job *job,
			 struct job_target *t, struct errbuf *err)
{
	char path[sizeof(t->path)];
	struct target_info ti;
	int ret = 0;

	for (unsigned int k = 0; k < t->nr_files && !ret; k++) {
		if (t->nr_files > 1 && job_listed_file(job, k, path, sizeof(path)))
			return err_set(err, ENAMETOOLONG, "read_iolog=%s: the path of "
				       "its file %u is too long", job->replay.log, k);
		ret = target_inspect(t->nr_files > 1 ? path : t->path, &ti, err);
		if (!ret)
			ret = check_file(ctx, job, t, &ti, err);
		if (!ret && !k)
			t->info = ti;
	}
	return ret;
}

static int load_log(struct job *job, struct job_target *t, bool redirected,
		    struct errbuf *err)
{
	t->replay = calloc(1, sizeof(*t->replay));
	if (!t->replay)
		return err_set(err, ENOMEM, "out of memory");
	return replay_log_load(t->replay, job->replay.log, &job->replay,
			       redirected ? t->path : NULL, err);
}

int replay_prepare(const struct run_ctx *ctx, struct job *job,
		   struct job_target *t, struct errbuf *err)
{
	bool redirected = t->path[0];
	struct target_info ti;
	int ret;

	if (redirected) {
		ret = target_inspect(t->path, &ti, err);
		if (ret)
			return ret;
	}
	ret = load_log(job, t, redirected, err);
	if (!ret && !redirected)
		ret = name_files(job, t->replay, err);
	if (ret)
		return ret;
	t->nr_files = redirected ? 1 : t->replay->nr_files;
	if (!redirected && job_listed_file(job, 0, t->path, sizeof(t->path)))
		return err_set(err, ENAMETOOLONG, "read_iolog=%s: the path of its "
			       "first file is too long", job->replay.log);
	if (t->nr_files > 1 && !diskless(job) &&
	    !(job->engine->flags & ENGINE_UNIT_FD))
		return err_set(err, ENOTSUP, "%s:%d: job '%s': read_iolog=%s names "
			       "%u files, but ioengine=%s does I/O on one file "
			       "(replay_redirect= puts all of it on one)", job->source,
			       job->source_line, job->name, job->replay.log,
			       t->nr_files, job->engine->name);
	take_shape(job, t->replay);
	t->region_start = 0;
	t->region_len = t->file_size = t->replay->end;
	return diskless(job) ? 0 : inspect_files(ctx, job, t, err);
}

void replay_targets_free(struct run_ctx *ctx)
{
	for (size_t j = 0; ctx->targets && j < ctx->jobs.count; j++) {
		if (ctx->targets[j].replay)
			replay_log_free(ctx->targets[j].replay);
		free(ctx->targets[j].replay);
		ctx->targets[j].replay = NULL;
	}
}
