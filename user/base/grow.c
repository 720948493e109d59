// SPDX-License-Identifier: GPL-2.0
#include <stdint.h>
#include <stdlib.h>

#include "base/grow.h"

void *grow_for_one(void *items, size_t *cap, size_t count, size_t size, size_t first)
{
	size_t ncap;
	void *p;

	if (count < *cap)
		return items;
	ncap = *cap ? *cap * 2 : first;
	if (ncap < *cap || ncap > SIZE_MAX / size)
		return NULL;
	p = realloc(items, ncap * size);
	if (p)
		*cap = ncap;
	return p;
}
