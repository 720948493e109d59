// SPDX-License-Identifier: GPL-2.0
/*
 * libpmem: fio's engine over PMDK's libpmem.  The job's file is mapped
 * with pmem_map_file (created or sized to the job's size, as fio's
 * PMEM_FILE_CREATE does) and must be persistent memory, a file on a
 * DAX filesystem (libpmem's PMEM_IS_PMEM_FORCE=1 overrides the check, as
 * it does for fio).  Reads are memcpy from the mapping; writes are
 * pmem_memcpy, non-temporal with direct=1, without a drain (fio's
 * PMEM_F_MEM_NODRAIN) unless sync=1; the drain comes at the end, unless
 * direct=1, as fio's close_file does it.  So
 * the I/O is loads, stores and DAX faults, which the faults family sees.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libpmem.h>
#include <sys/stat.h>

#include "workload/engines/pmem_lib.h"
#include "workload/engines/shared.h"
#include "workload/worker.h"

struct libpmem_data {
	/* fio places each I/O at its offset from the job's start: map.off
	 * is the region's start */
	struct engine_map map;
	unsigned int flags;   /* pmem_memcpy's */
};

/* fio maps one file per job from its start. */
static int libpmem_check_job(const struct job *job, const char *where,
			     struct errbuf *err)
{
	if (job->nrfiles > 1)
		return err_set(err, EINVAL, "%s: ioengine=libpmem: iodig maps one file per job, not nrfiles=%u",
			       where, job->nrfiles);
	return 0;
}

/* pmem_map_file with PMEM_FILE_CREATE sizes what it maps: only a regular
 * file (or one it creates) may be given. */
static int libpmem_need_file(struct worker *w, struct errbuf *err)
{
	struct stat st;

	if (stat(w->path, &st) < 0)
		return errno == ENOENT ? 0 :
		       err_set(err, errno, "libpmem on %s: stat: %m", w->path);
	if (!S_ISREG(st.st_mode))
		return err_set(err, EINVAL, "libpmem on %s: not a regular file: the engine maps a file on a DAX filesystem (for a device-DAX character device fio has dev-dax)",
			       w->path);
	return 0;
}

static int libpmem_init(struct worker *w, struct errbuf *err)
{
	struct libpmem_data *d = w->engine_data;
	struct engine_map *m = &d->map;
	size_t mapped = 0;
	int is_pmem = 0, ret = libpmem_need_file(w, err);

	if (!ret)
		ret = pmem_lib_open("libpmem", err);
	if (ret)
		return ret;
	m->addr = pmem_lib_map_file(w->path, (size_t)w->region_len, PMEM_FILE_CREATE,
				S_IRUSR | S_IWUSR, &mapped, &is_pmem);
	if (!m->addr)
		return err_set(err, errno, "libpmem on %s: pmem_map_file of %llu bytes: %s",
			       w->path, (unsigned long long)w->region_len,
			       pmem_lib_errormsg());
	m->len = mapped;
	m->off = w->region_start;
	if (!is_pmem) {
		pmem_lib_unmap(m->addr, m->len);
		m->addr = NULL;
		return err_set(err, EOPNOTSUPP, "libpmem on %s: the file is not persistent memory (not on a DAX filesystem), which fio refuses too; PMEM_IS_PMEM_FORCE=1 in the environment makes libpmem treat it as such",
			       w->path);
	}
	/* fio drains after each write only with sync=1 */
	d->flags = (w->job->sync_flags ? 0 : PMEM_F_MEM_NODRAIN) |
		   (w->job->direct ? PMEM_F_MEM_NONTEMPORAL : PMEM_F_MEM_TEMPORAL);
	return 0;
}

static void libpmem_cleanup(struct worker *w)
{
	struct libpmem_data *d = w->engine_data;

	if (!w->job->direct)
		pmem_lib_drain();
	if (d->map.addr)
		pmem_lib_unmap(d->map.addr, d->map.len);
}

static void libpmem_store(void *dst, const void *src, size_t len,
			  unsigned int flags)
{
	pmem_lib_memcpy(dst, src, len, flags);
}

static enum io_result libpmem_queue(struct worker *w, struct io_unit *u)
{
	struct libpmem_data *d = w->engine_data;

	return engine_map_io(u, &d->map, libpmem_store, d->flags);
}

ENGINE_DEFINE(libpmem, ENGINE_SYNC | ENGINE_DISKLESS | ENGINE_ALIGNED_BUFFERS,
	      ENGINE_STATE(struct libpmem_data), ENGINE_STATE_OPS(libpmem),
	      .check_job = libpmem_check_job);
