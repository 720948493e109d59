// SPDX-License-Identifier: GPL-2.0
/* probes/fs_dax_source: on sysfs trees built in /dev/shm, a DAX fault is
 * possible with a disk whose queue/dax reads 1 (named), or a device bound
 * to virtio-fs, or when there is no block/ to tell; not with disks whose
 * queue/dax reads 0 (or has none). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/lib/check.h"
#include "tests/lib/sysfs_tree.h"
#include "probes/fs_dax_source.h"

static char root[128];

/* @rel under the tree; with @content a file, else a directory. */
static void put(const char *rel, const char *content)
{
	sysfs_tree_put(root, rel, content, NULL);
}

static void expect(bool want, const char *why_want)
{
	char why[128] = "";
	bool got = fs_dax_possible(root, why, sizeof(why));

	fprintf(stderr, "  %d (%s)\n", got, why);
	CHECK_MSG(got == want, "possible %d, want %d", got, want);
	CHECK_MSG(strstr(why, why_want), "why \"%s\" lacks \"%s\"", why, why_want);
}

int main(void)
{
	char cmd[192];

	if (access("/dev/shm", W_OK))
		SKIP("/dev/shm not writable");
	snprintf(root, sizeof(root), "/dev/shm/iodig-test-fs-dax-%d", (int)getpid());
	mkdir(root, 0700);

	fprintf(stderr, "no block/\n");
	expect(true, "/block to tell");

	fprintf(stderr, "disks without DAX\n");
	put("block/vda/queue/dax", "0\n");
	put("block/loop0/queue/dax", "0\n");
	put("block/zram0/queue", NULL);          /* no dax file at all */
	expect(false, "no DAX-capable block device");

	fprintf(stderr, "virtio-fs driver without a device\n");
	put("bus/virtio/drivers/virtiofs/bind", "");
	expect(false, "no DAX-capable block device");

	fprintf(stderr, "a virtio-fs device\n");
	put("bus/virtio/drivers/virtiofs/virtio3", NULL);
	expect(true, "virtio-fs device virtio3");

	fprintf(stderr, "a pmem disk\n");
	put("block/pmem0/queue/dax", "1\n");
	expect(true, "pmem0 is DAX-capable");

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	CHECK(system(cmd) == 0);
	return CHECK_DONE();
}
