// SPDX-License-Identifier: GPL-2.0
/*
 * fio's pre_read (filesetup.c's pre_read_file): plain read(2)s of the
 * job's region, so the pages land in the page cache whatever engine then
 * does the job's I/O.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload/engine.h"
#include "workload/files.h"
#include "workload/io_loop.h"
#include "workload/pre_read.h"
#include "workload/worker.h"

int pre_read_resolve(struct job *job, const char *where, struct errbuf *err)
{
	if (!job->pre_read)
		return 0;
	if (job->direct)
		return err_set(err, EINVAL, "%s: option 'pre_read': direct=1 reads bypass the "
			       "page cache the pre-read fills (fio 3.33 fails such a job with EIO)",
			       where);
	if (job->engine->flags & (ENGINE_DISKLESS | ENGINE_FILE_OPS))
		return err_set(err, EINVAL, "%s: option 'pre_read': ioengine=%s reads no file "
			       "data to pre-read (fio 3.33 fails or crashes)", where,
			       job->ioengine);
	job->invalidate = false;
	return 0;
}

/* @len bytes of @fd from @offset, @bs at a time, until the run stops
 * (fio's terminate); 0, or -errno (-EIO for a short read) with *@at where
 * it stopped.  lseek and read(2), as fio's pre_read_file. */
static int read_region(const struct worker *w, int fd, uint64_t offset, uint64_t len,
		       char *buf, size_t bs, uint64_t *at)
{
	*at = offset;
	if (lseek(fd, (off_t)offset, SEEK_SET) < 0)
		return -errno;
	while (*at < offset + len && !worker_stopped(w)) {
		size_t n = offset + len - *at < bs ? (size_t)(offset + len - *at) : bs;
		ssize_t r = read(fd, buf, n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if ((size_t)r != n)
			return -EIO;
		*at += n;
	}
	return 0;
}

int worker_pre_read(const struct worker *w, struct errbuf *err)
{
	size_t bs = w->job->bs_max[DDIR_READ];
	unsigned int nr = w->fds ? w->nr_files : 1;
	char *buf = malloc(bs), name[4096];
	int ret = buf ? 0 : -ENOMEM;

	if (ret)
		err_set(err, ENOMEM, "pre_read: no memory for a %zu-byte buffer", bs);
	for (unsigned int k = 0; !ret && k < nr; k++) {
		int fd = w->fds ? w->fds[k] : w->fd;
		uint64_t len = w->fds ? worker_file_bytes(w, k) : w->region_len, at = 0;
		struct stat st;

		/* fio skips character devices and pipes */
		if (fd < 0 || fstat(fd, &st) || !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)))
			continue;
		ret = read_region(w, fd, w->region_start, len, buf, bs, &at);
		if (ret)
			err_set(err, -ret, "pre_read of %s stopped at byte %llu: %s",
				worker_file_name(w, k, name, sizeof(name)),
				(unsigned long long)at, strerror(-ret));
	}
	free(buf);
	return ret;
}
