/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Makes the heap's next large allocations land on transparent huge pages
 * that are already faulted in.
 *
 * Why: in the VM iodig is measured in, the first touch of each fresh 4 KiB
 * page is dear (a trip to the host), and copying the kernel's BTF into a
 * fresh buffer was most of the one BTF parse before the probes load
 * (docs/overhead.md).  On 2 MiB pages asked for and populated in one call
 * the same copy takes a fraction of it.
 */
#ifndef IODIG_BASE_HEAP_HUGE_H
#define IODIG_BASE_HEAP_HUGE_H

#include <stddef.h>

/*
 * Grows the heap by @bytes backed by populated huge pages and gives them
 * back to malloc, which hands them to the next allocations that fit:
 * glibc's main heap serves allocations below M_MMAP_THRESHOLD (raised by
 * main()) from its top and keeps freed memory below M_TRIM_THRESHOLD.
 * Only a speed-up: where the kernel or the allocator does not follow, it
 * does nothing harmful and reports nothing.
 */
void heap_prefault_huge(size_t bytes);

#endif /* IODIG_BASE_HEAP_HUGE_H */
