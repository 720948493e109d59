// SPDX-License-Identifier: GPL-2.0
/*
 * serialize_overlap's checks (workload/overlap.h): a worker's own units
 * in flight, and the board the offloaded jobs' submit threads share.
 */
#define _GNU_SOURCE
#include <sched.h>

#include "workload/overlap.h"

bool unit_overlaps_in_flight(const struct io_unit *units, unsigned int nr,
			     const struct io_unit *u)
{
	for (unsigned int i = 0; i < nr; i++)
		if (&units[i] != u && units[i].in_flight &&
		    ranges_overlap(u->offset, u->len, units[i].offset, units[i].len))
			return true;
	return false;
}

size_t overlap_board_size(unsigned int nr)
{
	return sizeof(struct overlap_board) + nr * sizeof(struct overlap_slot);
}

void overlap_board_init(struct overlap_board *b, unsigned int nr)
{
	atomic_flag_clear(&b->lock);
	b->nr = nr;
}

bool job_uses_overlap_board(const struct job *job)
{
	return job->serialize_overlap && job->io_submit_mode == SUBMIT_OFFLOAD;
}

unsigned int overlap_board_slots(const struct job *jobs, size_t nr_jobs)
{
	unsigned int n = 0;

	for (size_t j = 0; j < nr_jobs; j++)
		if (job_uses_overlap_board(&jobs[j]))
			n += jobs[j].numjobs * jobs[j].iodepth;
	return n;
}

static void board_lock(struct overlap_board *b)
{
	while (atomic_flag_test_and_set_explicit(&b->lock, memory_order_acquire))
		sched_yield();
}

static void board_unlock(struct overlap_board *b)
{
	atomic_flag_clear_explicit(&b->lock, memory_order_release);
}

static bool board_overlaps(const struct overlap_board *b, unsigned int slot,
			   uint64_t offset, uint32_t len)
{
	for (unsigned int i = 0; i < b->nr; i++)
		if (i != slot && b->slots[i].len &&
		    ranges_overlap(offset, len, b->slots[i].offset, b->slots[i].len))
			return true;
	return false;
}

/* Checked and taken under one lock, so that two threads cannot both see
 * the range free; between tries the lock is let go for the others. */
void overlap_board_claim(struct overlap_board *b, unsigned int slot,
			 uint64_t offset, uint32_t len,
			 volatile sig_atomic_t *stop)
{
	for (;;) {
		board_lock(b);
		if (!board_overlaps(b, slot, offset, len) || *stop) {
			b->slots[slot].offset = offset;
			b->slots[slot].len = len;
			board_unlock(b);
			return;
		}
		board_unlock(b);
		sched_yield();
	}
}

void overlap_board_release(struct overlap_board *b, unsigned int slot)
{
	board_lock(b);
	b->slots[slot].len = 0;
	board_unlock(b);
}
