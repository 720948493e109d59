// SPDX-License-Identifier: GPL-2.0
/* A worker's I/O units and the buffer area they point into (workload/io_mem.h). */
#include <errno.h>
#include <stdlib.h>

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

/* fio's buffers follow one another at the largest block size; a
 * multi-range trim's ranges go in a buffer too, so it holds them. */
static size_t unit_size(const struct job *job)
{
	size_t unit = job_max_bs(job);
	size_t ranges = job->engine && job->engine->trim_ranges &&
			rw_has_dir(job->rw, DDIR_TRIM) ?
			job->engine->trim_ranges(job) * sizeof(struct trim_range) : 0;

	return ranges > unit ? ranges : unit;
}

int worker_alloc_units(struct worker *w, struct errbuf *err)
{
	const struct job *job = w->job;
	size_t unit = unit_size(job);
	int ret;

	w->nr_units = job->iodepth;
	w->buf_unit_size = unit;
	w->buf_area_size = unit * w->nr_units;
	ret = io_mem_alloc(&w->mem, job, w->buf_area_size, err);
	if (ret)
		return ret;
	w->buf_area = w->mem.buffers;
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
