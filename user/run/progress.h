/* SPDX-License-Identifier: GPL-2.0 */
/* fio's one-line "Jobs: ..." status on a terminal. */
#ifndef IODIG_PROGRESS_H
#define IODIG_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>

#include "workload/job.h"

struct run_ctx;

/* Rates for the progress line come from the change since the last one. */
struct progress {
	uint64_t last_ns;
	uint64_t last_bytes[DDIR_COUNT];
	uint64_t last_ios[DDIR_COUNT];
	bool shown;
};

/* Prints the line for jobs @first..@first+@count-1 of @ctx, @elapsed_ns
 * into a group expected to last @total_ns. */
void progress_print(struct progress *p, const struct run_ctx *ctx,
		    unsigned int first, unsigned int count, uint64_t elapsed_ns,
		    uint64_t total_ns);
void progress_clear(struct progress *p);

#endif /* IODIG_PROGRESS_H */
