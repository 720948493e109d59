// SPDX-License-Identifier: GPL-2.0
#include "probes/kernel_text.h"

#include <stdio.h>
#include <string.h>

/* kallsyms lists the per-CPU symbols (address 0) and then the kernel
 * image from its start: _text comes within the first few lines, and
 * reading no further keeps start-up from generating the whole file. */
#define TEXT_WITHIN_LINES 64

uint64_t kernel_text_start(const char *kallsyms)
{
#if defined(__x86_64__)
	FILE *f = fopen(kallsyms ? kallsyms : "/proc/kallsyms", "re");
	unsigned long long addr = 0;
	char line[256], type, name[128];

	if (!f)
		return 0;
	for (int i = 0; i < TEXT_WITHIN_LINES && fgets(line, sizeof(line), f); i++) {
		if (sscanf(line, "%llx %c %127s", &addr, &type, name) == 3 &&
		    !strcmp(name, "_text"))
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
