// SPDX-License-Identifier: GPL-2.0
/*
 * Switching a disk's I/O scheduler for a job (fio's ioscheduler) and
 * putting the old one back.  The write's own error is not the verdict:
 * as in fio, the file read back is, since a scheduler the kernel does not
 * have and "none" on a disk without schedulers fail in different ways.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "target/io_scheduler.h"

/* "none [mq-deadline] kyber \n" into @buf without the blank and newline
 * at its end; -errno. */
static int read_schedulers(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	if (n < 0)
		return -errno;
	buf[n] = '\0';
	n = (ssize_t)strcspn(buf, "\n");
	while (n && buf[n - 1] == ' ') /* the kernel ends the list with one */
		n--;
	buf[n] = '\0';
	return 0;
}

/* The bracketed name, the active one; the whole line when it has none. */
static void active_of(const char *list, char *out, size_t len)
{
	const char *open = strchr(list, '[');
	const char *close = open ? strchr(open, ']') : NULL;

	if (open && close)
		snprintf(out, len, "%.*s", (int)(close - open - 1), open + 1);
	else
		snprintf(out, len, "%s", list);
}

/* @disk's entry, a new one when it has none; NULL when @st is full. */
static struct io_sched_disk *entry_of(struct io_sched_state *st, const char *disk)
{
	struct io_sched_disk *d;

	for (unsigned int i = 0; i < st->nr; i++)
		if (!strcmp(st->d[i].disk, disk))
			return &st->d[i];
	if (st->nr == DISK_LIST_MAX)
		return NULL;
	d = &st->d[st->nr++];
	memset(d, 0, sizeof(*d));
	snprintf(d->disk, sizeof(d->disk), "%s", disk);
	return d;
}

int io_sched_switch(struct io_sched_state *st, const char *disk,
		    const char *name, struct errbuf *err)
{
	char path[128], before[256], after[256], want[IO_SCHED_NAME_LEN + 2];
	struct io_sched_disk *d = entry_of(st, disk);
	int fd, ret, wrote = 0;

	snprintf(path, sizeof(path), "/sys/block/%s/queue/scheduler", disk);
	if (!d)
		return err_set(err, ENOSPC, "cannot switch the io scheduler of %s: more than %d "
			       "disks switched", disk, DISK_LIST_MAX);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		err_set(err, ENOENT, "%s: os or kernel doesn't support IO scheduler switching",
			disk);
		return 1;
	}
	if (fd < 0)
		return err_set(err, errno, "cannot open %s: %s", path, strerror(errno));
	ret = read_schedulers(fd, before, sizeof(before));
	if (ret) {
		err_set(err, -ret, "cannot read %s: %s", path, strerror(-ret));
		goto out;
	}
	if (!d->switched)
		active_of(before, d->before, sizeof(d->before));
	/* put back even when the read back below finds it unchanged: a
	 * failed write may have left it anything */
	d->switched = true;
	/* an unknown name fails the write (EINVAL); the read back tells */
	if (write(fd, name, strlen(name)) < 0)
		wrote = -errno;
	ret = read_schedulers(fd, after, sizeof(after));
	if (ret) {
		err_set(err, -ret, "cannot read %s: %s", path, strerror(-ret));
		goto out;
	}
	snprintf(want, sizeof(want), "[%s]", name);
	if (!strcmp(after, "none")) {
		err_set(err, EINVAL, "%s: io scheduler is not tunable", disk);
		ret = 1;
	} else if (!strstr(after, want)) {
		ret = err_set(err, EINVAL, "unable to set io scheduler to %s: %s's are %s%s%s%s",
			      name, disk, after, wrote ? " (" : "",
			      wrote ? strerror(-wrote) : "", wrote ? ")" : "");
	} else {
		snprintf(d->used, sizeof(d->used), "%s", name);
		ret = 0;
	}
out:
	close(fd);
	return ret;
}

int io_sched_restore(struct io_sched_state *st, struct errbuf *err)
{
	int first = 0;

	for (unsigned int i = 0; i < st->nr; i++) {
		struct io_sched_disk *d = &st->d[i];
		char path[128];
		int fd, ret = 0;

		if (!d->switched)
			continue;
		d->switched = false;
		snprintf(path, sizeof(path), "/sys/block/%s/queue/scheduler", d->disk);
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, d->before, strlen(d->before)) < 0)
			ret = -errno;
		if (fd >= 0)
			close(fd);
		if (ret && !first)
			first = err_set(err, -ret, "cannot put back io scheduler %s of %s: %s",
					d->before, d->disk, strerror(-ret));
	}
	return first;
}
