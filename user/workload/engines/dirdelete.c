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
#include "workload/engines/shared.h"
#include "workload/worker.h"

static int remove_dir(const struct worker *w, const char *path)
{
	(void)w;
	return rmdir(path) < 0 ? -errno : 0;
}

static const struct file_op rmdir_op = { "rmdir", remove_dir };

static enum io_result dirdelete_queue(struct worker *w, struct io_unit *u)
{
	return file_ops_queue(w, u, &rmdir_op);
}

const struct engine_ops dirdelete_engine = {
	.name = "dirdelete",
	.flags = ENGINE_SYNC | ENGINE_DISKLESS | ENGINE_FILE_OPS,
	.init = file_ops_init_dirs,
	.queue = dirdelete_queue,
	.cleanup = file_ops_cleanup,
	.check_job = engine_refuse_verify,
};
