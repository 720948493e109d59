// SPDX-License-Identifier: GPL-2.0
/*
 * Targets of passthrough engines.  A character device such as /dev/ng0n1
 * or /dev/sg1 has no size a stat or BLKGETSIZE64 gives, and no
 * filesystem iodig can look for; the engine asks the device for its size
 * and names the block disk behind it, which is what the write guard
 * checks and what the block tracepoints see.
 */
#include <errno.h>
#include <stdio.h>

#include "run/engine_device.h"
#include "target/target.h"

int engine_device_inspect(const struct job *job, struct job_target *t,
			  bool allow_destructive, struct errbuf *err)
{
	struct engine_device dev = { 0 };
	char disk_path[96];
	int ret;

	if (!job->engine->inspect_device)
		return 0;
	ret = job->engine->inspect_device(t->path, &dev, err);
	if (ret <= 0)
		return ret;
	if (dev.disk[0]) {
		snprintf(disk_path, sizeof(disk_path), "/dev/%s", dev.disk);
		ret = target_inspect(disk_path, &t->info, err);
		if (ret)
			return ret;
	} else if (rw_modifies(job->rw) && !allow_destructive && !job->allow_mounted_write) {
		return err_set(err, EPERM, "%s:%d: job '%s': %s has no block device iodig can check for a filesystem or other users, so writing to it needs --allow-destructive",
			       job->source, job->source_line, job->name, t->path);
	} else {
		snprintf(t->info.path, sizeof(t->info.path), "%s", t->path);
	}
	/* Sized as the engine's commands reach it, a device either way. */
	t->info.exists = true;
	t->info.is_blockdev = true;
	t->info.is_regular = false;
	t->info.size = dev.size;
	t->info.logical_block_size = dev.block_size;
	return 1;
}
