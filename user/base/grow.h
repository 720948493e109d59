/* SPDX-License-Identifier: GPL-2.0 */
/* Arrays that grow by doubling as items are appended. */
#ifndef IODIG_GROW_H
#define IODIG_GROW_H

#include <stddef.h>

/*
 * Room for one more item in @items (@count in use, *@cap allocated,
 * @size bytes each), doubling the allocation or starting at @first:
 * returns the array to use from now on, or NULL (out of memory) leaving
 * @items and *@cap as they were.
 */
void *grow_for_one(void *items, size_t *cap, size_t count, size_t size, size_t first);

#endif /* IODIG_GROW_H */
