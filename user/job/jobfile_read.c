// SPDX-License-Identifier: GPL-2.0
/*
 * Reading job files whole, bounded, and finding the file an include
 * directive names, as fio does.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "job/jobfile_read.h"

int read_text(const char *path, char **out, size_t *out_len, struct stat *sb)
{
	size_t len = 0, cap = 64 << 10;
	char *buf = NULL, *bigger;
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, sb))
		ret = -errno;
	else if (S_ISDIR(sb->st_mode))
		ret = -EISDIR;
	while (!ret) {
		if (!buf || len == cap) {
			if (buf)
				cap *= 2;
			if (cap > JOBFILE_MAX_BYTES + 1)
				cap = JOBFILE_MAX_BYTES + 1;
			bigger = realloc(buf, cap);
			if (!bigger) {
				ret = -ENOMEM;
				break;
			}
			buf = bigger;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : 0;
			break;
		}
		len += (size_t)n;
		if (len > JOBFILE_MAX_BYTES)
			ret = -EFBIG;
	}
	close(fd);
	if (ret) {
		free(buf);
		return ret;
	}
	*out = buf;
	*out_len = len;
	return 0;
}

const char *read_error(int ret)
{
	static const char too_big[] = "larger than 16777216 bytes";

	_Static_assert(JOBFILE_MAX_BYTES == 16777216, "the message says so");
	return ret == -EFBIG ? too_big : strerror(-ret);
}

void include_path(const char *including, const char *arg, char *out,
		  size_t len)
{
	const char *slash = strrchr(including, '/');

	if (arg[0] == '/' || !slash || !access(arg, F_OK))
		snprintf(out, len, "%s", arg);
	else
		snprintf(out, len, "%.*s%s", (int)(slash - including + 1),
			 including, arg);
}
