/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's bssplit=SIZE/PERC:SIZE/PERC...[,write part[,trim part]]: the
 * block sizes of each direction with the percent of I/Os each gets, with
 * fio 3.33's rules (a size without a percentage shares what is left; a
 * percentage over 100 counts as 100; entries sorted by percentage).
 */
#ifndef IODIG_BSSPLIT_H
#define IODIG_BSSPLIT_H

#include <stddef.h>

#include "workload/job.h"

/* Parses @value into @out (read, write, trim).  One part serves every
 * direction; without a third part trims take the writes'.  Sizes are read in @kb_base.  On error
 * returns -EINVAL and writes why into @why. */
int bssplit_parse(const char *value, unsigned int kb_base,
		  struct bssplit out[DDIR_COUNT], char *why, size_t why_len);

/* The smallest and largest block size of @s (nr > 0). */
void bssplit_range(const struct bssplit *s, uint32_t *min, uint32_t *max);

#endif /* IODIG_BSSPLIT_H */
