// SPDX-License-Identifier: GPL-2.0
/*
 * psync: one pread/pwrite per I/O on the worker's thread, fio's default
 * engine.  It takes no options (fio's pvsync2 is the one with per-I/O
 * flags).
 */
#define _GNU_SOURCE
#include <unistd.h>

#include "workload/engines/shared.h"

static ssize_t psync_call(int fd, const struct io_unit *u)
{
	off_t off = (off_t)u->offset;

	return u->ddir == DDIR_WRITE ? pwrite(fd, u->buf, u->len, off)
				     : pread(fd, u->buf, u->len, off);
}

SYSCALL_ENGINE(psync, psync_call, 0, NULL, NULL);
