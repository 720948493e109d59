/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Benjamini–Hochberg: q-values (adjusted p-values) that control the false
 * discovery rate over many tests, as R's p.adjust(method = "BH").  A diff
 * tests dozens of rows at once; without it a few would be called changed
 * by chance alone in every comparison.
 */
#ifndef IODIG_BH_H
#define IODIG_BH_H

#include <stddef.h>

/* q[i] for each p[i]; NaN entries (rows without a test) are left out of
 * the count and get NaN.  0, or -ENOMEM. */
int bh_adjust(const double *p, size_t n, double *q);

#endif /* IODIG_BH_H */
