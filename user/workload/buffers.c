// SPDX-License-Identifier: GPL-2.0
/*
 * Write buffer contents, in fio 3.33's order of precedence: compressible
 * or dedupable data, else buffer_pattern, else zeros, else random.  With
 * dedupe_percentage each piece draws whether it repeats: a repeated piece
 * restarts from the generator state saved after the last unique piece,
 * as fio's buf_state_prev does.
 */
#include <string.h>

#include "workload/buffers.h"

void buffers_init(struct buffers *b, const struct job *job,
		  unsigned int thread_number, uint64_t seed_base)
{
	memset(b, 0, sizeof(*b));
	b->job = job;
	frand_seed(&b->state, frand_job_seed(seed_base, thread_number, FRAND_BUF),
		   false);
	b->prev = b->state;
	frand_seed(&b->dedupe, frand_job_seed(seed_base, thread_number,
					      FRAND_DEDUPE), false);
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
}

/* fio's get_buf_state: the generator this piece draws from. */
static struct frand *piece_state(struct buffers *b)
{
	unsigned int pct = b->job->dedupe_percentage;

	if (!pct)
		return &b->state;
	if (pct == 100) {
		b->prev = b->state;
		return &b->state;
	}
	return frand_between(&b->dedupe, 1, 100) <= pct ? &b->prev : &b->state;
}

/* fio's save_buf_state. */
static void piece_done(struct buffers *b, struct frand *used)
{
	if (b->job->dedupe_percentage == 100)
		b->state = b->prev;
	else if (used == &b->state)
		b->prev = b->state;
}

static void fill_pieces(struct buffers *b, uint8_t *buf, size_t len)
{
	const struct job *job = b->job;
	unsigned int pct = job->buffer_compress_percentage;
	size_t piece = b->min_write;

	while (len) {
		struct frand *rs = piece_state(b);
		size_t n;

		if (piece > len)
			piece = len;
		n = piece;
		if (pct) {
			if (job->buffer_compress_chunk && job->buffer_compress_chunk < n)
				n = job->buffer_compress_chunk;
			frand_fill_compressible(buf, n, frand_buf_seed(rs), pct, n,
						&job->buffer_pattern);
		} else {
			frand_fill(buf, n, frand_buf_seed(rs));
		}
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
		frand_fill(buf, len, frand_buf_seed(piece_state(b)));
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
