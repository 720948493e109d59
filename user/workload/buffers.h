/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What write buffers hold, after fio 3.33 (io_u.c's fill_io_buffer and
 * small_content_scramble): random bytes filled once per buffer and then
 * scrambled with the offset and time on every write (the default), zeros,
 * buffer_pattern, or, refilled before every write, data of a given
 * compressibility (buffer_compress_percentage, in buffer_compress_chunk
 * pieces) or with a share of repeated pieces (dedupe_percentage).  The
 * random source is fio's, seeded as fio seeds it, so a refilled buffer
 * holds the bytes fio would write.  verify= overrides all of this with its
 * own data (workload/verify.h).
 */
#ifndef IODIG_BUFFERS_H
#define IODIG_BUFFERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/fio_rand.h"
#include "workload/job.h"

struct buffers {
	const struct job *job;
	struct frand state, prev;   /* fio's buf_state and buf_state_prev */
	struct frand dedupe;        /* draws which pieces repeat */
	uint32_t min_write;         /* smallest write block */
	bool refill;                /* refill before every write */
	bool scramble;              /* else scramble before every write */
};

/* @thread_number is fio's number of the job; @seed_base replaces
 * randseed when randrepeat is off (a random value per run). */
void buffers_init(struct buffers *b, const struct job *job,
		  unsigned int thread_number, uint64_t seed_base);

/* A buffer's first contents, when units are allocated (fio fills each
 * at init, in order, with the largest block size). */
void buffers_fill(struct buffers *b, void *buf, size_t len);

/* Before a write of @len bytes at @offset issued at @now_ns: refilled, or
 * scrambled, or left as it is. */
void buffers_before_write(struct buffers *b, void *buf, uint32_t len,
			  uint64_t offset, uint64_t now_ns);

#endif /* IODIG_BUFFERS_H */
