// SPDX-License-Identifier: GPL-2.0
/*
 * I/O lengths as fio 3.33 draws them (io_u.c, get_next_buflen), from its
 * per-direction generators seeded as fio seeds them, so a bsrange or
 * bssplit job issues the sizes fio's would.
 */
#include "workload/buflen.h"

void buflen_init(struct buflen_gen *g, const struct job *job,
		 struct frand_base seed_base, unsigned int thread_number)
{
	/* fio: with verify, writes use the read seed, so a read back
	 * draws the lengths the writes drew */
	enum frand_purpose wp = job->verify != VERIFY_NONE ? FRAND_BS_READ :
			       FRAND_BS_WRITE;
	/* and trimwrite's trims the write seed (fio's td_fill_rand_seeds) */
	enum frand_purpose tp = rw_is_trimwrite(job->rw) ? wp : FRAND_BS_TRIM;

	bool use64 = job->random_generator == RGEN_TAUSWORTHE64;

	g->job = job;
	frand_seed(&g->state[DDIR_READ],
		   frand_job_seed(seed_base, thread_number, FRAND_BS_READ), use64);
	frand_seed(&g->state[DDIR_WRITE],
		   frand_job_seed(seed_base, thread_number, wp), use64);
	frand_seed(&g->state[DDIR_TRIM],
		   frand_job_seed(seed_base, thread_number, tp), use64);
}

/* bssplit: the first size, in ascending percentage order, whose running
 * percentage covers the draw (of a generator whose largest value is
 * @rmax) and that fits; the last one when none does. */
static uint64_t pick_split(const struct bssplit *s, uint64_t r, uint64_t rmax,
			   uint64_t room)
{
	uint64_t len = 0, perc = 0;

	for (unsigned int i = 0; i < s->nr; i++) {
		if (!s->e[i].perc)
			continue;
		len = s->e[i].bs;
		perc += s->e[i].perc;
		if (r / perc <= rmax / 100 && len <= room)
			break;
	}
	return len;
}

uint32_t buflen_next(struct buflen_gen *g, enum ddir d, uint64_t room,
		     bool random)
{
	const struct job *job = g->job;
	uint64_t minbs, maxbs, rmax, len;

	/* fio's bs_is_seq_rand: the read sizes (and their generator) are
	 * the sequential I/Os', the write ones the random I/Os' */
	if (job->bs_is_seq_rand)
		d = random ? DDIR_WRITE : DDIR_READ;
	minbs = job->bs_min[d];
	maxbs = job->bs_max[d];
	if (minbs == maxbs)
		return (uint32_t)minbs;
	if (minbs > room)
		return 0;
	/* fio's rand_max: tausworthe64 draws 64 bits, the others 32 */
	rmax = g->state[d].use64 ? UINT64_MAX : UINT32_MAX;
	do {
		uint64_t r = frand_next(&g->state[d]);

		if (!job->bssplit[d].nr)
			len = minbs + (uint64_t)((double)maxbs *
						 ((double)r / ((double)rmax + 1.0)));
		else
			len = pick_split(&job->bssplit[d], r, rmax, room);
		if (job->bs_unaligned)
			; /* fio's bs_unaligned: any size in the range */
		/* fio rounds down by masking when minbs is a power of 2 */
		else if (!(minbs & (minbs - 1)))
			len &= ~(minbs - 1);
		else
			len -= len % minbs;
		if (len > maxbs)
			len = maxbs;
	} while (len > room);
	return (uint32_t)len;
}
