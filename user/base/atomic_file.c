// SPDX-License-Identifier: GPL-2.0
/* A file that appears complete or not at all (see atomic_file.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/atomic_file.h"

int atomic_file_open(struct atomic_file *af, const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];

	struct stat st;

	af->fd = -1;
	af->named = false;
	af->in_place = false;
	af->tmp[0] = '\0';
	if (strlen(path) >= sizeof(af->path))
		return -ENAMETOOLONG;
	strcpy(af->path, path);
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		if (S_ISDIR(st.st_mode))
			return -EISDIR;
		af->fd = open(path, O_WRONLY | O_CLOEXEC);
		af->in_place = af->fd >= 0;
		return af->fd >= 0 ? 0 : -errno;
	}
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	af->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
	if (af->fd >= 0)
		return 0;
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
		return -errno;
	snprintf(af->tmp, sizeof(af->tmp), "%s.iodig-tmp-XXXXXX", path);
	af->fd = mkstemp(af->tmp);
	if (af->fd < 0)
		return -errno;
	fchmod(af->fd, 0644);
	af->named = true;
	return 0;
}

int atomic_file_commit(struct atomic_file *af, bool sync)
{
	char fdpath[64];
	int ret = 0;

	if (af->in_place) {
		ret = close(af->fd) ? -errno : 0;
		af->fd = -1;
		af->in_place = false;
		return ret;
	}
	if (sync && fsync(af->fd))
		ret = -errno;
	if (!ret && !af->named) {
		/* Give it a name only now; that name lives for microseconds. */
		snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", af->fd);
		snprintf(af->tmp, sizeof(af->tmp), "%s.iodig-tmp-%d", af->path, (int)getpid());
		unlink(af->tmp);
		if (linkat(AT_FDCWD, fdpath, AT_FDCWD, af->tmp, AT_SYMLINK_FOLLOW))
			ret = -errno;
		else
			af->named = true;
	}
	if (close(af->fd) && !ret)
		ret = -errno;
	af->fd = -1;
	if (!ret && rename(af->tmp, af->path))
		ret = -errno;
	if (ret)
		atomic_file_abort(af);
	af->named = false;
	return ret;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (af->fd >= 0)
		close(af->fd);
	af->fd = -1;
	af->in_place = false;
	if (af->named)
		unlink(af->tmp);
	af->named = false;
}

int fd_write_all(int fd, const void *buf, size_t len)
{
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, (const char *)buf + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		off += (size_t)n;
	}
	return 0;
}

int atomic_file_write(const char *path, const void *buf, size_t len)
{
	struct atomic_file af;
	int ret = atomic_file_open(&af, path);

	if (ret)
		return ret;
	ret = fd_write_all(af.fd, buf, len);
	if (ret) {
		atomic_file_abort(&af);
		return ret;
	}
	return atomic_file_commit(&af, false);
}
