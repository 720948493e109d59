// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/heap_huge.h"

#define HUGE_PAGE ((uintptr_t)2 << 20)

void heap_prefault_huge(size_t bytes)
{
	/* one huge page more, so that @bytes of aligned pages fit */
	char *block = malloc(bytes + HUGE_PAGE);
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t head, start, end, tail;

	if (!block)
		return;
	head = ((uintptr_t)block + page - 1) & ~(page - 1);
	start = ((uintptr_t)block + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	end = ((uintptr_t)block + bytes + HUGE_PAGE) & ~(HUGE_PAGE - 1);
	/* the block's last whole page: malloc writes its next chunk's header
	 * past a later allocation's end */
	tail = ((uintptr_t)block + bytes + HUGE_PAGE) & ~(page - 1);
	/* THP off: plain pages, still populated in one call (the head below
	 * the first 2 MiB boundary is in a huge page's range the heap may
	 * share already); before 5.14 nothing is populated */
	if (end > start)
		madvise((void *)start, end - start, MADV_HUGEPAGE);
	if (tail > head)
		madvise((void *)head, tail - head, MADV_POPULATE_WRITE);
	free(block);
}
