// SPDX-License-Identifier: GPL-2.0
/*
 * Before anything runs: each job's target resolved (its files, a device,
 * or the scratch loop device asked for with --target=scratch), inspected,
 * its region sized, the write guard applied and the files laid out, so a
 * bad job writes nothing anywhere.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "run/clone_setup.h"
#include "run/clone_starts.h"
#include "run/engine_device.h"
#include "run/filesize_range.h"
#include "run/layout.h"
#include "run/listed_sizes.h"
#include "run/replay_prepare.h"
#include "run/run.h"
#include "run/zbd_prepare.h"
#include "target/write_guard.h"
#include "workload/files.h"

static bool job_writes(const struct job *job)
{
	return rw_modifies(job->rw);
}

/* fio's diskless engines (null) touch no file: nothing to check, guard or
 * lay out. */
static bool job_diskless(const struct job *job)
{
	return job->engine->flags & ENGINE_DISKLESS;
}

static bool wants_scratch(const struct run_ctx *ctx)
{
	return ctx->opts.target && !strcmp(ctx->opts.target, RUN_TARGET_SCRATCH);
}

static int use_scratch(struct run_ctx *ctx, struct job_target *t,
		       struct errbuf *err)
{
	int ret;

	if (!ctx->scratch) {
		ret = scratch_create(ctx->opts.scratch_size, &ctx->scratch, err);
		if (ret)
			return ret;
	}
	snprintf(t->path, sizeof(t->path), "%s", scratch_path(ctx->scratch));
	t->scratch = true;
	return 0;
}

/*
 * --target=scratch: iodig's loop device; --target=PATH: that one file or
 * device; filename=: its files, shared by the clones; else fio's own
 * files, jobname.clone.file (or filename_format) in directory= or the
 * current directory, never a device the user did not name.
 */
static int resolve_path(struct run_ctx *ctx, const struct job *job,
			struct job_target *t, struct errbuf *err)
{
	int ret;

	if (wants_scratch(ctx) && !job_diskless(job))
		return use_scratch(ctx, t, err);
	if (ctx->opts.target && !wants_scratch(ctx)) {
		snprintf(t->path, sizeof(t->path), "%s", ctx->opts.target);
		return 0;
	}
	if (job->replay.log[0]) { /* the log names the files */
		snprintf(t->path, sizeof(t->path), "%s", job->replay.redirect);
		return 0;
	}
	if (job->filename[0]) {
		t->nr_files = job_filename_count(job);
		ret = job_listed_file(job, 0, t->path, sizeof(t->path));
	} else {
		t->per_clone_files = true;
		t->nr_files = job->nrfiles;
		ret = job_file_name(job, 0, 0, t->path, sizeof(t->path));
	}
	if (ret)
		return err_set(err, ENAMETOOLONG, "%s:%d: job '%s': the path of its file is too long",
			       job->source, job->source_line, job->name);
	return 0;
}

/* fill_device without size=: the device's size, or the room left on the
 * file's filesystem (fio's get_fs_free_size). */
static int fill_size(struct job_target *t, uint64_t offset)
{
	char dir[4096], *slash;
	struct statvfs sv;

	if (t->info.is_blockdev) {
		if (t->info.size <= offset)
			return -ENOSPC;
		t->region_len = t->file_size = t->info.size - offset;
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s", t->path);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	if (statvfs(slash ? dir : ".", &sv))
		return -errno;
	t->region_len = t->file_size = (uint64_t)sv.f_bavail * sv.f_frsize;
	return t->region_len ? 0 : -ENOSPC;
}

static uint32_t job_min_bs(const struct job *job)
{
	return job->bs_min[DDIR_READ] < job->bs_min[DDIR_WRITE] ?
	       job->bs_min[DDIR_READ] : job->bs_min[DDIR_WRITE];
}

uint64_t percent_of(uint64_t size, unsigned int pct)
{
	return size / 100 * pct + size % 100 * pct / 100;
}

static uint64_t align_up(uint64_t v, uint64_t align)
{
	return align ? (v + align - 1) / align * align : v;
}

/* offset=N% and offset_increment=N%: fio's get_start_offset, N% of the
 * target; with either, the start is rounded up to offset_align (or the
 * smallest block size) after the clone's increments are added. */
static uint64_t start_offset(const struct job *job, struct job_target *t)
{
	const struct target_info *ti = &t->info;

	t->clone_raw = job->offset_percent ? percent_of(ti->size, job->offset_percent) :
		       job->offset;
	t->clone_increment = percent_of(ti->size, job->offset_increment_percent);
	t->clone_align = 0;
	if (job->offset_percent || job->offset_increment_percent)
		t->clone_align = job->offset_align ? job->offset_align : job_min_bs(job);
	return align_up(t->clone_raw, t->clone_align);
}

uint64_t target_clone_shift(const struct job *job, const struct job_target *t,
			    unsigned int clone)
{
	uint64_t incr = job->offset_increment_percent ? t->clone_increment :
			job->offset_increment;

	if (t->clone_starts)
		return t->clone_starts[clone].shift;
	return align_up(t->clone_raw + clone * incr, t->clone_align) -
	       align_up(t->clone_raw, t->clone_align);
}

bool target_clone_has_room(const struct job *job, const struct job_target *t,
			   unsigned int clone)
{
	uint64_t shift = target_clone_shift(job, t, clone);

	if (t->sizes_per_clone)
		return clone_region_len(t, clone) >= job_min_bs(job);
	if (!t->to_end && !t->filesize_bound)
		return true;
	return shift < t->file_size &&
	       (t->file_size - shift) * t->nr_files >= job_min_bs(job);
}

/* Clones whose regions end with their files, which fio's setup_files
 * sets up one by one and fails alone (run/clone_setup.h). */
bool clones_fail_alone(const struct job *job, const struct job_target *t)
{
	if (t->info.is_blockdev || t->replay || (job->engine->flags & ENGINE_FILE_OPS))
		return false;
	return job->filesize || (t->to_end && !job_diskless(job));
}

/* size=N%: fio's size_percent, N% of the target, no further than its
 * end, rounded down to the smallest block size. */
static void percent_region(const struct job *job, struct job_target *t, uint64_t offset)
{
	uint64_t len = percent_of(t->info.size, job->size_percent);

	if (len > t->info.size - offset)
		len = t->info.size - offset;
	len -= len % job_min_bs(job);
	t->region_len = t->file_size = len;
}

/* atomic=1 on a block device: one that has atomic writes, each write a
 * power of two within its unit (the kernel's generic_atomic_write_valid);
 * a file's filesystem decides per write. */
static int check_atomic(const struct job *job, const struct target_info *ti,
			struct errbuf *err)
{
	uint32_t lo = job->bs_min[DDIR_WRITE], hi = job->bs_max[DDIR_WRITE];

	if (!job->atomic || !ti->is_blockdev || !rw_has_write(job->rw))
		return 0;
	if (!ti->atomic_unit_max)
		return err_set(err, EOPNOTSUPP, "%s:%d: job '%s': atomic=1: %s does not support atomic writes (/sys/block/%s/queue/atomic_write_unit_max_bytes is 0)",
			       job->source, job->source_line, job->name, ti->path,
			       ti->disk_name);
	if (lo < ti->atomic_unit_min || hi > ti->atomic_unit_max ||
	    (lo & (lo - 1)) || (hi & (hi - 1)))
		return err_set(err, EINVAL, "%s:%d: job '%s': atomic=1: write block sizes %u-%u are not powers of two within %s's atomic write unit %u-%u",
			       job->source, job->source_line, job->name, lo, hi,
			       ti->path, ti->atomic_unit_min, ti->atomic_unit_max);
	return 0;
}

/* filesize= sizes the file, not the I/O: fio creates each file
 * filesize bytes and does its I/O from offset= to the file's end
 * (io_size = real_file_size - file_offset). */
static void filesize_past_offset(const struct job *job, struct job_target *t,
				 uint64_t offset)
{
	unsigned int clones = job->numjobs ? job->numjobs : 1;
	unsigned int n = t->sizes_per_clone ? clones * t->nr_files : 0;

	if (!job->filesize)
		return;
	/* a clone starting at or past its end: run/clone_setup.c */
	t->filesize_bound = !n;
	if (!offset)
		return;
	t->file_size = UINT64_MAX;
	for (unsigned int f = 0; f < n; f++) {
		t->file_sizes[f] -= t->file_sizes[f] > offset ? offset : t->file_sizes[f];
		if (t->file_sizes[f] < t->file_size)
			t->file_size = t->file_sizes[f];
	}
	if (!n) {
		t->file_size = job->filesize > offset ? job->filesize - offset : 0;
		t->region_len = t->file_size * t->nr_files;
		return;
	}
	t->region_len = UINT64_MAX;
	for (unsigned int c = 0; c < clones; c++)
		if (clone_region_len(t, c) < t->region_len)
			t->region_len = clone_region_len(t, c);
}

/* fio's file-operation engines do no I/O, so a file smaller than a block
 * is no error: the job reaches it, does its operation and no I/O.  Those
 * that lay nothing out (filecreate, dircreate, dirdelete) take a block as
 * each file's real size (their get_file_size), which a smaller io_size
 * does not shrink: a sequential job does one I/O there; a random one,
 * whose map has io_size's whole blocks, none. */
static bool file_ops_sized(const struct job *job, struct job_target *t,
			   uint32_t min_bs)
{
	if (!(job->engine->flags & ENGINE_FILE_OPS))
		return false;
	if ((job->engine->flags & ENGINE_DISKLESS) && !rw_is_random(job->rw) &&
	    !t->file_sizes && t->file_size < min_bs)
		t->file_size = min_bs;
	return true;
}

/* fio draws a file's size from filesize=LOW-HIGH only when its real size
 * is outside the range: the block that filecreate, dircreate and
 * dirdelete give each file is its size when the range holds it. */
static bool file_ops_block_in_range(const struct job *job,
				    struct job_target *t, uint32_t min_bs)
{
	uint32_t both = ENGINE_FILE_OPS | ENGINE_DISKLESS;

	if ((job->engine->flags & both) != both || job->filesize > min_bs ||
	    job->filesize_high < min_bs)
		return false;
	t->file_size = min_bs;
	t->region_len = (uint64_t)min_bs * t->nr_files;
	return true;
}

static int resolve_region(const struct job *job, struct job_target *t,
			  struct errbuf *err)
{
	const struct target_info *ti = &t->info;
	uint32_t max_bs = job->bs_max[DDIR_READ] > job->bs_max[DDIR_WRITE] ?
			  job->bs_max[DDIR_READ] : job->bs_max[DDIR_WRITE];
	uint32_t min_bs = job_min_bs(job);
	uint64_t end, offset = job->offset;
	int ret = check_atomic(job, ti, err);

	if (ret)
		return ret;
	/* offset=N% and offset_increment=N% of a file not there yet are
	 * shares of its size 0, as fio's get_start_offset takes them */
	offset = start_offset(job, t);
	t->region_start = offset;
	/* fio's file_append: the I/O goes after the file's current end */
	if (job->file_append && ti->is_regular && ti->exists)
		t->region_start += ti->size;
	if (!t->nr_files)
		t->nr_files = 1;
	if (job->filesize_high && file_ops_block_in_range(job, t, min_bs)) {
		/* sized by the engine */
	} else if (job->filesize_high) {
		/* filesize=LOW-HIGH: a random size per file, as in fio */
		ret = filesize_range_draw(job, t, t->first_thread, err);
		if (ret)
			return ret;
		filesize_past_offset(job, t, offset);
	} else if (!job_file_sizes(job, t->nr_files, &t->file_size, &t->region_len)) {
		/* sized by the job */
		filesize_past_offset(job, t, offset);
	} else if (job->fill_device && !fill_size(t, offset)) {
		/* as much as the device or filesystem has room for */
	} else if (job_diskless(job)) {
		return err_set(err, EINVAL, "%s:%d: job '%s': ioengine=%s does no I/O on a file, so it takes no size from one: set size= or filesize=",
			       job->source, job->source_line, job->name,
			       job->engine->name);
	} else if (t->nr_files > 1) {
		/* listed files: each as large as it is, as in fio */
		ret = listed_sizes_resolve(job, t, offset, err);
		if (ret)
			return ret;
	} else if (ti->exists && ti->size > offset) {
		t->region_len = ti->size - offset;
		t->file_size = t->region_len;
		t->to_end = !job->size_percent;
		if (job->size_percent)
			percent_region(job, t, offset);
	} else if (!ti->exists) {
		/* fio's setup_files fails the job alone (err=22) */
		snprintf(t->setup_msg, sizeof(t->setup_msg), "%s does not exist and the job gives no size to create it with (fio 3.33: 'you need to specify size=')",
			 t->path);
		t->setup_error = -EINVAL;
		return 0;
	} else if (ti->is_regular && !job->size_percent) {
		/* a start at or past the file's end fails the job alone, as
		 * fio's setup_files does (run/clone_setup.c) */
		t->region_len = t->file_size = 0;
		t->to_end = true;
	} else {
		return err_set(err, EINVAL, "%s:%d: job '%s': offset %llu is beyond the end of %s (%llu bytes)",
			       job->source, job->source_line, job->name,
			       (unsigned long long)offset, t->path,
			       (unsigned long long)ti->size);
	}
	/* the last clone's region, offset_increment on; without a size it
	 * ends with the target, and must still hold a block of a device (a
	 * file's clone with less fails alone: run/clone_setup.c) */
	end = t->region_start + target_clone_shift(job, t, job->numjobs - 1) +
	      (t->to_end ? (ti->is_blockdev ? max_bs : 0) : t->region_len);
	if (!job_diskless(job) && (ti->is_blockdev || (t->to_end && !ti->is_regular)) &&
	    end > ti->size)
		return err_set(err, ENOSPC, "%s:%d: job '%s': %s is too small: it has %llu bytes, the job needs %llu",
			       job->source, job->source_line, job->name, t->path,
			       (unsigned long long)ti->size, (unsigned long long)end);
	if (file_ops_sized(job, t, min_bs))
		return 0;
	/* a file's first clone without a block from its start fails alone,
	 * as the others may (run/clone_setup.c) */
	if (clones_fail_alone(job, t) && !target_clone_has_room(job, t, 0))
		return 0;
	/* fio's setup_files needs room for the smallest size only: a larger
	 * one of a range or bssplit is drawn again where it does not fit */
	if (t->region_len < min_bs)
		return err_set(err, EINVAL, "%s:%d: job '%s': block size %u is larger than the %llu bytes to do I/O on",
			       job->source, job->source_line, job->name, min_bs,
			       (unsigned long long)t->region_len);
	if (t->file_size < min_bs)
		return err_set(err, EINVAL, "%s:%d: job '%s': block size %u is larger than each of its %u files (%llu bytes)",
			       job->source, job->source_line, job->name, min_bs,
			       t->nr_files, (unsigned long long)t->file_size);
	if (job->direct && ti->logical_block_size &&
	    t->region_start % ti->logical_block_size)
		return err_set(err, EINVAL, "%s:%d: job '%s': offset %llu is not a multiple of %s's logical block size %u, which O_DIRECT needs",
			       job->source, job->source_line, job->name,
			       (unsigned long long)t->region_start, t->path,
			       ti->logical_block_size);
	return 0;
}

/* A diskless engine opens none of its files, and dirstat's are
 * directories: for them only the directory holding the files must be
 * there.  A job file's own file name may lie in directories still to make
 * (fio 3.33 makes them); --target's may not. */
static int inspect_target(const struct job *job, struct job_target *t,
			  bool given_target, struct errbuf *err)
{
	struct stat st;

	if (job_diskless(job) && !stat(t->path, &st) && S_ISDIR(st.st_mode)) {
		memset(&t->info, 0, sizeof(t->info));
		snprintf(t->info.path, sizeof(t->info.path), "%s", t->path);
		t->info.exists = true;
		return 0;
	}
	/* fio refuses a directory= that is not one (it makes only the
	 * directories of the file names under it) */
	if (given_target || job_diskless(job) ||
	    (job->directory[0] && (stat(job->directory, &st) || !S_ISDIR(st.st_mode))))
		return target_inspect(t->path, &t->info, err);
	return target_inspect_making_dirs(t->path, &t->info, err);
}

/* A file of one path that an earlier job of the run lays out is, by the
 * time this job's is set up, as large as that layout makes it (fio sets
 * up the jobs' files one job after the other before any runs). */
static void earlier_layouts(const struct run_ctx *ctx, const struct job *job,
			    struct job_target *t)
{
	size_t j = (size_t)(job - ctx->jobs.jobs);
	uint64_t size;

	if (t->per_clone_files || t->nr_files > 1 || t->info.is_blockdev ||
	    (t->info.exists && !t->info.is_regular))
		return;
	for (size_t k = 0; k < j; k++) {
		size = layout_planned_size(ctx, &ctx->jobs.jobs[k], &ctx->targets[k], t->path);
		if (size > t->info.size) { /* a file not there yet has size 0 */
			t->info.size = size;
			t->info.exists = true;
			t->info.is_regular = true;
		}
	}
}

/* The target of a job that makes its own I/O: inspected, its region
 * sized and, when the job writes, guarded.  The scratch device is
 * iodig's own: what an earlier job wrote there is not somebody's data. */
static int resolve_target(const struct run_ctx *ctx, struct job *job,
			  struct job_target *t, struct errbuf *err)
{
	int ret = engine_device_inspect(job, t, ctx->opts.allow_destructive, err);

	if (!ret)
		ret = inspect_target(job, t, ctx->opts.target, err);
	if (ret < 0)
		return ret;
	earlier_layouts(ctx, job, t);
	ret = zbd_prepare_zones(job, t, err);
	if (!ret)
		ret = resolve_region(job, t, err);
	if (!ret && !t->setup_error)
		ret = zbd_prepare_region(job, t, err);
	if (!ret && !t->setup_error)
		ret = clone_starts_resolve(job, t, err);
	if (!ret && !t->setup_error && clones_fail_alone(job, t))
		ret = clone_setup_resolve(job, t, err);
	if (ret || t->setup_error || !job_writes(job) || t->scratch || job_diskless(job))
		return ret;
	return target_write_guard(&t->info, ctx->opts.allow_destructive ||
				  job->allow_mounted_write, err);
}

int run_prepare(struct run_ctx *ctx, struct errbuf *err)
{
	int ret;

	ctx->targets = calloc(ctx->jobs.count, sizeof(*ctx->targets));
	if (!ctx->targets)
		return err_set(err, ENOMEM, "out of memory");
	/* First check every job, so a bad one writes nothing anywhere. */
	for (size_t j = 0, thread = 1; j < ctx->jobs.count; j++) {
		struct job *job = &ctx->jobs.jobs[j];
		struct job_target *t = &ctx->targets[j];

		t->first_thread = (unsigned int)thread; /* clones follow their job */
		thread += job->numjobs;
		ret = resolve_path(ctx, job, t, err);
		if (!ret)
			ret = job->replay.log[0] ? replay_prepare(ctx, job, t, err) :
			      resolve_target(ctx, job, t, err);
		if (ret)
			return ret;
		disk_list_add(&ctx->run_disks, NULL, t->info.disk_name);
		/* fio reports a disk that a job with disk_util uses */
		if (job->stat.disk_util)
			disk_list_add(&ctx->disks, NULL, t->info.disk_name);
	}
	for (size_t j = 0; j < ctx->jobs.count; j++) {
		struct job_target *t = &ctx->targets[j];

		if (t->replay || t->setup_error)
			continue; /* fio lays out nothing for a replay */
		t->setup_error = layout_past_max(&ctx->jobs.jobs[j], t, t->setup_msg,
						 sizeof(t->setup_msg));
		if (t->setup_error)
			continue;
		ret = layout_job_files(ctx, &ctx->jobs.jobs[j], t, err);
		/* interrupted: the run stops before its workload */
		if (ret || ctx->stop_signal)
			return ret;
		/* Re-inspect: the file now exists and has a size. */
		if (t->info.is_regular)
			target_inspect(t->path, &t->info, err);
	}
	return 0;
}
