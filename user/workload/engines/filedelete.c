// SPDX-License-Identifier: GPL-2.0
/*
 * filedelete: fio's engine that unlinks each of the job's files (laid out
 * before the run, filesize bytes each), timing the unlink(2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <unistd.h>

#include "workload/engines/file_ops.h"

static int delete_file(const struct worker *w, const char *path)
{
	(void)w;
	return unlink(path) < 0 ? -errno : 0;
}

static const struct file_op delete_op = { "unlink", delete_file };

FILE_OPS_ENGINE(filedelete, delete_op, 0, file_ops_init, NULL);
