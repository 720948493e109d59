/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Freeing what a struct owns, so that each cleanup path says what it
 * releases once instead of spelling out the free-and-clear steps.
 */
#ifndef IODIG_MEM_H
#define IODIG_MEM_H

#include <stdlib.h>

/* free(@p) and leave @p NULL, so that a second cleanup is harmless. */
#define FREE_AND_NULL(p) \
	do { \
		free(p); \
		(p) = NULL; \
	} while (0)

/* Frees member @field of each of the @n elements of the array @arr, then
 * the array itself (left dangling: the owner is about to go or clears
 * its count). */
#define FREE_EACH(arr, n, field) \
	do { \
		for (size_t free_i_ = 0; free_i_ < (n); free_i_++) \
			free((arr)[free_i_].field); \
		free(arr); \
	} while (0)

#endif /* IODIG_MEM_H */
