/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's opendir=DIR: the regular files under DIR, found when the job is
 * parsed, join the files filename= lists.
 */
#ifndef IODIG_OPENDIR_OPT_H
#define IODIG_OPENDIR_OPT_H

#include "base/errbuf.h"
#include "workload/job.h"

/* Appends every regular file under job->opendir (recursively, in
 * readdir order, descending into a directory where it is met, as fio's
 * recurse_dir) to job->filename, after the files filename= gave.
 * Symbolic links and other non-regular entries are skipped, as in fio.
 * A directory that cannot be read, or holds no regular file, is an
 * error; @where names the job. */
int opendir_resolve(struct job *job, const char *where, struct errbuf *err);

#endif /* IODIG_OPENDIR_OPT_H */
