/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memory a worker's I/O buffers live in, one area for all of them,
 * backed as fio's mem= says (malloc, shm, shmhuge, mmap, mmapshared,
 * mmaphuge, the mmap kinds optionally of a file) and sized and aligned by
 * fio 3.33's rules (backend.c's init_io_u_buffers, memory.c's
 * allocate_io_mem).  The backing decides what the kernel pins for each
 * direct I/O: 4 KiB pages, or one huge page for 2 MiB of buffer.
 */
#ifndef IODIG_IO_MEM_H
#define IODIG_IO_MEM_H

#include <stdbool.h>
#include <stddef.h>

#include "base/errbuf.h"
#include "workload/job.h"

struct io_mem {
	enum io_mem_type type;
	void *base;          /* what was mapped or allocated; NULL: nothing */
	size_t len;          /* its length */
	bool mapped;         /* base is a mapping of ours (munmap), else malloc */
	bool shm;            /* base is an attached shm segment (shmdt) */
	int fd;              /* mem_file while mapped; -1: none */
	char file[PATH_MAX]; /* mem_file, removed at the end unless it was there */
	bool keep_file;
	char *buffers;       /* where the first buffer starts */
};

/*
 * The area for @bytes of buffers (the job's largest block size times
 * iodepth): fio's size with its slack for alignment and rounding to
 * hugepage-size, the first buffer iomem_align past a page boundary when
 * the job aligns them (direct, atomic, iomem_align, or an engine fio
 * aligns for).  0, or -errno with the reason (and fio's hint where it has
 * one) in @err, nothing left allocated.
 */
int io_mem_alloc(struct io_mem *m, const struct job *job, size_t bytes,
		 struct errbuf *err);

/* Releases the area, and the file of mem=mmap:FILE if the job made it. */
void io_mem_free(struct io_mem *m);

#endif /* IODIG_IO_MEM_H */
