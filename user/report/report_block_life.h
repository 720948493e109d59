/* SPDX-License-Identifier: GPL-2.0 */
/* fio's block lifetime report (block_error_percentiles): its text lines
 * and its JSON "block" object. */
#ifndef IODIG_REPORT_BLOCK_LIFE_H
#define IODIG_REPORT_BLOCK_LIFE_H

#include <stdio.h>

#include "workload/block_life.h"
#include "workload/job.h"

struct json_object;

/* "  block lifetime percentiles :" with the trims at @job's percentiles
 * (fio's list by default), and the "states" line; nothing when the job
 * kept no blocks. */
void report_block_life_text(FILE *out, const struct block_life *bl,
			    const struct job *job);
/* Adds {percentiles: {"P": trims}, states: {name: blocks}} to @parent
 * as "block" when some block was trimmed or failed (as fio).  0, or
 * -ENOMEM. */
int report_block_life_json(struct json_object *parent, const struct block_life *bl,
			   const struct job *job);

#endif /* IODIG_REPORT_BLOCK_LIFE_H */
