/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zonemode=strided, after fio 3.33's setup_strided_zone_mode: a worker
 * does zonesize bytes in the zone of zonerange bytes at its zone base,
 * then moves the base on by zonerange + zoneskip, back to the region's
 * start past the file's end.  Offsets are drawn relative to the base as
 * fio draws them relative to its f->file_offset.
 */
#ifndef IODIG_STRIDED_H
#define IODIG_STRIDED_H

#include <stdbool.h>
#include <stdint.h>

#include "workload/job.h"

struct strided {
	bool on;
	uint64_t size, range, skip; /* zonesize, zonerange, zoneskip */
	uint64_t file_len;          /* region start to the file's end */
	uint64_t base;              /* zone start, relative to the region */
	uint64_t bytes;             /* done in this zone (fio's zone_bytes) */
};

void strided_init(struct strided *z, const struct job *job, uint64_t file_len);

/* Before an I/O: moves to the next zone when this one had its bytes.
 * true when the draws must start over in the zone (fio's fio_file_reset
 * whenever zone_bytes is a multiple of zonerange). */
bool strided_enter(struct strided *z, bool *moved);

#endif /* IODIG_STRIDED_H */
