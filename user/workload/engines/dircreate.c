// SPDX-License-Identifier: GPL-2.0
/*
 * dircreate: fio's engine (fio 3.34 on; 3.33 lacks it) that creates one
 * directory per file of the job, timing each mkdir(2) with fio's mode
 * 0700.  Nothing is laid out before (ENGINE_DISKLESS); a directory that
 * exists already is an error, as in fio.
 */
#define _GNU_SOURCE

#include "workload/engines/file_ops.h"
#include "workload/engines/shared.h"
#include "workload/worker.h"

static enum io_result dircreate_queue(struct worker *w, struct io_unit *u)
{
	return file_ops_queue(w, u, &file_ops_mkdir);
}

const struct engine_ops dircreate_engine = {
	.name = "dircreate",
	.flags = ENGINE_SYNC | ENGINE_DISKLESS | ENGINE_FILE_OPS,
	.init = file_ops_init,
	.queue = dircreate_queue,
	.cleanup = file_ops_cleanup,
	.check_job = engine_refuse_verify,
};
