/* SPDX-License-Identifier: GPL-2.0 */
/* Whether a target is a zoned block device (fio's zonemode=zbd needs one). */
#ifndef IODIG_TARGET_ZONED_H
#define IODIG_TARGET_ZONED_H

#include <stddef.h>
#include <stdint.h>

#include "target/target.h"

/* /sys/block/X/queue/zoned of the target's disk: "none", "host-aware" or
 * "host-managed" into @buf; -ENOTBLK for a file, -errno when unreadable. */
int target_zoned_model(const struct target_info *t, char *buf, size_t len);

/* The zone size in bytes of a zoned target's disk (queue/chunk_sectors);
 * 0 when it has none. */
uint64_t target_zone_size(const struct target_info *t);

#endif /* IODIG_TARGET_ZONED_H */
