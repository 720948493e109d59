// SPDX-License-Identifier: GPL-2.0
/*
 * Laying out a job's files before the jobs start, as fio's extend_file
 * does: a file already as large as the job needs is left alone; one a
 * reading job (or overwrite=1) needs is written out; a writing job's is
 * only created and sized as fallocate= says after fio's unlink; with
 * create_on_open, fill_device or file_append the job's own open makes it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/clone_setup.h"
#include "run/clone_starts.h"
#include "run/layout.h"
#include "workload/files.h"

#define LAYOUT_CHUNK (1u << 20)

/* SIGINT/SIGTERM stops a layout between chunks, as fio's extend_file
 * checks td->terminate before each write; fio then unlinks the file.  A
 * file the layout created goes too; one that was there is cut back to its
 * old size, so what iodig adds goes and what the user had stays. */
static int undo_layout(int fd, const char *path, bool existed, off_t old_size,
		       struct errbuf *err)
{
	if (!existed ? unlink(path) : ftruncate(fd, old_size))
		return err_set(err, errno, "%s: interrupted while laid out, cannot %s: %s",
			       path, existed ? "cut it back" : "remove it", strerror(errno));
	return 0;
}

/* A reading (or overwrite=1) job's file is written out, so reads hit real
 * data, and fsynced with @sync (create_fsync). */
static int write_out(struct run_ctx *ctx, const char *path, bool existed,
		     uint64_t need, bool sync, struct errbuf *err)
{
	struct stat st;
	char *buf = NULL;
	int fd, ret = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return err_set(err, errno, "%s: cannot create: %s", path, strerror(errno));
	if (fstat(fd, &st)) {
		ret = err_set(err, errno, "%s: %s", path, strerror(errno));
		goto cleanup;
	}
	if ((uint64_t)st.st_size >= need)
		goto cleanup;
	buf = malloc(LAYOUT_CHUNK);
	if (!buf) {
		ret = err_set(err, ENOMEM, "%s: out of memory laying out the file", path);
		goto cleanup;
	}
	for (size_t i = 0; i < LAYOUT_CHUNK; i++)
		buf[i] = (char)(i * 2654435761u >> 24);
	for (uint64_t off = (uint64_t)st.st_size; off < need;) {
		size_t n = need - off < LAYOUT_CHUNK ? need - off : LAYOUT_CHUNK;
		ssize_t w;

		if (run_signal_pending(ctx)) {
			ret = undo_layout(fd, path, existed, st.st_size, err);
			goto cleanup;
		}
		w = pwrite(fd, buf, n, (off_t)off);

		if (w <= 0) {
			ret = err_set(err, w < 0 ? errno : ENOSPC,
				      "%s: laying out %llu bytes failed at %llu: %s",
				      path, (unsigned long long)need,
				      (unsigned long long)off,
				      strerror(w < 0 ? errno : ENOSPC));
			goto cleanup;
		}
		off += (uint64_t)w;
	}
	if (sync && fsync(fd))
		ret = err_set(err, errno, "%s: fsync: %s", path, strerror(errno));
	/* fio drops what it laid out from the page cache, whatever the job's
	 * invalidate, so the first reads reach the device (without the fsync
	 * the advice starts the writeback and leaves the dirty pages) */
	else
		posix_fadvise(fd, st.st_size, (off_t)(need - (uint64_t)st.st_size),
			      POSIX_FADV_DONTNEED);
cleanup:
	free(buf);
	close(fd);
	return ret;
}

/* fio's fallocate_file: @mode decides whether the file gets its size and
 * its blocks (native falls back to ftruncate where the filesystem cannot
 * allocate). */
static int allocate(int fd, enum fallocate_mode mode, uint64_t need)
{
	switch (mode) {
	case FALLOCATE_NONE:
		return 0;
	case FALLOCATE_POSIX:
		errno = posix_fallocate(fd, 0, (off_t)need);
		return errno ? -1 : 0;
	case FALLOCATE_KEEP:
		return fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, (off_t)need);
	case FALLOCATE_TRUNCATE:
		return ftruncate(fd, (off_t)need);
	case FALLOCATE_NATIVE:
	default:
		if (!fallocate(fd, 0, 0, (off_t)need))
			return 0;
		return ftruncate(fd, (off_t)need);
	}
}

/* fio's layout for a write job without overwrite: a new file, sized and
 * allocated as fallocate= says. */
static int size_only(const char *path, uint64_t need, enum fallocate_mode mode,
		     struct errbuf *err)
{
	int fd, ret = 0;

	if (unlink(path) && errno != ENOENT)
		return err_set(err, errno, "%s: cannot remove it to lay it out: %s",
			       path, strerror(errno));
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return err_set(err, errno, "%s: cannot create: %s", path, strerror(errno));
	if (allocate(fd, mode, need))
		ret = err_set(err, errno, "%s: cannot allocate %llu bytes: %s",
			      path, (unsigned long long)need, strerror(errno));
	close(fd);
	return ret;
}

/* fio 3.33 makes the missing directories of a job's file names (mode
 * 0700, each parent in turn) before it creates the files. */
static int make_parent_dirs(const char *path, struct errbuf *err)
{
	char dir[4096];

	if ((size_t)snprintf(dir, sizeof(dir), "%s", path) >= sizeof(dir))
		return err_set(err, ENAMETOOLONG, "%.64s...: file name too long", path);
	for (char *slash = strchr(dir + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(dir, 0700) && errno != EEXIST)
			return err_set(err, errno, "%s: cannot make directory %s: %s",
				       path, dir, strerror(errno));
		*slash = '/';
	}
	return 0;
}

static int layout_one(struct run_ctx *ctx, const struct job *job, const char *path,
		      uint64_t need, struct errbuf *err)
{
	struct stat st;
	bool exists = !stat(path, &st);

	if (exists && (!S_ISREG(st.st_mode) || (uint64_t)st.st_size >= need))
		return 0;
	if (!exists && !job->allow_file_create)
		return err_set(err, ENOENT, "%s:%d: job '%s': %s does not exist and allow_file_create=0 forbids creating it",
			       job->source, job->source_line, job->name, path);
	if (job->create_on_open || job->fill_device || job->file_append)
		return 0;
	/* fio lays out with data what a job reads or trims */
	if (rw_has_read(job->rw) || rw_has_trim(job->rw) || job->overwrite)
		return write_out(ctx, path, exists, need, job->create_fsync, err);
	return size_only(path, need, job->fallocate, err);
}

int layout_file_path(const struct run_ctx *ctx, const struct job *job,
		     const struct job_target *t, unsigned int f, char *buf,
		     size_t len)
{
	if (t->per_clone_files)
		return job_file_name(job, f / t->nr_files, f % t->nr_files, buf, len);
	if (job->filename[0] && !ctx->opts.target)
		return job_listed_file(job, f, buf, len);
	if ((size_t)snprintf(buf, len, "%s", t->path) >= len)
		return -ENAMETOOLONG;
	return 0;
}

static bool lays_out(const struct job *job, const struct job_target *t)
{
	return !t->info.is_blockdev && !(job->engine->flags & ENGINE_DISKLESS);
}

/* The bytes file @f must hold: a clone's own file reaches its own
 * region's end, as fio lays it out; a shared one the furthest clone's. */
static uint64_t file_need(const struct job *job, const struct job_target *t,
			  unsigned int f)
{
	unsigned int c = t->per_clone_files ? f / t->nr_files : job->numjobs - 1;

	if (t->sizes_per_clone)
		return t->region_start + t->file_sizes[f];
	if (t->clone_starts)
		return clone_starts_file_end(job, t);
	return t->region_start + t->file_size +
	       (t->to_end || t->filesize_bound ? 0 : target_clone_shift(job, t, c));
}

/* Whether the clone that makes file @f is set up (run/clone_setup.h). */
static bool lays_out_for(const struct job_target *t, unsigned int f)
{
	return target_clone_setup(t, t->per_clone_files ? f / t->nr_files : 0) == CLONE_SET_UP;
}

static unsigned int job_files(const struct job *job, const struct job_target *t)
{
	return (t->per_clone_files ? job->numjobs : 1) * t->nr_files;
}

int layout_past_max(const struct job *job, const struct job_target *t,
		    char *why, size_t len)
{
	uint64_t need = 0;

	if (!lays_out(job, t) || job->create_on_open || job->fill_device ||
	    job->file_append)
		return 0;
	for (unsigned int f = 0; f < job_files(job, t) && need <= (uint64_t)INT64_MAX; f++)
		need = file_need(job, t, f);
	if (need <= (uint64_t)INT64_MAX)
		return 0;
	if (rw_has_read(job->rw) || rw_has_trim(job->rw) || job->overwrite)
		snprintf(why, len, "%s: cannot lay out %llu bytes, past the largest file offset (fio 3.33 reads filesize=N%% and size= over 100%% as 2^64-1-N bytes): ftruncate: %s",
			 t->path, (unsigned long long)need, strerror(EINVAL));
	else
		snprintf(why, len, "%s: %llu bytes is past the largest file offset (fio 3.33 reads filesize=N%% and size= over 100%% as 2^64-1-N bytes, and writes until the filesystem is full): not run",
			 t->path, (unsigned long long)need);
	return -EINVAL;
}

uint64_t layout_planned_size(const struct run_ctx *ctx, const struct job *job,
			     const struct job_target *t, const char *path)
{
	char p[4096];
	uint64_t size = 0, need;

	if (!lays_out(job, t) || t->replay || t->setup_error || job->create_on_open ||
	    job->fill_device || job->file_append || !job->allow_file_create)
		return 0;
	for (unsigned int f = 0; f < job_files(job, t); f++) {
		need = file_need(job, t, f);
		if (lays_out_for(t, f) && need > size && need <= (uint64_t)INT64_MAX &&
		    !layout_file_path(ctx, job, t, f, p, sizeof(p)) && !strcmp(p, path))
			size = need;
	}
	return size;
}

int layout_job_files(struct run_ctx *ctx, const struct job *job,
		     const struct job_target *t, struct errbuf *err)
{
	char path[4096];
	int ret;

	if (!lays_out(job, t))
		return 0;
	for (unsigned int f = 0; f < job_files(job, t) && !ctx->stop_signal; f++) {
		/* fio makes no file for a clone it does not set up; clone 0,
		 * set up first, makes a shared one */
		if (!lays_out_for(t, f))
			continue;
		if (layout_file_path(ctx, job, t, f, path, sizeof(path)))
			return err_set(err, ENAMETOOLONG, "%s:%d: job '%s': the path of file %u is too long",
				       job->source, job->source_line, job->name, f);
		ret = t->info.missing_dirs ? make_parent_dirs(path, err) : 0;
		if (!ret)
			ret = layout_one(ctx, job, path, file_need(job, t, f), err);
		if (ret)
			return ret;
	}
	return 0;
}
