/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where each I/O of a worker goes, after fio 3.33's get_next_offset: fio's
 * random offsets (its Tausworthe generator seeded as fio seeds it, scaled
 * as fio scales it, a map of the blocks done so each is visited once a
 * pass), sequential offsets with rw=...:N's holes or backwards steps, and
 * rw=randX:N's runs between random offsets (rw_sequencer).
 */
#ifndef IODIG_OFFSETS_H
#define IODIG_OFFSETS_H

#include <stdbool.h>
#include <stdint.h>

#include "workload/block_map.h"
#include "workload/fio_rand.h"
#include "workload/job.h"
#include "workload/lfsr.h"
#include "workload/random_dist.h"
#include "workload/sprandom.h"
#include "workload/strided.h"

struct offsets {
	const struct job *job;
	uint64_t region_len;          /* fio's f->io_size */
	uint64_t real_len;            /* to the file's end (real_file_size) */
	uint32_t align[DDIR_COUNT];   /* fio's ba: random offsets' unit */
	bool wrap;                    /* sequential offsets wrap in place at
				       * the region's end (fio 3.33's
				       * get_next_seq_offset: time_based);
				       * random ones with time_based.
				       * Other passes end and the caller
				       * starts the next. */
	struct offsets *draws;        /* whose generators (rand, seq_rand) and
				       * rw=randX:N count (seq_nr_left)
				       * this one draws from: itself, or for
				       * a file of several the job's, as
				       * fio's are the thread's while its
				       * map, lfsr, positions and
				       * distribution are the file's */
	struct frand rand;            /* fio's random_state */
	struct frand seq_rand;        /* percentage_random's draws */
	struct random_dist dist;      /* random_distribution other than random */
	struct lfsr lfsr;             /* random_generator=lfsr's blocks */
	struct block_map map;         /* a bit per align[] block; no bits:
				       * none */
	uint64_t last_pos[DDIR_COUNT];   /* end of the last I/O, relative */
	uint64_t last_start[DDIR_COUNT]; /* UINT64_MAX: none yet */
	unsigned int seq_nr_left;     /* I/Os until rw=randX:N's next random */
	struct strided zone;          /* zonemode=strided; .on false: none */
	uint64_t issued[DDIR_COUNT];  /* I/Os taken, all loops (fio's
				       * io_issues) */
	struct sprandom spr;          /* sprandom's writes; .regions 0: none */
	int error;                    /* -errno when offsets_next could not go
				       * on (a sequence block past the region,
				       * sprandom out of memory); else 0 */
	const char *error_what;       /* what failed, for the message */
};

/* Where the offsets of offsets_next start, relative to the region: the
 * strided zone's base, else 0. */
static inline uint64_t offsets_base(const struct offsets *o)
{
	return o->zone.base;
}

/* @seed_base: randseed (or a random one without randrepeat), turned into
 * fio's per-purpose seed for @thread_number.  -ERANGE: sprandom's
 * regions would be smaller than a block. */
int offsets_init(struct offsets *o, const struct job *job,
		 uint64_t region_len, uint64_t real_len, bool wrap,
		 struct frand_base seed_base, unsigned int thread_number);

/* @o, the offsets of one file of several, draws from @job's generators
 * (fio's td->random_state): the files' random offsets are one sequence. */
void offsets_share_draws(struct offsets *o, struct offsets *job);

/* The offset, relative to the region, of the next I/O in direction @d;
 * false when the job has none left (fio's files done) or, with ->error
 * set, when it cannot go on (a sequence block past the region, sprandom
 * out of memory).  @random says whether it was a random one (the map is
 * then marked by offsets_take). */
bool offsets_next(struct offsets *o, enum ddir d, uint64_t *rel,
		  bool *random);

/* Records the I/O at @rel of @len bytes: marks the map for a random one
 * and returns its length, cut where it would reach a block already done
 * (fio's mark_random_map); 0 when a strided zone's I/O would pass the
 * file's end. */
uint32_t offsets_take(struct offsets *o, enum ddir d, uint64_t rel,
		      uint32_t len, bool random);

/* trimwrite, randtrimwrite: a trim when the last write went where the
 * last trim did (or before any I/O), else the write of the trimmed block
 * (fio's set_rw_ddir). */
enum ddir offsets_trimwrite_ddir(const struct offsets *o);

/* A trimwrite or randtrimwrite write: the range the last trim discarded,
 * not marked in the map (fio's get_next_block and get_next_buflen); false
 * before any trim. */
bool offsets_after_trim(const struct offsets *o, uint64_t *rel,
			uint32_t *len);

/* The random offsets' and percentage_random's generators from their
 * seeds again (offsets_init's). */
void offsets_reseed(struct offsets *o, struct frand_base seed_base,
		    unsigned int thread_number);

/* A new loop: every block unvisited, sequential from the start again. */
void offsets_reset(struct offsets *o);
void offsets_free(struct offsets *o);

#endif /* IODIG_OFFSETS_H */
