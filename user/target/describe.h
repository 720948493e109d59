/* SPDX-License-Identifier: GPL-2.0 */
/* What a report says a job measured: path, device and filesystem. */
#ifndef IODIG_TARGET_DESCRIBE_H
#define IODIG_TARGET_DESCRIBE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "target/target.h"

/* The filesystem type mounted from @dev ("ext4", "tmpfs"); -ENOENT when
 * none is. */
int target_fs_type(dev_t dev, char *buf, size_t len);

/* One line: "/dev/loop3 (iodig's scratch loop device on tmpfs, block
 * device, no filesystem)", "./j.0.0 on tmpfs (no block device)",
 * "/mnt/x on ext4 (vda)". */
void target_describe(const struct target_info *t, bool scratch, char *buf,
		     size_t len);

#endif /* IODIG_TARGET_DESCRIBE_H */
