/* SPDX-License-Identifier: GPL-2.0 */
/* Fake sysfs trees for the tests that take a sys_root (check.h first). */
#ifndef IODIG_TEST_SYSFS_TREE_H
#define IODIG_TEST_SYSFS_TREE_H

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Creates @rel under @root, its parents first: with @content a file,
 * with @link a symlink to @link, else a directory. */
static inline void sysfs_tree_put(const char *root, const char *rel, const char *content,
				  const char *link)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0700);
		*p = '/';
	}
	if (link) {
		CHECK_MSG(!symlink(link, path), "%s: %s", path, strerror(errno));
		return;
	}
	if (!content) {
		mkdir(path, 0700);
		return;
	}
	f = fopen(path, "w");
	CHECK_MSG(f, "%s: %s", path, strerror(errno));
	if (f) {
		fputs(content, f);
		fclose(f);
	}
}

#endif
