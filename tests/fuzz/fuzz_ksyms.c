// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: /proc/kallsyms text through ksyms__load_buffer, then
 * lookups of addresses and names taken from the same input. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "probes/ksyms.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ksyms *ks = NULL;
	uint64_t addr = 0, off;
	const struct ksym *sym;

	if (ksyms__load_buffer((const char *)data, size, &ks, NULL) || !ks)
		return 0;
	memcpy(&addr, data, size < sizeof(addr) ? size : sizeof(addr));
	sym = ksyms__map_addr(ks, addr, &off);
	if (sym)
		ksyms__get_symbol(ks, sym->name);
	ksyms__map_addr(ks, 0, NULL);
	ksyms__map_addr(ks, UINT64_MAX, &off);
	ksyms__get_symbol(ks, "");
	(void)ksyms__count(ks);
	(void)ksyms__malformed(ks);
	ksyms__free(ks);
	return 0;
}
