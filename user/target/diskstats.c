// SPDX-License-Identifier: GPL-2.0
/*
 * Block device counters for fio's "Disk stats (read/write)" section, read
 * from /sys/block/<disk>/stat (Documentation/block/stat.rst).  The caller
 * takes one sample before and one after a job and reports the difference.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "target/diskstats.h"

int diskstats_read(const char *sys_root, const char *disk_name,
		   struct disk_counters *c, struct errbuf *err)
{
	char path[PATH_MAX], line[512];
	uint64_t in_flight, unused;
	int n, ret = 0;
	FILE *f;

	memset(c, 0, sizeof(*c));
	if (!disk_name || !disk_name[0])
		return err_set(err, EINVAL, "no disk to read counters from");
	/* A sysfs block name is one path component. */
	if (strchr(disk_name, '/') || !strcmp(disk_name, ".") ||
	    !strcmp(disk_name, "..") || strlen(disk_name) > 64)
		return err_set(err, EINVAL, "%.64s: not a block device name",
			       disk_name);

	snprintf(path, sizeof(path), "%s/block/%s/stat", sys_root ? sys_root : "/sys",
		 disk_name);
	f = fopen(path, "re");
	if (!f)
		return err_set(err, errno, "%s: %s", path, strerror(errno));
	if (!fgets(line, sizeof(line), f)) {
		ret = err_set(err, EIO, "%s: empty", path);
		goto cleanup;
	}
	/*
	 * Fields 1-11 have existed since 2.6: reads (completed, merged,
	 * sectors, ms), writes (same four), in flight, io_ticks, time in
	 * queue.  4.18 appends discards (the same four), 5.5 flushes
	 * (completed, ms); only their counts are kept.
	 */
	n = sscanf(line,
		   "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64,
		   &c->ios[0], &c->merges[0], &c->sectors[0], &c->ticks[0],
		   &c->ios[1], &c->merges[1], &c->sectors[1], &c->ticks[1],
		   &in_flight, &c->io_ticks, &c->time_in_queue,
		   &c->discard_ios, &unused, &unused, &unused, &c->flush_ios);
	if (n < 11)
		ret = err_set(err, EIO, "%s: expected 11 counters, found %d",
			      path, n < 0 ? 0 : n);
cleanup:
	fclose(f);
	return ret;
}
