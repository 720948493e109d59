/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's buffer memory options: mem= (alias iomem), with its :FILE forms,
 * and the checks of hugepage-size and iomem_align against it.  The rows
 * are job/options.c's; the memory itself is workload/io_mem.c's.
 */
#ifndef IODIG_MEM_OPTS_H
#define IODIG_MEM_OPTS_H

#include "base/errbuf.h"
#include "base/option.h"
#include "workload/job.h"

/* mem=KIND[:FILE]: KIND one of the row's values; FILE only after mmap,
 * mmapshared and mmaphuge (the file the buffers map). */
opt_setter set_mem;

/* What fio would do something meaningless with: a huge kind's
 * hugepage-size that is not a power of two of at least a page (the
 * area is rounded up to it), an iomem_align past fio's 32 bits. */
int mem_opts_check(const struct job *job, const char *where,
		   struct errbuf *err);

#endif /* IODIG_MEM_OPTS_H */
