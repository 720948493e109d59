// SPDX-License-Identifier: GPL-2.0
#include "probes/kernel_text.h"

#include <stdio.h>
#include <string.h>

/* kallsyms lists the per-CPU symbols (small offsets, type A: hundreds of
 * them on some kernels) and then the kernel image by address: its first
 * code symbol is the image's lowest code address (_text, startup_64).
 * Reading no further keeps start-up from generating the whole file. */
#define TEXT_WITHIN_LINES 16384

uint64_t kernel_text_start(const char *kallsyms)
{
#if defined(__x86_64__)
	FILE *f = fopen(kallsyms ? kallsyms : "/proc/kallsyms", "re");
	unsigned long long addr = 0;
	char line[256], type;

	if (!f)
		return 0;
	for (int i = 0; i < TEXT_WITHIN_LINES && fgets(line, sizeof(line), f); i++) {
		if (sscanf(line, "%llx %c", &addr, &type) == 2 && addr &&
		    (type == 't' || type == 'T'))
			break;
		addr = 0;
	}
	fclose(f);
	return addr;
#else
	(void)kallsyms;
	return 0;
#endif
}
