// SPDX-License-Identifier: GPL-2.0
/*
 * Write buffer contents, in fio 3.33's order of precedence: compressible
 * or dedupable data, else buffer_pattern, else zeros, else random.  With
 * dedupe_percentage each buffer draws whether it repeats: a repeated one
 * restarts from a copy of the generator state saved after the last unique
 * buffer (fio's buf_state_prev), or of one of the working set's states.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/mem.h"
#include "workload/buffers.h"

/* The pieces a buffer is filled in: the smallest write, cut to
 * buffer_compress_chunk (fio's min_not_zero). */
static uint32_t piece_len(const struct job *job, uint32_t min_write)
{
	uint64_t chunk = job->buffer_compress_chunk;

	return chunk && chunk < min_write ? (uint32_t)chunk : min_write;
}

/* fio's buf_state of job @thread_number, before it fills anything: 64-bit
 * with random_generator=tausworthe64, as fio's td_fill_rand_seeds. */
static struct frand job_buf_state(const struct job *job, struct frand_base seed_base,
				  unsigned int thread_number)
{
	struct frand r;

	frand_seed(&r, frand_job_seed(seed_base, thread_number, FRAND_BUF),
		   job->random_generator == RGEN_TAUSWORTHE64);
	return r;
}

/* fio's init_dedupe_working_set_seeds: the states that start the job's
 * first unique blocks (a block's pieces each take a seed); with
 * dedupe_global the set goes on, in equal parts, with the next jobs'
 * first blocks, so the jobs' sets are the same blocks. */
static int working_set_init(struct buffers *b, unsigned int thread_number,
			    unsigned int nr_threads, struct frand_base seed_base)
{
	const struct job *job = b->job;
	uint64_t n = job->size * job->dedupe_working_set_percentage / 100 /
		     b->min_write;
	uint32_t seeds = b->min_write / piece_len(job, b->min_write);
	uint64_t per_job, next = thread_number - 1;
	struct frand s = b->state;

	/* fio would draw from an empty set; one block keeps it defined */
	b->set_len = n ? n : 1;
	nr_threads = nr_threads ? nr_threads : 1;
	per_job = b->set_len / nr_threads ? b->set_len / nr_threads : 1;
	b->set = calloc(b->set_len, sizeof(*b->set));
	if (!b->set)
		return -ENOMEM;
	b->set[0] = s;
	for (uint64_t i = 1; i < b->set_len; i++) {
		for (uint32_t k = 0; k < seeds; k++)
			frand_buf_seed(&s);
		if (job->dedupe_global && i % per_job == 0)
			s = job_buf_state(job, seed_base, (unsigned int)(++next % nr_threads) + 1);
		b->set[i] = s;
	}
	return 0;
}

int buffers_init(struct buffers *b, const struct job *job,
		 unsigned int thread_number, unsigned int nr_threads,
		 struct frand_base seed_base)
{
	memset(b, 0, sizeof(*b));
	b->job = job;
	b->state = job_buf_state(job, seed_base, thread_number);
	b->prev = b->state;
	frand_seed(&b->dedupe, frand_job_seed(seed_base, thread_number,
					      FRAND_DEDUPE), false);
	frand_seed(&b->pick, frand_job_seed(seed_base, thread_number,
					    FRAND_DEDUPE_WORKING_SET), false);
	b->min_write = job->bs_min[DDIR_WRITE];
	b->refill = job->refill_buffers.on;
	/* fio scrambles unless told not to, or given zero_buffers alone, and
	 * never when the data has a shape to keep (compress, dedupe, pattern,
	 * verify). */
	b->scramble = job->scramble_buffers.on &&
		      (job->scramble_buffers.given ||
		       !(job->zero_buffers.on && job->zero_buffers.given)) &&
		      !job->buffer_compress_percentage && !job->dedupe_percentage &&
		      !job->buffer_pattern.len && job->verify == VERIFY_NONE;
	if (!job->dedupe_percentage || job->dedupe_mode != DEDUPE_WORKING_SET)
		return 0;
	return working_set_init(b, thread_number, nr_threads, seed_base);
}

void buffers_free(struct buffers *b)
{
	if (b)
		FREE_AND_NULL(b->set);
}

/* fio's get_buf_state: the generator a buffer draws from. */
static struct frand *buffer_state(struct buffers *b)
{
	unsigned int pct = b->job->dedupe_percentage;

	if (!pct)
		return &b->state;
	if (pct == 100) {
		b->prev = b->state;
		return &b->state;
	}
	if (frand_between(&b->dedupe, 1, 100) > pct)
		return &b->state;
	/* a copy, so that the next repeat starts from the same state */
	b->ret = b->set ? b->set[frand_between(&b->pick, 0,
					       (unsigned int)(b->set_len - 1))] :
			  b->prev;
	return &b->ret;
}

/* fio's save_buf_state. */
static void piece_done(struct buffers *b, struct frand *used)
{
	if (b->job->dedupe_percentage == 100)
		b->state = b->prev;
	else if (used == &b->state)
		b->prev = b->state;
}

/* fio's fill_io_buffer: one generator for the whole buffer, a seed per
 * piece. */
static void fill_pieces(struct buffers *b, uint8_t *buf, size_t len)
{
	const struct job *job = b->job;
	struct frand *rs = buffer_state(b);
	size_t piece = piece_len(job, b->min_write);

	while (len) {
		size_t n = piece < len ? piece : len;

		frand_fill_compressible(buf, n, frand_buf_seed(rs),
					job->buffer_compress_percentage, n,
					&job->buffer_pattern);
		buf += n;
		len -= n;
		piece_done(b, rs);
	}
}

void buffers_fill(struct buffers *b, void *buf, size_t len)
{
	const struct job *job = b->job;

	if (job->buffer_compress_percentage || job->dedupe_percentage)
		fill_pieces(b, buf, len);
	else if (job->buffer_pattern.len)
		pattern_spread(&job->buffer_pattern, buf, len, 0);
	else if (job->zero_buffers.on)
		memset(buf, 0, len);
	else
		frand_fill(buf, len, frand_buf_seed(buffer_state(b)));
	/* fio lays verify_pattern over a writing job's fresh buffers */
	if (job->verify_pattern.len && rw_has_write(job->rw))
		pattern_spread(&job->verify_pattern, buf, len, 0);
}

/* fio's small_content_scramble: in every 512 bytes, the offset at one of
 * the eight 64-byte lines (picked from the time) and the time at the end
 * of the first line, so no two writes carry the same bytes. */
static void scramble(uint8_t *p, uint32_t len, uint64_t offset, uint64_t now_ns)
{
	uint64_t sec = now_ns / 1000000000ull, nsec = now_ns % 1000000000ull;
	unsigned int line = (unsigned int)((nsec ^ offset) & 7);

	for (uint32_t i = 0; i < len / 512; i++, p += 512, offset += 512) {
		memcpy(p + line * 64, &offset, 8);
		memcpy(p + 64 - 16, &sec, 8);
		memcpy(p + 64 - 8, &nsec, 8);
	}
}

void buffers_before_write(struct buffers *b, void *buf, uint32_t len,
			  uint64_t offset, uint64_t now_ns)
{
	if (b->refill)
		buffers_fill(b, buf, len);
	else if (b->scramble)
		scramble(buf, len, offset, now_ns);
}
