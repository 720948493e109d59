// SPDX-License-Identifier: GPL-2.0
/*
 * filecreate: fio's engine that creates the job's files and times each
 * open(O_CREAT): nothing is read or written, nothing laid out before
 * (ENGINE_DISKLESS), and the latency reported is the creates'.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "workload/engines/file_ops.h"

/* fio's mode and flags; the descriptor is closed untimed. */
static int create_file(const struct worker *w, const char *path)
{
	int fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0600);

	(void)w;
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static const struct file_op create_op = { "create", create_file };

FILE_OPS_ENGINE(filecreate, create_op, ENGINE_DISKLESS, file_ops_init, NULL);
