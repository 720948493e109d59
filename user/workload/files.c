// SPDX-License-Identifier: GPL-2.0
/*
 * A job's files, named and sized fio's way (nrfiles, filesize, the
 * jobname.clone.file names), for the runner that lays them out and the
 * engines that reach each of them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fs.h>

#include "workload/files.h"
#include "workload/worker.h"

bool job_engine_takes_files(const struct job *job)
{
	return job->engine->flags & (ENGINE_DISKLESS | ENGINE_FILE_OPS);
}

int job_check_files(const struct job *job, const char *where,
		    struct errbuf *err)
{
	unsigned int listed = job_filename_count(job);
	unsigned int nr = job->filename[0] ? listed : job->nrfiles;
	const char *what = job->filename[0] ? "files in filename" : "nrfiles";

	if (nr <= 1 || job_engine_takes_files(job))
		return 0;
	if (!(job->engine->flags & ENGINE_UNIT_FD))
		return err_set(err, ENOTSUP, "%s: %s=%u: ioengine=%s does "
			       "its I/O on one file per job in iodig (fio "
			       "spreads it over the files)", where, what, nr,
			       job->engine->name);
	return 0;
}

unsigned int job_filename_count(const struct job *job)
{
	unsigned int n = 0;

	for (const char *p = job->filename; *p; p += strlen(p) + 1)
		n++;
	return n;
}

/* fio puts a relative filename= under directory=. */
int job_listed_file(const struct job *job, unsigned int k, char *buf,
		    size_t len)
{
	const char *p = job->filename;
	int n;

	for (unsigned int i = 0; i < k && *p; i++)
		p += strlen(p) + 1;
	if (!*p)
		return -ENOENT;
	if (job->directory[0] && p[0] != '/')
		n = snprintf(buf, len, "%s/%s", job->directory, p);
	else
		n = snprintf(buf, len, "%s", p);
	return (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* fio's filename_format keywords (fio's expand_filename_format). */
static const char *format_value(const char *key, size_t *key_len,
				const struct job *job, unsigned int clone,
				unsigned int k, char *num, size_t num_len)
{
	static const char *const keys[] = { "$jobname", "$jobnum", "$filenum",
					     "$clientuid" };
	unsigned int vals[] = { 0, clone, k, 0 };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		size_t l = strlen(keys[i]);

		if (strncmp(key, keys[i], l))
			continue;
		*key_len = l;
		if (i == 0)
			return job->name;
		/* $clientuid is the client's address in client/server mode,
		 * empty for a local run */
		if (i == 3)
			return "";
		snprintf(num, num_len, "%u", vals[i]);
		return num;
	}
	return NULL;
}

int job_file_name(const struct job *job, unsigned int clone, unsigned int k,
		  char *buf, size_t len)
{
	const char *fmt = job->filename_format[0] ? job->filename_format :
			  "$jobname.$jobnum.$filenum";
	size_t n = (size_t)snprintf(buf, len, "%s/",
				    job->directory[0] ? job->directory : ".");

	for (const char *p = fmt; *p && n < len;) {
		char num[16];
		size_t key_len = 1;
		const char *v = *p == '$' ? format_value(p, &key_len, job, clone,
							 k, num, sizeof(num))
					  : NULL;

		if (v)
			n += (size_t)snprintf(buf + n, len - n, "%s", v);
		else
			buf[n++] = *p;
		p += key_len;
	}
	if (n >= len)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return 0;
}

int job_file_sizes(const struct job *job, unsigned int nr,
		   uint64_t *file_size, uint64_t *region)
{
	if (job->filesize) {
		*file_size = job->filesize;
		*region = job->filesize * nr;
	} else if (job->size) {
		*file_size = job->size / nr;
		*region = *file_size * nr;
	} else {
		return -ENODATA;
	}
	return 0;
}

int worker_file_path(const struct worker *w, unsigned int k, char *buf,
		      size_t len)
{
	if (w->nr_files <= 1) {
		if ((size_t)snprintf(buf, len, "%s", w->path) >= len)
			return -ENAMETOOLONG;
		return 0;
	}
	if (w->job->filename[0])
		return job_listed_file(w->job, k, buf, len);
	return job_file_name(w->job, w->clone_index, k, buf, len);
}

int worker_fio_file_name(const struct worker *w, unsigned int k, char *buf,
			 size_t len)
{
	int ret;

	if (w->job->filename[0])
		return job_listed_file(w->job, k, buf, len);
	ret = job_file_name(w->job, w->clone_index, k, buf, len);
	/* fio names a job's own file without a directory "j.0.0" */
	if (!ret && !w->job->directory[0] && !strncmp(buf, "./", 2))
		memmove(buf, buf + 2, strlen(buf + 2) + 1);
	return ret;
}

const char *worker_file_name(const struct worker *w, unsigned int k, char *buf,
			     size_t len)
{
	if (w->nr_files <= 1 || worker_file_path(w, k, buf, len))
		return w->path;
	return buf;
}

/* fio opens a device (anything but a regular file) with O_NOATIME, so a
 * read skips the atime check on the device's inode that every direct read
 * of a block device makes; the kernel refuses it to a caller that does not
 * own the node (EPERM), and fio then opens it without, as here. */
static int open_target_file(const char *path, int flags)
{
	struct stat st;
	int fd;

	if (stat(path, &st) || S_ISREG(st.st_mode))
		return open(path, flags | O_CLOEXEC, 0644);
	fd = open(path, flags | O_NOATIME | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EPERM)
		fd = open(path, flags | O_CLOEXEC, 0644);
	return fd;
}

/* fadvise_hint=1 resolved: random or sequential as the job's rw is. */
static enum fadvise_hint job_file_advice(const struct job *job)
{
	if (job->fadvise_hint != FADVISE_TYPE)
		return job->fadvise_hint;
	return rw_is_random(job->rw) ? FADVISE_RANDOM : FADVISE_SEQUENTIAL;
}

/* fio's td_io_open_file advises each regular file and block device it
 * opens (not a pipe or character device).  The advice lives in the open
 * file (FMODE_RANDOM, f_ra's window), so it is given on the fd the I/O
 * uses.  A failure changes nothing the job does: fio 3.33 tests
 * posix_fadvise's result for < 0, which it never is, so it says nothing. */
static void advise_file(const struct job *job, int fd, uint64_t offset,
			uint64_t len)
{
	enum fadvise_hint advice = job_file_advice(job);
	struct stat st;

	if (advice == FADVISE_NONE || fstat(fd, &st) ||
	    !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)))
		return;
	posix_fadvise(fd, (off_t)offset, (off_t)len,
		      advice == FADVISE_RANDOM ? POSIX_FADV_RANDOM :
						 POSIX_FADV_SEQUENTIAL);
}

uint64_t worker_file_bytes(const struct worker *w, unsigned int k)
{
	return w->file_sizes ? w->file_sizes[k] : w->file_size;
}

/* fio's write_hint, given on each regular file or block device the job
 * opens, as fio's td_io_open_file: on the inode (F_SET_RW_HINT), or with
 * direct=1 on the open file (F_SET_FILE_RW_HINT), which Linux 5.17 and
 * later refuse (EINVAL); fio 3.33 then fails the job, and so does iodig. */
static int set_write_hint(const struct job *job, int fd, const char *path,
			  struct errbuf *err)
{
	uint64_t hint = job->write_hint;
	struct stat st;

	if (!hint || fstat(fd, &st) || !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)))
		return 0;
	if (!fcntl(fd, job->direct ? F_SET_FILE_RW_HINT : F_SET_RW_HINT, &hint))
		return 0;
	return err_set(err, errno, "%s: write_hint: fcntl %s: %s%s", path,
		       job->direct ? "F_SET_FILE_RW_HINT" : "F_SET_RW_HINT", strerror(errno),
		       job->direct && errno == EINVAL ? " (Linux 5.17 and later have no "
		       "write hint per open file, which direct=1 asks for as in fio)" : "");
}

const char *files_opened_together(const struct job *job)
{
	if (job->verify != VERIFY_NONE)
		return "verify";
	if (job->replay.log[0])
		return "read_iolog";
	if (job->pre_read)
		return "pre_read";
	/* fsync=, fdatasync=, sync_file_range= take their file from the
	 * file service, which opens it (io_loop.c aim_sync), end_fsync and
	 * fsync_on_close open a closed one for their sync at the end
	 * (file_sync_at_end), and fsync_on_close fsyncs each as it closes
	 * (io_loop_sync.c sync_close_file) */
	if (rw_has_trim(job->rw))
		return "trims";
	if (job->zonemode != ZONEMODE_NONE)
		return "zonemode";
	if (job->lockfile != LOCKFILE_NONE)
		return "lockfile";
	return NULL;
}

/* io_uring's registerfiles: fio's engine opens and registers every file
 * at its start, so they stay open. */
static bool files_registered(const struct job *job)
{
	for (unsigned int i = 0; i < JOB_ENGINE_OPTS_GIVEN; i++) {
		const struct engine_opt_given *g = &job->engine_given[i];

		if (g->name && !strcmp(g->name, "registerfiles"))
			return g->bare || strcmp(g->value, "0");
	}
	return false;
}

bool worker_files_limited(const struct worker *w)
{
	const struct job *job = w->job;

	if (job->openfiles && job->openfiles < w->nr_files)
		return true;
	/* without openfiles too fio opens a file when its file service
	 * first picks it and closes it once done (set_io_u_file), again
	 * each pass */
	return w->nr_files > 1 && !files_opened_together(job) && !files_registered(job);
}

unsigned int worker_files_open_limit(const struct worker *w)
{
	const struct job *job = w->job;

	return job->openfiles && job->openfiles < w->nr_files ? job->openfiles : w->nr_files;
}

/* File @k into w->fds[k], advised and hinted as fio's td_io_open_file. */
static int open_one(struct worker *w, unsigned int k, int flags,
		    struct errbuf *err)
{
	char path[4096];

	if (worker_file_path(w, k, path, sizeof(path)))
		return err_set(err, ENAMETOOLONG, "file %u: path too long", k);
	w->fds[k] = open_target_file(path, flags);
	if (w->fds[k] < 0)
		return err_set(err, errno, "%s: cannot open%s: %s", path,
			       flags & O_DIRECT ? " with O_DIRECT" : "",
			       strerror(errno));
	advise_file(w->job, w->fds[k], w->region_start, worker_file_bytes(w, k));
	return set_write_hint(w->job, w->fds[k], path, err);
}

int worker_open_files(struct worker *w, int flags, struct errbuf *err)
{
	int ret;

	if (w->job->allow_file_create)
		flags |= O_CREAT;
	w->open_flags = flags;
	w->fds = malloc(w->nr_files * sizeof(*w->fds));
	if (!w->fds)
		return err_set(err, ENOMEM, "out of memory for %u files", w->nr_files);
	for (unsigned int k = 0; k < w->nr_files; k++)
		w->fds[k] = -1;
	/* files opened as picked (worker_files_limited): fio opens a file
	 * when its file service first picks it (worker_open_file), none
	 * before */
	for (unsigned int k = 0; k < w->nr_files && !worker_files_limited(w); k++) {
		ret = open_one(w, k, flags, err);
		if (ret)
			return ret;
	}
	w->fd = w->fds[0];
	return 0;
}

void worker_close_files(struct worker *w)
{
	if (w->fds) {
		for (unsigned int k = 0; k < w->nr_files; k++)
			if (w->fds[k] >= 0)
				close(w->fds[k]);
		free(w->fds);
		w->fds = NULL;
	} else if (w->fd >= 0) {
		close(w->fd);
	}
	w->fd = -1;
}

int worker_open_target(struct worker *w, struct errbuf *err)
{
	const struct job *job = w->job;
	int flags = rw_modifies(job->rw) || (job->engine->flags & ENGINE_RDWR) ?
		    O_RDWR : O_RDONLY;

	/* fio's diskless engines (null) open no file; the file-operation
	 * engines do their own operation on each file instead. */
	if (job->engine->flags & (ENGINE_DISKLESS | ENGINE_FILE_OPS))
		return 0;
	if (job->direct && !(job->engine->flags & ENGINE_NO_ODIRECT))
		flags |= O_DIRECT;
	flags |= (int)job->sync_flags;
	if (w->nr_files > 1 && (job->engine->flags & ENGINE_UNIT_FD)) {
		return worker_open_files(w, flags, err);
	}
	/* create_on_open, fill_device and file_append leave making the file
	 * to the job's open, as fio's */
	if (job->allow_file_create)
		flags |= O_CREAT;
	w->open_flags = flags;
	w->fd = open_target_file(w->path, flags);
	if (w->fd < 0)
		return err_set(err, errno, "%s: cannot open%s: %s", w->path,
			       flags & O_DIRECT ? " with O_DIRECT" : "", strerror(errno));
	advise_file(job, w->fd, w->region_start, w->region_len);
	return set_write_hint(job, w->fd, w->path, err);
}

/* fio's unlink: the job's regular files go when it ends (a device named
 * as filename= stays, as in fio). */
void worker_unlink_files(const struct worker *w)
{
	char path[4096];
	struct stat st;

	for (unsigned int k = 0; k < (w->nr_files ? w->nr_files : 1); k++)
		if (!worker_file_path(w, k, path, sizeof(path)) &&
		    !stat(path, &st) && S_ISREG(st.st_mode))
			unlink(path);
}

/* A regular file's pages of the region go (posix_fadvise); a block
 * device's cache is flushed whole (BLKFLSBUF), retried while it says
 * EAGAIN, as fio does for multipath maps being updated. */
static void invalidate_fd(int fd, uint64_t offset, uint64_t len)
{
	struct stat st;

	if (fd < 0 || fstat(fd, &st))
		return;
	if (S_ISREG(st.st_mode)) {
		posix_fadvise(fd, (off_t)offset, (off_t)len, POSIX_FADV_DONTNEED);
		return;
	}
	if (!S_ISBLK(st.st_mode))
		return;
	for (int tries = 0; ioctl(fd, BLKFLSBUF, 0) < 0 && errno == EAGAIN &&
	     tries < 25; tries++)
		usleep(10000);
}

int worker_open_file(struct worker *w, unsigned int k, struct errbuf *err)
{
	int ret = open_one(w, k, w->open_flags, err);

	/* fio drops the cache at each open of a file (td_io_open_file) */
	if (!ret && w->job->invalidate)
		invalidate_fd(w->fds[k], w->region_start, worker_file_bytes(w, k));
	return ret;
}

void worker_close_file(struct worker *w, unsigned int k)
{
	if (w->fds[k] >= 0)
		close(w->fds[k]);
	w->fds[k] = -1;
}

void worker_invalidate_cache(const struct worker *w)
{
	if (!w->job->invalidate || job_engine_takes_files(w->job))
		return;
	if (!w->fds) {
		invalidate_fd(w->fd, w->region_start, w->region_len);
		return;
	}
	for (unsigned int k = 0; k < w->nr_files; k++)
		invalidate_fd(w->fds[k], w->region_start, worker_file_bytes(w, k));
}

/* @path opened again with @flags into descriptor @fd, which the engine
 * and the units hold.  With @close_first the file closes first, so that
 * a block device's last close writes it back and drops its cache as
 * fio's close does; /dev/null holds @fd meanwhile, so no other thread of
 * the process (the workers of thread=1) is given it.  Without, @fd stays
 * valid throughout for the I/O under way. */
static int reopen_into(int fd, const char *path, int flags, bool close_first)
{
	int hold = -1, fresh = -1, ret = 0;

	if (close_first) {
		hold = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (hold < 0 || dup3(hold, fd, O_CLOEXEC) < 0) {
			ret = -errno;
			goto cleanup;
		}
	}
	fresh = open_target_file(path, flags);
	if (fresh < 0 || dup3(fresh, fd, O_CLOEXEC) < 0)
		ret = -errno;
cleanup:
	if (fresh >= 0)
		close(fresh);
	if (hold >= 0)
		close(hold);
	return ret;
}

int worker_reopen_files(struct worker *w, bool close_first, struct errbuf *err)
{
	unsigned int nr = w->fds ? w->nr_files : 1;
	char buf[4096];

	for (unsigned int k = 0; k < nr; k++) {
		int fd = w->fds ? w->fds[k] : w->fd, ret;
		uint64_t len = w->fds ? worker_file_bytes(w, k) : w->region_len;
		const char *path = worker_file_name(w, k, buf, sizeof(buf));

		if (fd < 0)
			continue;
		ret = reopen_into(fd, path, w->open_flags, close_first);
		if (ret)
			return err_set(err, -ret, "%s: cannot open again for the next loop: %s",
				       path, strerror(-ret));
		advise_file(w->job, fd, w->region_start, len);
		ret = set_write_hint(w->job, fd, path, err);
		if (ret)
			return ret;
		if (w->job->invalidate)
			invalidate_fd(fd, w->region_start, len);
	}
	return 0;
}
