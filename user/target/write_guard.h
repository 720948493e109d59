/* SPDX-License-Identifier: GPL-2.0 */
/* The write guard: what a write job may not touch without --allow-destructive. */
#ifndef IODIG_WRITE_GUARD_H
#define IODIG_WRITE_GUARD_H

#include <stdbool.h>

#include "base/errbuf.h"
#include "target/target.h"

/*
 * Refuses a write job against a block device that is mounted (itself or a
 * partition), is held by another device (/sys/block/X/holders), is active
 * swap, or carries a filesystem, partition table, RAID or swap signature
 * (libblkid).  Regular files are always allowed.  Returns 0 when allowed.
 */
int target_write_guard(const struct target_info *t, bool allow_destructive,
		       struct errbuf *err);

#endif /* IODIG_WRITE_GUARD_H */
