/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A simple block sequence for one file of several (file_service): fio keeps
 * a random map per file; a job's single region uses workload/offsets.h,
 * fio's own generator.
 */
#ifndef IODIG_OFFSET_MAP_H
#define IODIG_OFFSET_MAP_H

#include <stdbool.h>
#include <stdint.h>

#include "base/rng.h"
#include "workload/block_map.h"

/*
 * Offsets of one worker's region in blocks of @block bytes.  Sequential
 * wraps around; random with a map visits every block once per pass (fio's
 * default), norandommap draws blocks independently.
 */
struct offset_gen {
	bool random;
	uint64_t nblocks;
	uint64_t next;          /* sequential cursor */
	struct block_map map;   /* blocks used this pass; no bits: no map */
};

int offset_gen_init(struct offset_gen *g, uint64_t nblocks, bool random,
		    bool use_map);
/* Next block index; never fails (a new pass starts when all are used). */
uint64_t offset_gen_next(struct offset_gen *g, struct rng *r);
/* An I/O at block @b, which offset_gen_next gave, spans @want blocks:
 * marks those after @b not used yet, up to the first used one (fio's
 * mark_random_map), and returns how many it has, @b's included; @want
 * without a map. */
uint64_t offset_gen_cover(struct offset_gen *g, uint64_t b, uint64_t want);
void offset_gen_free(struct offset_gen *g);

#endif /* IODIG_OFFSET_MAP_H */
