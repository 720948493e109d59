// SPDX-License-Identifier: GPL-2.0
/* A block device's zone model, as the block layer reports it in sysfs. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/sysfs_num.h"
#include "target/zoned.h"

int target_zoned_model(const struct target_info *t, char *buf, size_t len)
{
	char path[128];
	FILE *f;
	int ret = 0;

	if (!t->is_blockdev)
		return -ENOTBLK;
	if (!t->disk_name[0])
		return -ENOENT;
	snprintf(path, sizeof(path), "/sys/block/%s/queue/zoned", t->disk_name);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		ret = -EIO;
	else
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
	return ret;
}

uint64_t target_zone_size(const struct target_info *t)
{
	if (!t->is_blockdev || !t->disk_name[0])
		return 0;
	return 512 * sysfs_read_u64("/sys/block/%s/queue/chunk_sectors",
				    t->disk_name);
}
