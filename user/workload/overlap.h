/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's serialize_overlap: no I/O is issued while another in flight
 * overlaps it.  Inline, the worker holds the unit back until the
 * conflicting one completes (fio's in_flight_overlap, a busy queue).
 * With io_submit_mode=offload the check spans every offloaded job that
 * asks for it (fio's check_overlap): their submit threads share a board
 * of in-flight ranges in memory that worker processes share too.  As in
 * fio, ranges are compared by offset alone, whatever file they are in.
 */
#ifndef IODIG_OVERLAP_H
#define IODIG_OVERLAP_H

#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/engine.h"
#include "workload/job.h"

/* Does [a_off, a_off + a_len) meet [b_off, b_off + b_len)? */
static inline bool ranges_overlap(uint64_t a_off, uint32_t a_len,
				  uint64_t b_off, uint32_t b_len)
{
	return a_off < b_off + b_len && b_off < a_off + a_len;
}

/* Inline: is a unit of @units other than @u in flight over @u's range? */
bool unit_overlaps_in_flight(const struct io_unit *units, unsigned int nr,
			     const struct io_unit *u);

/* One submit thread's I/O in flight; len 0: none. */
struct overlap_slot {
	uint64_t offset;
	uint32_t len;
};

/* The offloaded jobs' in-flight I/O, one slot per submit thread of each
 * of their workers; a spin lock, as fio's check retries at once. */
struct overlap_board {
	atomic_flag lock;
	unsigned int nr;
	struct overlap_slot slots[];
};

/* The board's bytes for @nr slots. */
size_t overlap_board_size(unsigned int nr);
/* Sets up the board in zeroed memory of overlap_board_size(@nr) bytes. */
void overlap_board_init(struct overlap_board *b, unsigned int nr);
/* The slots the jobs' offloaded serialize_overlap workers need. */
unsigned int overlap_board_slots(const struct job *jobs, size_t nr_jobs);
/* Does @job's worker take part in the board? */
bool job_uses_overlap_board(const struct job *job);

/* Takes @slot for [offset, offset + len) once no other slot's range meets
 * it, waiting for them; gives up waiting when *@stop is set. */
void overlap_board_claim(struct overlap_board *b, unsigned int slot,
			 uint64_t offset, uint32_t len,
			 volatile sig_atomic_t *stop);
/* The I/O of @slot completed. */
void overlap_board_release(struct overlap_board *b, unsigned int slot);

#endif /* IODIG_OVERLAP_H */
