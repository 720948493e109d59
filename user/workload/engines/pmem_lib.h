/* SPDX-License-Identifier: GPL-2.0 */
/*
 * PMDK's libpmem, opened when an engine first needs it rather than at
 * exec.  Linked, libpmem and the seven libraries it pulls in (ndctl,
 * daxctl, udev, kmod, zstd, lzma, uuid) and its constructor cost every
 * iodig process, most of which never runs a pmem engine, several ms of
 * CPU before main() (docs/overhead.md, start-up).
 *
 * The pmem_lib_* calls are libpmem's of the same name (libpmem.h);
 * pmem_lib_open() must have succeeded before any other is called, except
 * pmem_lib_drain(), which does nothing without the library.
 */
#ifndef IODIG_ENGINES_PMEM_LIB_H
#define IODIG_ENGINES_PMEM_LIB_H

#include <stddef.h>
#include <sys/types.h>

#include "base/errbuf.h"

/* Opens libpmem once per process; 0, or -errno with the loader's reason
 * naming @engine. */
int pmem_lib_open(const char *engine, struct errbuf *err);

void *pmem_lib_map_file(const char *path, size_t len, int flags, mode_t mode,
			size_t *mapped_lenp, int *is_pmemp);
int pmem_lib_unmap(void *addr, size_t len);
const char *pmem_lib_errormsg(void);
void pmem_lib_drain(void);
void *pmem_lib_memcpy(void *dst, const void *src, size_t len, unsigned int flags);
void *pmem_lib_memcpy_persist(void *dst, const void *src, size_t len);

#endif /* IODIG_ENGINES_PMEM_LIB_H */
