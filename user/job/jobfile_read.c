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

#include "base/read_whole.h"
#include "job/jobfile_read.h"

int read_text(const char *path, char **out, size_t *out_len, struct stat *sb)
{
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, sb))
		ret = -errno;
	else if (S_ISDIR(sb->st_mode))
		ret = -EISDIR;
	else
		ret = read_whole(fd, JOBFILE_MAX_BYTES, out, out_len);
	close(fd);
	return ret;
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
