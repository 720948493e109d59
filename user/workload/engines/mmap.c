// SPDX-License-Identifier: GPL-2.0
/*
 * mmap: the job's region is mapped MAP_SHARED once and every I/O is a
 * memcpy on the worker's thread, so the page faults (page cache or DAX)
 * are taken by the workload itself, where the probes see them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/fs.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload/engines/shared.h"
#include "workload/worker.h"

/* The engine's job options, in job->engine_opts. */
struct mmap_opts {
	unsigned int thp;
};
ENGINE_OPTS_FIT(struct mmap_opts);

/* fio 3.33's [mmap] options. */
static const struct opt_desc mmap_options[] = {
	UINT_OPT("thp", OPT_FIELD(struct mmap_opts, thp), "0", 0, UINT_MAX,
		 "Map the file private and advise MADV_HUGEPAGE (writes then stay in the worker's "
		 "copy, as fio's)"),
	{ .name = NULL },
};

struct mmap_data {
	char *map;
	size_t map_len;
	uint64_t map_off;     /* file offset of map[0], page aligned */
	uint64_t region_end;  /* first byte after the job's region */
	size_t page;
	bool sync_writes;     /* direct=1: msync each write */
};

static void mmap_cleanup(struct worker *w)
{
	struct mmap_data *d = w->engine_data;

	if (!d)
		return;
	if (d->map)
		munmap(d->map, d->map_len);
}

/* fio 3.33's mmap engine advises its mapping by the job's rw, random or
 * sequential, whenever fadvise_hint is not 0 (its random and sequential
 * values only change the open's fadvise), and not at all with 0.
 * MADV_RANDOM turns fault-around readahead off, MADV_SEQUENTIAL makes it
 * larger, and that changes which faults the kernel takes.  Advice is only
 * a hint, so a failure is not an error (fio's check of posix_madvise's
 * result for < 0 never fires either). */
static void advise_map(const struct mmap_data *d, const struct job *job)
{
	const struct mmap_opts *o = engine_opts_of(job);

	/* thp: transparent huge pages for the mapping, before the rest */
	if (o->thp)
		madvise(d->map, d->map_len, MADV_HUGEPAGE);
	if (job->fadvise_hint != FADVISE_NONE)
		madvise(d->map, d->map_len,
			rw_is_random(job->rw) ? MADV_RANDOM : MADV_SEQUENTIAL);
}

/* Bytes the target holds: st_size for files, BLKGETSIZE64 for devices
 * (whose st_size is 0). */
static int target_bytes(struct worker *w, uint64_t *size, struct errbuf *err)
{
	struct stat st;

	if (fstat(w->fd, &st) < 0)
		return err_set(err, errno, "mmap on %s: fstat: %m", w->path);
	if (S_ISBLK(st.st_mode)) {
		if (ioctl(w->fd, BLKGETSIZE64, size) < 0)
			return err_set(err, errno, "mmap on %s: BLKGETSIZE64: %m", w->path);
		return 0;
	}
	if (!S_ISREG(st.st_mode))
		return err_set(err, EINVAL,
			       "mmap on %s: only regular files and block devices can be mapped",
			       w->path);
	*size = (uint64_t)st.st_size;
	return 0;
}

static int mmap_init(struct worker *w, struct errbuf *err)
{
	const struct job *job = w->job;
	struct mmap_data *d;
	uint64_t size = 0;
	int prot, ret;

	if (!w->region_len)
		return err_set(err, EINVAL, "mmap on %s: the job's region is empty", w->path);
	ret = target_bytes(w, &size, err);
	if (ret)
		return ret;
	/* Touching a mapped page wholly past EOF raises SIGBUS, which would
	 * kill the worker mid-run. */
	if (size < w->region_start + w->region_len)
		return err_set(err, EINVAL,
			       "mmap on %s: the target has %llu bytes but the job's region ends at %llu; accessing the mapping past the end would raise SIGBUS",
			       w->path, (unsigned long long)size,
			       (unsigned long long)(w->region_start + w->region_len));

	d = w->engine_data;
	d->page = (size_t)sysconf(_SC_PAGESIZE);
	d->map_off = w->region_start & ~((uint64_t)d->page - 1);
	d->region_end = w->region_start + w->region_len;
	d->map_len = (size_t)(d->region_end - d->map_off);
	/*
	 * fio's mmap engine has no O_DIRECT: with direct=1 it msyncs after
	 * each I/O so writes reach the device before they complete.  We do
	 * the same for writes (msync of clean pages after a read does
	 * nothing).
	 */
	d->sync_writes = job->direct;

	prot = PROT_READ | (rw_has_write(job->rw) ? PROT_WRITE : 0);
	/* fio maps the file private with thp, its writes never reaching it */
	d->map = mmap(NULL, d->map_len, prot,
		      ((const struct mmap_opts *)engine_opts_of(job))->thp ?
		      MAP_PRIVATE : MAP_SHARED, w->fd, (off_t)d->map_off);
	if (d->map == MAP_FAILED) {
		d->map = NULL;
		ret = err_set(err, errno,
			      "mmap on %s: mmap(%zu bytes at offset %llu, %s): %m",
			      w->path, d->map_len, (unsigned long long)d->map_off,
			      prot & PROT_WRITE ? "read-write" : "read-only");
		return ret;
	}
	advise_map(d, job);
	return 0;
}

static enum io_result mmap_queue(struct worker *w, struct io_unit *u)
{
	struct mmap_data *d = w->engine_data;
	char *p;

	if (u->offset < w->region_start || u->offset > d->region_end ||
	    u->len > d->region_end - u->offset) {
		u->result = -EINVAL;
		return IO_COMPLETED;
	}
	p = d->map + (u->offset - d->map_off);
	if (u->ddir == DDIR_WRITE) {
		memcpy(p, u->buf, u->len);
		if (d->sync_writes) {
			size_t lead = (size_t)((uintptr_t)p & (d->page - 1));

			if (msync(p - lead, u->len + lead, MS_SYNC) < 0) {
				u->result = -errno;
				return IO_COMPLETED;
			}
		}
	} else {
		memcpy(u->buf, p, u->len);
	}
	u->result = u->len;
	return IO_COMPLETED;
}

ENGINE_DEFINE(mmap, ENGINE_SYNC | ENGINE_MMAP, ENGINE_STATE(struct mmap_data),
	      ENGINE_STATE_OPS(mmap), .options = mmap_options);
