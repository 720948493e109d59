/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What fio's file-operation engines (filecreate, filestat, filedelete,
 * dircreate, dirstat, dirdelete) share: each file of the job gets one
 * operation, timed, when the job first reaches it in a pass over the
 * files (fio's open_file), whether an I/O fits in it or not; the I/Os
 * themselves move nothing and complete at once (ENGINE_FILE_OPS).
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

/* The engine's state: @op, and the pass each file was last opened in. */
int file_ops_init(struct worker *w, const struct file_op *op,
		  struct errbuf *err);
void file_ops_cleanup(struct worker *w);

/* open_file() of a file-operation engine (fio's open_file): runs the
 * engine's operation on file @k the first time the job reaches it in
 * @pass. */
int file_ops_open_file(struct worker *w, unsigned int k, unsigned int pass,
		       uint64_t *op_ns);
/* queue() of a file-operation engine: the I/O moves nothing and
 * completes at once. */
enum io_result file_ops_queue(struct worker *w, struct io_unit *u);

/* Defines @engine##_engine, the file-operation engine fio calls @engine,
 * whose open_file() runs @op on each file: the operation is all that
 * differs between these engines.  @flags adds to ENGINE_SYNC |
 * ENGINE_FILE_OPS (ENGINE_DISKLESS when nothing is laid out before the
 * run); @init is file_ops_init or file_ops_init_dirs; @options NULL or
 * file_ops_stat_options.  None verifies: its I/Os carry no data. */
#define FILE_OPS_ENGINE(engine, op, flags_, init_, options_)            \
	static int engine##_init(struct worker *w, struct errbuf *err)  \
	{                                                               \
		return init_(w, &(op), err);                            \
	}                                                               \
	const struct engine_ops engine##_engine = {                     \
		.name = #engine,                                        \
		.flags = ENGINE_SYNC | ENGINE_FILE_OPS | (flags_),      \
		.init = engine##_init,                                  \
		.queue = file_ops_queue,                                \
		.open_file = file_ops_open_file,                        \
		.cleanup = file_ops_cleanup,                            \
		.check_job = engine_refuse_verify,                      \
		.options = options_,                                    \
	}

/* mkdir(2) with fio's mode 0700: dircreate's operation. */
extern const struct file_op file_ops_mkdir;

/* init of dirstat and dirdelete: file_ops_init, then a directory for
 * every file of the worker, untimed, an existing one kept (fio's
 * setup_dirs). */
int file_ops_init_dirs(struct worker *w, const struct file_op *op,
		       struct errbuf *err);

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
