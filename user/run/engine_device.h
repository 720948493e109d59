/* SPDX-License-Identifier: GPL-2.0 */
/* The target of an engine that drives its device by commands (io_uring_cmd
 * on /dev/ngXnY, sg on /dev/sgN): the engine inspects it, the runner sizes
 * and guards it through the block disk behind it. */
#ifndef IODIG_RUN_ENGINE_DEVICE_H
#define IODIG_RUN_ENGINE_DEVICE_H

#include "base/errbuf.h"
#include "run/run.h"

/* Fills t->info for @job's target when its engine has inspect_device:
 * 1 when the engine drives it (t->info then describes the block disk
 * behind it, so that the write guard checks that disk's mounts and
 * holders), 0 when the target is to be inspected as any, -errno with the
 * reason.  @allow_destructive: writes may go to a device whose block
 * disk iodig cannot see. */
int engine_device_inspect(const struct job *job, struct job_target *t,
			  bool allow_destructive, struct errbuf *err);

#endif /* IODIG_RUN_ENGINE_DEVICE_H */
