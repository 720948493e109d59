// SPDX-License-Identifier: GPL-2.0
/*
 * filestat: fio's engine that stats each of the job's files (laid out
 * before the run, filesize bytes each) without opening it, timing the
 * stat(2), lstat(2) or statx(2) that stat_type names.
 */
#define _GNU_SOURCE

#include "workload/engines/file_ops.h"
#include "workload/engines/shared.h"
#include "workload/worker.h"

ENGINE_OPTS_FIT(struct stat_opts);

static enum io_result filestat_queue(struct worker *w, struct io_unit *u)
{
	return file_ops_queue(w, u, &file_ops_stat);
}

const struct engine_ops filestat_engine = {
	.name = "filestat",
	.flags = ENGINE_SYNC | ENGINE_FILE_OPS,
	.init = file_ops_init,
	.queue = filestat_queue,
	.cleanup = file_ops_cleanup,
	.check_job = engine_refuse_verify,
	.options = file_ops_stat_options,
};
