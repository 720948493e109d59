// SPDX-License-Identifier: GPL-2.0
/*
 * filedelete: fio's engine that unlinks each of the job's files (laid out
 * before the run, filesize bytes each), timing the unlink(2).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <unistd.h>

#include "workload/engines/file_ops.h"
#include "workload/engines/shared.h"
#include "workload/worker.h"

static int delete_file(const struct worker *w, const char *path)
{
	(void)w;
	return unlink(path) < 0 ? -errno : 0;
}

static const struct file_op delete_op = { "unlink", delete_file };

static enum io_result filedelete_queue(struct worker *w, struct io_unit *u)
{
	return file_ops_queue(w, u, &delete_op);
}

const struct engine_ops filedelete_engine = {
	.name = "filedelete",
	.flags = ENGINE_SYNC | ENGINE_FILE_OPS,
	.init = file_ops_init,
	.queue = filedelete_queue,
	.cleanup = file_ops_cleanup,
	.check_job = engine_refuse_verify,
};
