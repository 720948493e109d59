// SPDX-License-Identifier: GPL-2.0
/*
 * Reading job files whole, and bounded.
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
