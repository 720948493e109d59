// SPDX-License-Identifier: GPL-2.0
/* fio 3.33's read/write runs of mixed jobs (workload/rwmix.h). */
#include <string.h>

#include "workload/rwmix.h"

void rwmix_init(struct rwmix *m, const struct job *job, struct frand_base seed_base,
		unsigned int thread_number)
{
	memset(m, 0, sizeof(*m));
	m->read_pct = job->rwmixread;
	m->ddir = DDIR_READ;
	m->seed = frand_job_seed(seed_base, thread_number, FRAND_MIX);
	frand_seed(&m->state, m->seed, false);
}

enum ddir rwmix_next(struct rwmix *m)
{
	enum ddir d;

	if (m->issued[m->ddir] < m->run_until)
		return m->ddir;
	d = frand_between(&m->state, 1, 100) <= m->read_pct ? DDIR_READ : DDIR_WRITE;
	/* fio's set_rwmix_bytes, before the switch: the direction being
	 * left's count, times the share of the one taken */
	if (d != m->ddir)
		m->run_until = m->issued[m->ddir] * rwmix_share(m, d) / 100;
	m->ddir = d;
	return d;
}

void rwmix_new_loop(struct rwmix *m, bool reseed)
{
	m->run_until = 0;
	if (reseed)
		frand_seed(&m->state, m->seed, false);
}

void rwmix_reset_counts(struct rwmix *m)
{
	m->run_until = 0;
	m->issued[DDIR_READ] = m->issued[DDIR_WRITE] = 0;
}
