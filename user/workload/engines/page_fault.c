// SPDX-License-Identifier: GPL-2.0
/*
 * page_fault: fio's engine (after 3.33) whose I/Os are loads and stores
 * to anonymous memory, so the I/O is the page faults themselves: the
 * first touch of each page, a read mapping the zero page and a write a
 * new page (or a copy of the zero page).  The mapping is private,
 * anonymous and of the job's size=, one per job, as fio's; there is no
 * file (fio's FIO_DISKLESSIO), so the faults family is what shows it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sys/mman.h>

#include "workload/engines/shared.h"
#include "workload/worker.h"

struct page_fault_data {
	struct engine_map map; /* from offset 0 */
};

/* fio refuses both at init: the engine maps one region from offset 0. */
static int page_fault_check_job(const struct job *job, const char *where,
				struct errbuf *err)
{
	if (job->nrfiles > 1)
		return err_set(err, EINVAL, "%s: ioengine=page_fault maps one anonymous region: nrfiles=%u is more than one file",
			       where, job->nrfiles);
	if (job->offset)
		return err_set(err, EINVAL, "%s: ioengine=page_fault maps its region from 0: offset=%llu is not supported (fio refuses it too)",
			       where, (unsigned long long)job->offset);
	return 0;
}

static int page_fault_init(struct worker *w, struct errbuf *err)
{
	struct page_fault_data *d = w->engine_data;
	void *map;

	if (!w->region_len)
		return err_set(err, EINVAL, "page_fault: the job's size is 0: give size=");
	map = mmap(NULL, (size_t)w->region_len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (map == MAP_FAILED)
		return err_set(err, errno, "page_fault: mmap of %llu bytes of anonymous memory: %m",
			       (unsigned long long)w->region_len);
	d->map = (struct engine_map){ map, (size_t)w->region_len, 0 };
	return 0;
}

static void page_fault_cleanup(struct worker *w)
{
	engine_map_unmap(&((struct page_fault_data *)w->engine_data)->map);
}

static enum io_result page_fault_queue(struct worker *w, struct io_unit *u)
{
	struct page_fault_data *d = w->engine_data;

	return engine_map_io(u, &d->map, engine_map_memcpy, 0);
}

ENGINE_DEFINE(page_fault, ENGINE_SYNC | ENGINE_DISKLESS,
	      ENGINE_STATE(struct page_fault_data),
	      ENGINE_STATE_OPS(page_fault), .check_job = page_fault_check_job);
