// SPDX-License-Identifier: GPL-2.0
/*
 * pvsync: one preadv/pwritev of a single iovec per I/O on the worker's
 * thread, as fio's pvsync engine.
 */
#define _GNU_SOURCE
#include <sys/uio.h>

#include "workload/engines/shared.h"

static ssize_t pvsync_call(int fd, const struct io_unit *u)
{
	struct iovec iov = { .iov_base = u->buf, .iov_len = u->len };
	off_t off = (off_t)u->offset;

	return u->ddir == DDIR_WRITE ? pwritev(fd, &iov, 1, off)
				     : preadv(fd, &iov, 1, off);
}

SYSCALL_ENGINE(pvsync, pvsync_call, 0, NULL, NULL);
