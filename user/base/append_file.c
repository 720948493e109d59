// SPDX-License-Identifier: GPL-2.0
/* Whole additions at the end of a shared file (base/append_file.h). */
#include <errno.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "base/append_file.h"
#include "base/atomic_file.h"

int append_file_locked(const char *path, const void *buf, size_t len)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644), ret;

	if (fd < 0)
		return -errno;
	/* the lock goes with the close */
	ret = flock(fd, LOCK_EX) ? -errno : fd_write_all(fd, buf, len);
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}
