// SPDX-License-Identifier: GPL-2.0
/* One number from a sysfs file (base/sysfs_num.h). */
#include <stdarg.h>
#include <stdio.h>

#include "base/sysfs_num.h"

uint64_t sysfs_read_u64(const char *fmt, ...)
{
	char path[256];
	unsigned long long v = 0;
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	f = fopen(path, "re");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}
