/* SPDX-License-Identifier: GPL-2.0 */
/* Whether a target is a zoned block device (fio's zonemode=zbd needs one). */
#ifndef IODIG_TARGET_ZONED_H
#define IODIG_TARGET_ZONED_H

#include <stddef.h>

#include "target/target.h"

/* /sys/block/X/queue/zoned of the target's disk: "none", "host-aware" or
 * "host-managed" into @buf; -ENOTBLK for a file, -errno when unreadable. */
int target_zoned_model(const struct target_info *t, char *buf, size_t len);

#endif /* IODIG_TARGET_ZONED_H */
