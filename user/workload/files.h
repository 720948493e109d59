/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A job's files, fio's way: without filename=, clone C of job J has
 * nrfiles files named J.C.0, J.C.1, ... in directory= (or the current
 * directory), each filesize bytes (or size / nrfiles).  Only engines that
 * reach the files themselves (null, the file-operation engines) take more
 * than one; the others do I/O on one file per clone.
 */
#ifndef IODIG_FILES_H
#define IODIG_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/errbuf.h"
#include "workload/job.h"

struct worker;

/* Refuses nrfiles > 1 for an engine that opens one file per clone; @where
 * names the job.  Runs once the job's engine is known. */
int job_check_files(const struct job *job, const char *where,
		    struct errbuf *err);

/* Whether @job's engine reaches several files itself (nrfiles > 1). */
bool job_engine_takes_files(const struct job *job);

/* fio's name of file @k of clone @clone of @job: "<directory>/<job>.<clone>.<k>"
 * ("." without directory=), or filename_format's with its $jobname, $jobnum,
 * $filenum and $clientuid.  -ENAMETOOLONG when it does not fit @len. */
int job_file_name(const struct job *job, unsigned int clone, unsigned int k,
		  char *buf, size_t len);

/* How many files filename= lists ("a:b:c" is 3; 0 without filename=). */
unsigned int job_filename_count(const struct job *job);
/* The path of the @k-th file filename= lists, under directory= when it is
 * relative, as fio does.  -ENOENT past the last. */
int job_listed_file(const struct job *job, unsigned int k, char *buf,
		    size_t len);

/* The sizes fio gives @nr files of @job: each file's bytes (*@file_size)
 * and all of them (*@region): filesize= each, or size= shared.  -ENODATA
 * when the job gives neither (the file's own size decides). */
int job_file_sizes(const struct job *job, unsigned int nr,
		   uint64_t *file_size, uint64_t *region);

/* The bytes of file @k of worker @w the I/O covers (filesize=LOW-HIGH
 * gives each file its own). */
uint64_t worker_file_bytes(const struct worker *w, unsigned int k);
/* The path of file @k of worker @w (0 <= k < w->nr_files). */
int worker_file_path(const struct worker *w, unsigned int k, char *buf,
		     size_t len);

/* fio's own name of file @k of worker @w (its f->file_name): as listed
 * in filename= (under directory=), or "j.0.0" without "./" when the job
 * names its files and gives no directory=. */
int worker_fio_file_name(const struct worker *w, unsigned int k, char *buf,
			 size_t len);

/* The path of file @k of worker @w, in @buf, or w->path when the worker
 * has one file (or @k's name does not fit). */
const char *worker_file_name(const struct worker *w, unsigned int k, char *buf,
			     size_t len);

/* Opens each of @w's files with @flags (O_CREAT with allow_file_create)
 * into w->fds, fds[0] also as w->fd, each advised as fadvise_hint says. */
int worker_open_files(struct worker *w, int flags, struct errbuf *err);
/* What iodig does on each of @job's files outside the file service's
 * I/O, so needs every file open from the start; NULL: none. */
const char *files_opened_together(const struct job *job);
/* The worker's files open and close as its file service goes
 * (workload/open_files.h), none is open up front: below openfiles, and
 * as fio without it when nothing needs every file open at once. */
bool worker_files_limited(const struct worker *w);
/* How many of them may be open at once: openfiles, else all. */
unsigned int worker_files_open_limit(const struct worker *w);
/* Opens file @k into w->fds[k] as worker_open_files() did, its cache
 * dropped with invalidate=1 as fio does at each open.  -errno, @err. */
int worker_open_file(struct worker *w, unsigned int k, struct errbuf *err);
/* fio's close of every file between loops and before the verify phase,
 * and its open as the job reaches each again: each file open closed
 * (with @close_first before it opens again, else after) and opened into
 * the same descriptor (the engine's), advised, hinted and with
 * invalidate=1 its cache dropped, as worker_open_file().  -errno, @err. */
int worker_reopen_files(struct worker *w, bool close_first, struct errbuf *err);
/* Closes file @k, w->fds[k] then -1. */
void worker_close_file(struct worker *w, unsigned int k);
/* Closes w->fds (or w->fd alone). */
void worker_close_files(struct worker *w);
/* Opens what the worker's I/O goes to: its file or device, or each of
 * several files (worker_open_files()); nothing for diskless and
 * file-operation engines.  Each regular file and block device opened gets
 * the job's fadvise_hint, as fio's open does.  -errno with the reason in
 * @err. */
int worker_open_target(struct worker *w, struct errbuf *err);
/* fio's unlink: removes the job's regular files. */
void worker_unlink_files(const struct worker *w);
/* fio's invalidate: with the job's invalidate=1 (its default), drops the
 * page cache of the job's region of each of its files (a block device's
 * whole cache), as fio does each time it opens them: before each loop and
 * before the verify phase.  As in fio a failure is no error: some files
 * have no cache to drop. */
void worker_invalidate_cache(const struct worker *w);

#endif /* IODIG_FILES_H */
