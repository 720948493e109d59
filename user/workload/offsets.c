// SPDX-License-Identifier: GPL-2.0
/*
 * Offsets of a worker's I/O, after fio 3.33's io_u.c (get_next_offset,
 * get_next_seq_offset, __get_next_rand_offset, mark_random_map): the same
 * draws from the same seeds give the same random offsets as fio's
 * default tausworthe generator.  All offsets here are relative to the
 * job's region.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "workload/offsets.h"

#define NONE UINT64_MAX

/* fio's td_min_bs: the smallest block size of any direction. */
static uint32_t min_bs(const struct job *job)
{
	uint32_t m = job->bs_min[DDIR_READ];

	for (int d = 1; d < DDIR_COUNT; d++)
		if (job->bs_min[d] < m)
			m = job->bs_min[d];
	return m;
}

/* fio's rand_seeds[FIO_RAND_BLOCK_OFF], which seeds the random offsets
 * and the lfsr: fio 3.33 seeds a repeatable job's from a constant of its
 * own, whatever randseed says. */
static uint64_t block_seed(const struct job *job, struct frand_base seed_base,
			   unsigned int thread_number)
{
	return job->randrepeat && !seed_base.seeded_clone ?
	       FIO_RANDSEED * thread_number :
	       frand_job_seed(seed_base, thread_number, FRAND_BLOCK);
}

void offsets_reseed(struct offsets *o, struct frand_base seed_base,
		    unsigned int thread_number)
{
	const struct job *job = o->job;

	frand_seed(&o->rand, block_seed(job, seed_base, thread_number),
		   job->random_generator == RGEN_TAUSWORTHE64);
	frand_seed(&o->seq_rand, frand_job_seed(seed_base, thread_number,
						FRAND_SEQ_RAND_READ), false);
}

int offsets_init(struct offsets *o, const struct job *job,
		 uint64_t region_len, uint64_t real_len, bool wrap,
		 struct frand_base seed_base, unsigned int thread_number)
{
	bool aligned = true;
	uint64_t span;
	int ret;

	memset(o, 0, sizeof(*o));
	o->job = job;
	o->draws = o;
	o->region_len = region_len;
	o->real_len = real_len > region_len ? real_len : region_len;
	o->wrap = wrap;
	for (int d = 0; d < DDIR_COUNT; d++) {
		o->align[d] = job->blockalign[d] ? job->blockalign[d] :
			      job->bs_min[d];
		aligned &= o->align[d] == job->bs_min[d];
	}
	offsets_reseed(o, seed_base, thread_number);
	random_dist_init(&o->dist, job, region_len, seed_base, thread_number,
			 block_seed(job, seed_base, thread_number));
	strided_init(&o->zone, job, o->real_len);
	/* fio's random map and lfsr span the region, or a strided zone */
	span = o->zone.on ? o->zone.range : region_len;
	/* fio: one cycle over the blocks of the smallest block size */
	ret = lfsr_init(&o->lfsr, span / min_bs(job),
			block_seed(job, seed_base, thread_number));
	if (ret && job->random_generator == RGEN_LFSR) {
		o->error_what = "random_generator=lfsr (no register for the blocks and seed)";
		return ret;
	}
	offsets_reset(o);
	if (job->sprandom.on) {
		ret = sprandom_init(&o->spr, job, region_len,
				    frand_job_seed(seed_base, thread_number,
						   FRAND_SPRANDOM));
		if (ret)
			return ret;
	}
	/* fio: any blockalign other than the block size turns the map off,
	 * and lfsr, which comes to each block once, has none */
	if (!rw_is_random(job->rw) || job->norandommap || !aligned ||
	    job->random_generator == RGEN_LFSR)
		return 0;
	/* fio sizes the map by the smallest block size of any direction
	 * but indexes it in each direction's alignment; a block past the
	 * region then ends the job, as in fio */
	return block_map_init(&o->map, span / min_bs(job));
}

/* fio's fio_file_reset: from the start of the region (or strided zone),
 * every block unvisited. */
static void rewind_file(struct offsets *o)
{
	for (int d = 0; d < DDIR_COUNT; d++) {
		o->last_pos[d] = 0;
		o->last_start[d] = NONE;
	}
	lfsr_reset(&o->lfsr);
	if (o->map.bits)
		block_map_clear(&o->map);
}

void offsets_reset(struct offsets *o)
{
	rewind_file(o);
	o->seq_nr_left = 1; /* fio's first I/O is a random one */
	o->zone.bytes = 0;
}

/* fio's setup_strided_zone_mode: positions are relative to the zone. */
static void strided_step(struct offsets *o, enum ddir d)
{
	bool moved, restart = strided_enter(&o->zone, &moved);

	if (moved || o->last_pos[d] >= o->zone.range)
		o->last_pos[d] = 0;
	if (restart)
		rewind_file(o);
}

/* fio's get_next_seq_offset, relative to the region: a pass wraps at
 * the region's end only when passes may repeat; holes wrap at the
 * file's end (fio's real_file_size); false when past that. */
static bool next_seq(struct offsets *o, enum ddir d, uint64_t *rel)
{
	const struct job *job = o->job;
	int64_t add = job->rw_seq_add;
	uint64_t len = o->region_len, pos = o->last_pos[d];
	uint64_t real = o->real_len - o->zone.base; /* fio's real_file_size */
	uint64_t end = real > len ? len : real;

	if (pos >= len && o->wrap)
		pos = 0;
	if (pos >= real)
		return false;
	/* fio rewinds a backwards job with an offset to the region's end */
	if (!pos && job->offset && add < 0)
		pos = end > job->offset ? end - job->offset : end;
	if (pos && add) {
		pos += (uint64_t)add;
		if (pos >= real)
			pos = add > 0 ? 0 : end + (uint64_t)add;
	}
	*rel = pos;
	return true;
}

/* random_generator=lfsr: the cycle's next block this direction's block
 * size fits; once every block came, a new cycle when passes repeat. */
static bool next_lfsr(struct offsets *o, enum ddir d, uint64_t lastb,
		      uint64_t *rel)
{
	uint64_t b = lastb;

	while (b >= lastb) {
		if (lfsr_next(&o->lfsr, &b))
			continue;
		if (!o->job->time_based || !o->lfsr.blocks)
			return false;
		lfsr_reset(&o->lfsr);
		if (o->map.bits)
			block_map_clear(&o->map);
		b = lastb;
	}
	*rel = b * o->align[d];
	return true;
}

/* random_distribution=sequence: fio counts the blocks in the region by
 * the block size and places them by the alignment. */
static bool next_in_sequence(struct offsets *o, enum ddir d, uint64_t *rel)
{
	uint64_t b;
	int ret = random_dist_sequence(&o->dist, o->issued[d],
				       o->region_len / o->job->bs_min[d], &b);

	if (ret < 0) {
		o->error = ret;
		o->error_what = "random_distribution=sequence names a block past the region";
	}
	*rel = b * o->align[d];
	return !ret;
}

/* sprandom's writes: its next block, none once it is done. */
static bool next_sprandom(struct offsets *o, enum ddir d, uint64_t *rel)
{
	uint64_t b;
	int ret = sprandom_next(&o->spr, &o->lfsr, &b);

	if (ret < 0) {
		o->error = ret;
		o->error_what = "sprandom";
	}
	if (ret <= 0)
		return false;
	*rel = b * o->align[d];
	return true;
}

/* fio's random block: lastb * r / (max + 1), then the next free one. */
static bool next_rand(struct offsets *o, enum ddir d, uint64_t *rel)
{
	const struct job *job = o->job;
	uint64_t max = o->zone.on ? o->zone.range : o->region_len;
	uint64_t lastb, b, first = 0;
	struct frand *rand = &o->draws->rand;

	/* fio: sprandom decides every write, whatever the distribution */
	if (o->spr.regions && d == DDIR_WRITE)
		return next_sprandom(o, d, rel);

	if (job->bs_min[d] > o->align[d])
		max -= job->bs_min[d] - o->align[d];
	lastb = max / o->align[d];
	if (!lastb)
		return false;
	switch (job->random_distribution.kind) {
	case DIST_ZIPF:
	case DIST_PARETO:
	case DIST_NORMAL:
		*rel = random_dist_block(&o->dist) * o->align[d];
		return true;
	case DIST_ZONED:
	case DIST_ZONED_ABS:
		random_dist_zone(&o->dist, d, lastb, o->align[d], &first, &lastb);
		break;
	case DIST_SEQUENCE:
		return next_in_sequence(o, d, rel);
	case DIST_RANDOM:
		if (job->random_generator == RGEN_LFSR)
			return next_lfsr(o, d, lastb, rel);
		break;
	}
	b = first + (uint64_t)((double)lastb * ((double)frand_next(rand) /
						(rand->use64 ? 18446744073709551616.0 :
							       4294967296.0)));
	if (o->map.bits && block_map_isset(&o->map, b)) {
		/* fio's axmap_next_free: the first free block after b */
		b = block_map_next_free(&o->map, b + 1 < o->map.blocks ? b + 1 : 0);
		/* fio's get_next_rand_block: time_based resets the file in
		 * place; otherwise the pass is over */
		if (b == BLOCK_MAP_FULL && !o->job->time_based)
			return false;
		if (b == BLOCK_MAP_FULL) {
			block_map_clear(&o->map);
			return next_rand(o, d, rel);
		}
	}
	*rel = b * o->align[d];
	return true;
}

/* percentage_random: this share of a random job's I/Os random, the
 * rest sequential (fio's should_do_random). */
static bool should_do_random(struct offsets *o, enum ddir d)
{
	unsigned int perc = o->job->percentage_random[d];

	return perc >= 100 || frand_between(&o->draws->seq_rand, 1, 100) <= perc;
}

void offsets_share_draws(struct offsets *o, struct offsets *job)
{
	o->draws = job;
}

bool offsets_next(struct offsets *o, enum ddir d, uint64_t *rel,
		  bool *random)
{
	const struct job *job = o->job;
	bool hit = false;

	*random = false;
	if (o->zone.on)
		strided_step(o, d);
	if (job->rw_seq_nr && !--o->draws->seq_nr_left) {
		hit = true;
		o->draws->seq_nr_left = job->rw_seq_nr;
	}
	if (!rw_is_random(job->rw)) {
		if (!next_seq(o, d, rel))
			return false;
	} else if (hit && should_do_random(o, d)) {
		*random = true;
		if (!next_rand(o, d, rel))
			return false;
	} else if (hit) {
		if (!next_seq(o, d, rel) && !next_rand(o, d, rel))
			return false;
	} else if (job->rw_sequencer == SEQ_IDENTICAL) {
		*rel = o->last_start[d] == NONE ? 0 : o->last_start[d];
	} else if (!next_seq(o, d, rel) && !next_rand(o, d, rel)) {
		return false;
	}
	/* fio's get_next_offset: nothing at or past the region's end, nor
	 * the file's */
	return *rel < o->region_len && o->zone.base + *rel < o->real_len;
}

uint32_t offsets_take(struct offsets *o, enum ddir d, uint64_t rel,
		      uint32_t len, bool random)
{
	if (o->zone.on && o->zone.base + rel + len > o->real_len)
		return 0;
	o->issued[d]++;
	if (o->map.bits && random) {
		uint64_t b = rel / o->align[d], n = 0;
		uint64_t want = (len + o->align[d] - 1) / o->align[d];

		while (n < want && b + n < o->map.blocks &&
		       !block_map_isset(&o->map, b + n)) {
			block_map_set(&o->map, b + n);
			n++;
		}
		/* fio's axmap sets bits past its end within its last 64-bit
		 * word and counts them: an I/O reaching the map's end is
		 * not cut there (a bs_unaligned size at the region's end) */
		if (n < want && b + n == o->map.blocks) {
			uint64_t past = ((o->map.blocks + 63) & ~63ull) - o->map.blocks;

			n += want - n < past ? want - n : past;
		}
		if (n && n * o->align[d] < len)
			len = (uint32_t)(n * o->align[d]);
	}
	/* fio: a randtrimwrite trim drawn where the last one was would
	 * look like its write done; moving the write's mark keeps the pair */
	if (d == DDIR_TRIM && o->job->rw == RW_RANDTRIMWRITE &&
	    o->last_start[DDIR_TRIM] == rel)
		o->last_start[DDIR_WRITE]--;
	o->last_start[d] = rel;
	o->last_pos[d] = rel + len;
	o->zone.bytes += len;
	return len;
}

enum ddir offsets_trimwrite_ddir(const struct offsets *o)
{
	return o->last_start[DDIR_WRITE] == o->last_start[DDIR_TRIM] ?
	       DDIR_TRIM : DDIR_WRITE;
}

bool offsets_after_trim(const struct offsets *o, uint64_t *rel,
			uint32_t *len)
{
	if (o->last_start[DDIR_TRIM] == NONE)
		return false;
	*rel = o->last_start[DDIR_TRIM];
	*len = (uint32_t)(o->last_pos[DDIR_TRIM] - o->last_start[DDIR_TRIM]);
	return true;
}

void offsets_free(struct offsets *o)
{
	if (!o)
		return;
	block_map_free(&o->map);
	sprandom_free(&o->spr);
}
