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
	size_t len = 0, off = 0;
	FILE *mem;
	int ret = 0;

	mem = open_memstream(&buf, &len);
	if (!mem)
		return -errno;
	ret = render_formats(res, o->output_format, mem);
	if (fclose(mem) && !ret)
		ret = -ENOMEM;
	while (!ret && off < len) {
		ssize_t n = write(fd, buf + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			ret = n < 0 ? -errno : -EIO;
		else
			off += (size_t)n;
	}
	free(buf);
	return ret;
}

/* Creates the report's file in @path's directory.  O_TMPFILE gives it no
 * name until it is complete, so even SIGKILL leaves nothing behind; where
 * the filesystem has no O_TMPFILE, a named temp file is the fallback. */
static int open_unnamed(const char *path, char *tmp, size_t len, bool *named)
{
	const char *slash = strrchr(path, '/');
	char dir[4200];
	int fd;

	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	*named = false;
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd < 0 ? -errno : fd;
	snprintf(tmp, len, "%s.iodig-tmp-XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	fchmod(fd, 0644);
	*named = true;
	return fd;
}

/* --output=FILE: FILE is either the complete report or untouched. */
int output_report(const struct repeat_result *rep, const struct run_opts *o,
			 struct errbuf *err)
{
	char tmp[4200] = "", fdpath[64];
	bool named;
	int fd, ret;

	if (!o->output_path) {
		fflush(stdout);
		ret = write_report(rep, o, STDOUT_FILENO);
		return ret ? err_set(err, -ret, "writing the report to stdout failed: %s",
				     strerror(-ret)) : 0;
	}
	fd = open_unnamed(o->output_path, tmp, sizeof(tmp), &named);
	if (fd < 0)
		return err_set(err, -fd, "option --output: cannot create a file next to %s: %s",
			       o->output_path, strerror(-fd));
	ret = write_report(rep, o, fd);
	if (!ret && fsync(fd))
		ret = -errno;
	if (!ret && !named) {
		/* Give it a name only now; that name lives for microseconds. */
		snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", fd);
		snprintf(tmp, sizeof(tmp), "%s.iodig-tmp-%d", o->output_path, (int)getpid());
		unlink(tmp);
		if (linkat(AT_FDCWD, fdpath, AT_FDCWD, tmp, AT_SYMLINK_FOLLOW))
			ret = -errno;
		else
			named = true;
	}
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, o->output_path))
		ret = -errno;
	if (ret) {
		if (named)
			unlink(tmp);
		return err_set(err, -ret, "option --output: writing %s failed: %s",
			       o->output_path, strerror(-ret));
	}
	return 0;
}
