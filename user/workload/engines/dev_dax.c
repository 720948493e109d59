// SPDX-License-Identifier: GPL-2.0
/*
 * dev-dax: fio's engine for a device-DAX character device (/dev/daxX.Y),
 * persistent memory without a filesystem.  The device is sized from
 * sysfs as fio does (/sys/dev/char/MAJ:MIN/size) and the job's region is
 * mapped MAP_SHARED once; reads are memcpy from the mapping, writes
 * libpmem's pmem_memcpy_persist (copy, flush, fence), as fio's.  So the
 * I/O is loads, stores and the device's faults (dev_dax_huge_fault, at
 * the device's align: 4 KiB, 2 MiB or 1 GiB), which the faults family
 * sees; no block layer is involved.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <libpmem.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload/engines/char_dev.h"
#include "workload/engines/pmem_lib.h"
#include "workload/engines/shared.h"
#include "workload/worker.h"

#define DEV_DAX_NEEDS "ioengine=dev-dax needs a device-DAX character device (/dev/daxX.Y)"

struct dev_dax_data {
	struct engine_map map; /* its off a multiple of the device's align */
};

/* fio's dev-dax opens the device as any file: O_DIRECT, which a
 * character device refuses (EINVAL), fails its open; one mapping per job. */
static int dev_dax_check_job(const struct job *job, const char *where,
			     struct errbuf *err)
{
	if (job->direct)
		return err_set(err, EINVAL, "%s: ioengine=dev-dax: direct=1 opens the device with O_DIRECT, which a device-DAX device refuses; its I/O is direct by nature: use direct=0 (as fio's example does)",
			       where);
	if (job->nrfiles > 1)
		return err_set(err, EINVAL, "%s: ioengine=dev-dax: iodig maps one device per job, not nrfiles=%u",
			       where, job->nrfiles);
	return 0;
}

/* The size fio's get_file_size reads, for the runner. */
static int dev_dax_inspect_device(const char *path, struct engine_device *dev,
				  struct errbuf *err)
{
	dev_t rdev;
	int ret = char_dev_of_class(path, "dax", DEV_DAX_NEEDS, &rdev, err);

	if (!ret)
		ret = char_dev_attr(rdev, "size", &dev->size, err);
	if (ret)
		return ret;
	dev->block_size = (unsigned int)sysconf(_SC_PAGESIZE);
	return 1;
}

/* The device maps only whole units of its align (check_vma refuses
 * others); before Linux 5.10 it has no align attribute and maps 2 MiB. */
static uint64_t dev_dax_align(int fd)
{
	struct errbuf ignored = { 0 };
	uint64_t align = 0;
	struct stat st;

	if (fstat(fd, &st) || char_dev_attr(st.st_rdev, "align", &align, &ignored) ||
	    !align)
		align = 2ull << 20;
	return align;
}

static int dev_dax_init(struct worker *w, struct errbuf *err)
{
	struct engine_map *m = &((struct dev_dax_data *)w->engine_data)->map;
	uint64_t align = dev_dax_align(w->fd), end;
	int prot = PROT_READ | (rw_modifies(w->job->rw) ? PROT_WRITE : 0);
	int ret = pmem_lib_open("dev-dax", err);

	if (ret)
		return ret;
	if (!w->region_len)
		return err_set(err, EINVAL, "dev-dax on %s: the job's region is empty", w->path);
	m->off = w->region_start / align * align;
	end = (w->region_start + w->region_len + align - 1) / align * align;
	m->len = (size_t)(end - m->off);
	m->addr = mmap(NULL, m->len, prot, MAP_SHARED, w->fd, (off_t)m->off);
	if (m->addr == MAP_FAILED) {
		m->addr = NULL;
		return err_set(err, errno, "dev-dax on %s: mmap of %zu bytes at offset %llu (the device's align is %llu bytes): %m",
			       w->path, m->len, (unsigned long long)m->off,
			       (unsigned long long)align);
	}
	return 0;
}

static void dev_dax_cleanup(struct worker *w)
{
	engine_map_unmap(&((struct dev_dax_data *)w->engine_data)->map);
}

/* A write persists before it completes, as fio's dev-dax does. */
static void dev_dax_store(void *dst, const void *src, size_t len,
			  unsigned int flags)
{
	(void)flags;
	pmem_lib_memcpy_persist(dst, src, len);
}

static enum io_result dev_dax_queue(struct worker *w, struct io_unit *u)
{
	struct dev_dax_data *d = w->engine_data;

	return engine_map_io(u, &d->map, dev_dax_store, 0);
}

ENGINE_DEFINE_NAMED(dev_dax, "dev-dax", ENGINE_SYNC | ENGINE_MMAP,
		    ENGINE_STATE(struct dev_dax_data), ENGINE_STATE_OPS(dev_dax),
		    .check_job = dev_dax_check_job,
		    .inspect_device = dev_dax_inspect_device);
