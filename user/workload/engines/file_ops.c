// SPDX-License-Identifier: GPL-2.0
/*
 * The file-operation engines' common part: which file an I/O reaches, its
 * one timed operation, the error that names it, and stat_type.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "workload/engines/file_ops.h"
#include "workload/files.h"
#include "workload/worker.h"

struct file_ops_data {
	const struct file_op *op;
	unsigned int *opened;  /* per file: the pass it was last opened in */
};

static unsigned int nr_files(const struct worker *w)
{
	return w->nr_files ? w->nr_files : 1;
}

void file_ops_cleanup(struct worker *w)
{
	struct file_ops_data *d = w->engine_data;

	if (!d)
		return;
	free(d->opened);
	free(d);
	w->engine_data = NULL;
}

int file_ops_init(struct worker *w, const struct file_op *op,
		  struct errbuf *err)
{
	struct file_ops_data *d = calloc(1, sizeof(*d));

	if (d)
		d->opened = calloc(nr_files(w), sizeof(*d->opened));
	if (!d || !d->opened) {
		free(d);
		return err_set(err, ENOMEM, "%s: out of memory for %u files",
			       w->job->engine->name, nr_files(w));
	}
	d->op = op;
	w->engine_data = d;
	return 0;
}

/* The worker keeps the first error it is told of; this one names the
 * file and the operation, which the failed I/O alone cannot. */
static void file_op_failed(struct worker *w, const struct file_op *op,
			   const char *path, int ret)
{
	struct worker_stats *s = w->stats;

	if (s->error)
		return;
	s->error = ret;
	snprintf(s->errmsg, sizeof(s->errmsg), "%s: %s of %s failed: %s",
		 w->job->engine->name, op->what, path, strerror(-ret));
}

int file_ops_open_file(struct worker *w, unsigned int k, unsigned int pass,
		       uint64_t *op_ns)
{
	struct file_ops_data *d = w->engine_data;
	char path[PATH_MAX];
	uint64_t t0;
	int ret;

	if (k >= nr_files(w) || d->opened[k] == pass)
		return 0;
	d->opened[k] = pass;
	ret = worker_file_path(w, k, path, sizeof(path));
	if (!ret) {
		t0 = now_ns();
		ret = d->op->run(w, path);
		*op_ns = now_ns() - t0;
	}
	if (ret) {
		file_op_failed(w, d->op, path, ret);
		return ret;
	}
	return 1;
}

enum io_result file_ops_queue(struct worker *w, struct io_unit *u)
{
	(void)w;
	u->result = u->len;
	return IO_COMPLETED;
}

static int make_dir(const struct worker *w, const char *path)
{
	(void)w;
	return mkdir(path, 0700) < 0 ? -errno : 0;
}

const struct file_op file_ops_mkdir = { "mkdir", make_dir };

int file_ops_init_dirs(struct worker *w, const struct file_op *op,
		       struct errbuf *err)
{
	char path[PATH_MAX];
	int ret = file_ops_init(w, op, err);

	for (unsigned int k = 0; !ret && k < nr_files(w); k++) {
		ret = worker_file_path(w, k, path, sizeof(path));
		if (!ret)
			ret = make_dir(w, path);
		if (ret == -EEXIST)
			ret = 0;
		if (ret)
			ret = err_set(err, -ret, "%s: mkdir of %s failed: %s",
				      w->job->engine->name, path, strerror(-ret));
	}
	if (ret)
		file_ops_cleanup(w);
	return ret;
}

OPT_VALUES(stat_types,
	OPT_VAL("stat", STAT_STAT),
	OPT_VAL("lstat", STAT_LSTAT),
	OPT_VAL("statx", STAT_STATX));

const struct opt_desc file_ops_stat_options[] = {
	{ .name = "stat_type", .type = OPT_ENUM,
	  OPT_FIELD(struct stat_opts, stat_type), .values = stat_types,
	  .def = "stat", .help = "The call that stats each file: stat, "
				 "lstat or statx" },
	{ .name = NULL },
};

/* statx as fio calls it: on the absolute path, with every field. */
static int statx_abs(const char *path)
{
	struct statx stx;
	char *abs = realpath(path, NULL);
	int ret;

	if (!abs)
		return -errno;
	ret = statx(-1, abs, 0, STATX_BASIC_STATS | STATX_BTIME, &stx);
	ret = ret < 0 ? -errno : 0;
	free(abs);
	return ret;
}

static int stat_path(const struct worker *w, const char *path)
{
	const struct stat_opts *o = engine_opts_of(w->job);
	struct stat st;

	switch (o->stat_type) {
	case STAT_LSTAT:
		return lstat(path, &st) < 0 ? -errno : 0;
	case STAT_STATX:
		return statx_abs(path);
	default:
		return stat(path, &st) < 0 ? -errno : 0;
	}
}

const struct file_op file_ops_stat = { "stat", stat_path };
