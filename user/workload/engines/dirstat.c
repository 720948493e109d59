// SPDX-License-Identifier: GPL-2.0
/*
 * dirstat: fio's engine (fio 3.34 on; 3.33 lacks it) that makes one
 * directory per file of the job before the run (an existing one is kept)
 * and times a stat(2), lstat(2) or statx(2) of each, as stat_type says.
 */
#define _GNU_SOURCE

#include "workload/engines/file_ops.h"
#include "workload/engines/shared.h"
#include "workload/worker.h"

static enum io_result dirstat_queue(struct worker *w, struct io_unit *u)
{
	return file_ops_queue(w, u, &file_ops_stat);
}

const struct engine_ops dirstat_engine = {
	.name = "dirstat",
	.flags = ENGINE_SYNC | ENGINE_DISKLESS | ENGINE_FILE_OPS,
	.init = file_ops_init_dirs,
	.queue = dirstat_queue,
	.cleanup = file_ops_cleanup,
	.check_job = engine_refuse_verify,
	.options = file_ops_stat_options,
};
