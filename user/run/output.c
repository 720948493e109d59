// SPDX-License-Identifier: GPL-2.0
/*
 * Writing the report: to stdout, or to --output=FILE so that FILE is either
 * the complete report or untouched, whatever happens (ENOSPC, SIGKILL).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "base/atomic_file.h"
#include "run/output.h"

static int render_json_plus(const struct repeat_result *res, FILE *out)
{
	struct json_object *tree = NULL;
	int ret = report_json_tree_fmt(&res->rep, true, &tree);

	if (!ret)
		ret = repeat_render_json_tree(res, tree, out);
	json_object_put(tree);
	return ret;
}

/* fio prints the terse lines first; iodig keeps its text before JSON. */
static int render_formats(const struct repeat_result *res, unsigned int fmt, FILE *out)
{
	int ret = 0;

	if (fmt & OUTPUT_TERSE)
		ret = report_terse(&res->rep, out);
	if (!ret && (fmt & OUTPUT_NORMAL)) {
		ret = report_text(&res->rep, out);
		repeat_render_text(res, out);
	}
	if (!ret && (fmt & OUTPUT_JSONPLUS))
		ret = render_json_plus(res, out);
	else if (!ret && (fmt & OUTPUT_JSON))
		ret = repeat_render_json(res, out);
	return ret;
}

/* Renders the whole report in memory, then writes it with write(2): a
 * failure then has its own errno (ENOSPC, EPIPE, EIO), which stdio's
 * buffering would have turned into a bare error flag. */
static int write_report(const struct repeat_result *res, const struct run_opts *o,
			int fd)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem;
	int ret = 0;

	mem = open_memstream(&buf, &len);
	if (!mem)
		return -errno;
	ret = render_formats(res, o->output_format, mem);
	if (fclose(mem) && !ret)
		ret = -ENOMEM;
	if (!ret)
		ret = fd_write_all(fd, buf, len);
	free(buf);
	return ret;
}

/* --output=FILE: FILE is either the complete report or untouched. */
int output_report(const struct repeat_result *rep, const struct run_opts *o,
			 struct errbuf *err)
{
	struct atomic_file af;
	int ret;

	if (!o->output_path) {
		fflush(stdout);
		ret = write_report(rep, o, STDOUT_FILENO);
		return ret ? err_set(err, -ret, "writing the report to stdout failed: %s",
				     strerror(-ret)) : 0;
	}
	ret = atomic_file_open(&af, o->output_path);
	if (ret)
		return err_set(err, -ret, "option --output: cannot create a file next to %s: %s",
			       o->output_path, strerror(-ret));
	ret = write_report(rep, o, af.fd);
	if (ret)
		atomic_file_abort(&af);
	else
		ret = atomic_file_commit(&af, true);
	if (ret)
		return err_set(err, -ret, "option --output: writing %s failed: %s",
			       o->output_path, strerror(-ret));
	return 0;
}
