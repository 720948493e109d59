// SPDX-License-Identifier: GPL-2.0
/*
 * dirdelete: fio's engine (fio 3.34 on; 3.33 lacks it) that makes one
 * directory per file of the job before the run (an existing one is kept)
 * and times the rmdir(2) of each.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <unistd.h>

#include "workload/engines/file_ops.h"

static int remove_dir(const struct worker *w, const char *path)
{
	(void)w;
	return rmdir(path) < 0 ? -errno : 0;
}

static const struct file_op rmdir_op = { "rmdir", remove_dir };

FILE_OPS_ENGINE(dirdelete, rmdir_op, ENGINE_DISKLESS, file_ops_init_dirs, NULL);
