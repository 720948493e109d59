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
#include "workload/engines/shared.h"
#include "workload/worker.h"

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

static enum io_result filecreate_queue(struct worker *w, struct io_unit *u)
{
	return file_ops_queue(w, u, &create_op);
}

const struct engine_ops filecreate_engine = {
	.name = "filecreate",
	.flags = ENGINE_SYNC | ENGINE_DISKLESS | ENGINE_FILE_OPS,
	.init = file_ops_init,
	.queue = filecreate_queue,
	.cleanup = file_ops_cleanup,
	.check_job = engine_refuse_verify,
};
