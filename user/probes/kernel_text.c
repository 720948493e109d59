// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "probes/kernel_text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

/* kallsyms lists the per-CPU symbols (small offsets, type A: hundreds of
 * them on some kernels) and then the kernel image by address: its first
 * code symbol is the image's lowest code address (_text, startup_64).
 * Reading no further keeps the kernel from generating the whole file
 * before the answer. */
#define TEXT_WITHIN_LINES 16384

/* The first code symbol's address in the kallsyms text at @fd's offset,
 * read through a duplicate (the offset moves on), 0 when none. */
static uint64_t first_code_symbol(int fd)
{
	int dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	FILE *f = dup_fd >= 0 ? fdopen(dup_fd, "re") : NULL;
	unsigned long long addr = 0;
	char line[1024], type;  /* a name is at most 511 bytes */

	if (!f) {
		if (dup_fd >= 0)
			close(dup_fd);
		return 0;
	}
	for (int i = 0; i < TEXT_WITHIN_LINES && fgets(line, sizeof(line), f); i++) {
		if (sscanf(line, "%llx %c", &addr, &type) == 2 && addr &&
		    (type == 't' || type == 'T'))
			break;
		addr = 0;
	}
	fclose(f);
	return addr;
}

int kernel_text_open(uint64_t *text)
{
	int fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
	int ret;

	*text = 0;
	if (fd < 0)
		return -errno;
	*text = first_code_symbol(fd);
	if (lseek(fd, 0, SEEK_SET) == 0)
		return fd;
	ret = -errno;
	close(fd);
	return ret;
}
