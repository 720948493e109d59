// SPDX-License-Identifier: GPL-2.0
/*
 * falloc: fio's engine whose I/Os are fallocate(2) calls over the I/O's
 * range: a read allocates without changing the file size
 * (FALLOC_FL_KEEP_SIZE), a write allocates and extends it (mode 0), a
 * trim punches a hole (PUNCH_HOLE | KEEP_SIZE).  The file is opened read-write for every job, as fio's
 * falloc opens it.
 */
#define _GNU_SOURCE
#include <fcntl.h>

#include "workload/engines/shared.h"

/* A block device takes only hole punching and zeroing (block/fops.c):
 * both fio modes here would fail with EOPNOTSUPP on every I/O. */
static int falloc_init(struct worker *w, struct errbuf *err)
{
	return engine_need_regular_file(w, "fallocate allocates blocks only "
					"to files (a device refuses both modes "
					"with EOPNOTSUPP)", err);
}

/* The whole unit counts as allocated, as fio counts it. */
static ssize_t falloc_call(int fd, const struct io_unit *u)
{
	int mode = u->ddir == DDIR_READ ? FALLOC_FL_KEEP_SIZE :
		   u->ddir == DDIR_TRIM ? FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE : 0;

	return fallocate(fd, mode, (off_t)u->offset, (off_t)u->len) < 0 ?
		       -1 : (ssize_t)u->len;
}

SYSCALL_ENGINE(falloc, falloc_call, ENGINE_RDWR | ENGINE_OWN_TRIM, falloc_init,
	       engine_refuse_verify);
