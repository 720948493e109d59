/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What write buffers hold, after fio 3.33 (io_u.c's fill_io_buffer and
 * small_content_scramble): random bytes filled once per buffer and then
 * scrambled with the offset and time on every write (the default), zeros,
 * buffer_pattern, or, refilled before every write, data of a given
 * compressibility (buffer_compress_percentage, in buffer_compress_chunk
 * pieces) or with a share of repeated buffers (dedupe_percentage: the
 * last unique one again, or with dedupe_mode=working_set one of the job's
 * first unique ones, or with dedupe_global the jobs' first ones).  The
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
	struct frand ret;           /* a repeated buffer's copy (buf_state_ret) */
	struct frand dedupe;        /* draws which buffers repeat */
	struct frand pick;          /* working_set: draws which one */
	struct frand *set;          /* working_set's generator states */
	uint64_t set_len;
	uint32_t min_write;         /* smallest write block */
	bool refill;                /* refill before every write */
	bool scramble;              /* else scramble before every write */
};

/* @thread_number is fio's number of the job, of @nr_threads (all jobs'
 * clones); @seed_base replaces randseed when randrepeat is off (a random
 * value per run).  0 or -ENOMEM (dedupe_mode=working_set's set). */
int buffers_init(struct buffers *b, const struct job *job,
		 unsigned int thread_number, unsigned int nr_threads,
		 struct frand_base seed_base);
void buffers_free(struct buffers *b);

/* A buffer's first contents, when units are allocated (fio fills each
 * at init, in order, with the largest block size). */
void buffers_fill(struct buffers *b, void *buf, size_t len);

/* Before a write of @len bytes at @offset issued at @now_ns: refilled, or
 * scrambled, or left as it is. */
void buffers_before_write(struct buffers *b, void *buf, uint32_t len,
			  uint64_t offset, uint64_t now_ns);

#endif /* IODIG_BUFFERS_H */
