/* SPDX-License-Identifier: GPL-2.0 */
/* One number from a sysfs file (queue/chunk_sectors, max_open_zones ...). */
#ifndef IODIG_SYSFS_NUM_H
#define IODIG_SYSFS_NUM_H

#include <stdint.h>

/* The number at the start of the file named by @fmt; 0 when the file
 * cannot be read or holds none. */
uint64_t sysfs_read_u64(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));

#endif /* IODIG_SYSFS_NUM_H */
