/* SPDX-License-Identifier: GPL-2.0 */
#ifndef IODIG_IO_UNITS_H
#define IODIG_IO_UNITS_H

#include <stdint.h>

#include "base/errbuf.h"

struct job;
struct worker;

/* The largest block size of either direction. */
uint32_t job_max_bs(const struct job *job);

/* iodepth units, each with a buffer of the job's largest block size
 * (rounded up to pages) in one aligned area; the worker frees them.
 * -errno with the reason in @err. */
int worker_alloc_units(struct worker *w, struct errbuf *err);

#endif /* IODIG_IO_UNITS_H */
