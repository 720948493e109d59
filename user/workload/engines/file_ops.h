/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fio's file-operation engines (filecreate, filestat, filedelete,
 * dircreate, dirstat, dirdelete) share: each file of the job gets one
 * operation, timed, when an I/O first reaches it; the I/Os themselves
 * move nothing and complete at once (ENGINE_FILE_OPS).
 */
#ifndef IODIG_ENGINES_FILE_OPS_H
#define IODIG_ENGINES_FILE_OPS_H

#include "base/errbuf.h"
#include "base/option.h"
#include "workload/engine.h"
#include "workload/engines/shared.h"

struct worker;

/* One operation on @path; 0 or -errno.  @what names it for errors. */
struct file_op {
	const char *what;   /* "create", "stat", ... */
	int (*run)(const struct worker *w, const char *path);
};

/* The engine's state: which files are done. */
int file_ops_init(struct worker *w, struct errbuf *err);
void file_ops_cleanup(struct worker *w);

/* queue() of a file-operation engine: runs @op on the file that @u's
 * offset falls in, the first time one does, and completes @u. */
enum io_result file_ops_queue(struct worker *w, struct io_unit *u,
			      const struct file_op *op);

/* Defines @engine##_engine, the file-operation engine fio calls @engine,
 * whose queue() runs @op on each file: the operation is all that differs
 * between these engines.  @flags adds to ENGINE_SYNC | ENGINE_FILE_OPS
 * (ENGINE_DISKLESS when nothing is laid out before the run); @init is
 * file_ops_init or file_ops_init_dirs; @options NULL or
 * file_ops_stat_options.  None verifies: its I/Os carry no data. */
#define FILE_OPS_ENGINE(engine, op, flags_, init_, options_)            \
	static enum io_result engine##_queue(struct worker *w,          \
					     struct io_unit *u)         \
	{                                                               \
		return file_ops_queue(w, u, &(op));                     \
	}                                                               \
	const struct engine_ops engine##_engine = {                     \
		.name = #engine,                                        \
		.flags = ENGINE_SYNC | ENGINE_FILE_OPS | (flags_),      \
		.init = init_,                                          \
		.queue = engine##_queue,                                \
		.cleanup = file_ops_cleanup,                            \
		.check_job = engine_refuse_verify,                      \
		.options = options_,                                    \
	}

/* mkdir(2) with fio's mode 0700: dircreate's operation. */
extern const struct file_op file_ops_mkdir;

/* init of dirstat and dirdelete: file_ops_init, then a directory for
 * every file of the worker, untimed, an existing one kept (fio's
 * setup_dirs). */
int file_ops_init_dirs(struct worker *w, struct errbuf *err);

/* stat_type, the option of filestat and dirstat. */
enum stat_type { STAT_STAT = 1, STAT_LSTAT = 2, STAT_STATX = 3 };
struct stat_opts {
	unsigned int stat_type;
};
extern const struct opt_desc file_ops_stat_options[];
/* stat(2), lstat(2) or statx(2), as stat_type says: the operation of
 * filestat and dirstat. */
extern const struct file_op file_ops_stat;

#endif /* IODIG_ENGINES_FILE_OPS_H */
