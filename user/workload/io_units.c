// SPDX-License-Identifier: GPL-2.0
/* A worker's I/O units and the page-aligned buffer area they point into. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "workload/io_units.h"
#include "workload/worker.h"

uint32_t job_max_bs(const struct job *job)
{
	uint32_t m = 0;

	for (int d = 0; d < DDIR_COUNT; d++)
		if (job->bs_max[d] > m)
			m = job->bs_max[d];
	return m;
}

int worker_alloc_units(struct worker *w, struct errbuf *err)
{
	const struct job *job = w->job;
	long page = sysconf(_SC_PAGESIZE);
	size_t unit = (job_max_bs(job) + page - 1) / page * page;

	w->nr_units = job->iodepth;
	w->buf_unit_size = unit;
	w->buf_area_size = unit * w->nr_units;
	if (posix_memalign(&w->buf_area, page, w->buf_area_size))
		return err_set(err, ENOMEM, "cannot allocate %zu bytes of I/O buffers",
			       w->buf_area_size);
	w->units = calloc(w->nr_units, sizeof(*w->units));
	w->reaped = calloc(w->nr_units, sizeof(*w->reaped));
	if (!w->units || !w->reaped)
		return err_set(err, ENOMEM, "cannot allocate %u I/O units", w->nr_units);
	for (unsigned int i = 0; i < w->nr_units; i++) {
		w->units[i].index = i;
		w->units[i].buf = (char *)w->buf_area + (size_t)i * unit;
	}
	return 0;
}
