/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Can a DAX fault (fs/dax.c, the fs_dax tracepoints) happen on this
 * machine?  Only on a filesystem whose dax_device is a DAX-capable block
 * device's (fs_dax_get_by_bdev() refuses a disk without the queue's DAX
 * feature, shown as /sys/block/<disk>/queue/dax) or a virtio-fs DAX
 * window (fs/fuse/dax.c).  Device-DAX (/dev/daxX.Y) maps through
 * drivers/dax/device.c, which has no fs_dax tracepoint.
 */
#ifndef IODIG_PROBES_FS_DAX_SOURCE_H
#define IODIG_PROBES_FS_DAX_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * True when a DAX fault can happen: a block device whose queue/dax reads
 * 1, a virtio-fs device, or no /sys/block to tell.  @why says which (or,
 * when false, why none can).  @sys_root is sysfs's mount point, NULL =
 * "/sys".  Reads a few sysfs files: no cost worth a phase of its own.
 */
bool fs_dax_possible(const char *sys_root, char *why, size_t size);

#endif /* IODIG_PROBES_FS_DAX_SOURCE_H */
