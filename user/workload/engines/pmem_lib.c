// SPDX-License-Identifier: GPL-2.0
#include <errno.h>

#include "base/lazy_lib.h"
#include "workload/engines/pmem_lib.h"

enum { MAP_FILE, UNMAP, ERRORMSG, DRAIN, MEMCPY, MEMCPY_PERSIST, NR_FNS };

static const char *const names[NR_FNS] = {
	"pmem_map_file", "pmem_unmap", "pmem_errormsg", "pmem_drain", "pmem_memcpy",
	"pmem_memcpy_persist",
};
static void *fns[NR_FNS];
/* process-wide, as the library itself: the engines' store callbacks get
 * no context to carry it */
static struct lazy_lib lib = LAZY_LIB("libpmem.so.1", names, fns);

int pmem_lib_open(const char *engine, struct errbuf *err)
{
	const char *why;

	if (!lazy_lib_open(&lib, &why))
		return 0;
	return err_set(err, ELIBACC, "ioengine=%s needs PMDK's libpmem: %s", engine, why);
}

/* The symbols' types, to call them by. */
typedef void *map_file_fn(const char *, size_t, int, mode_t, size_t *, int *);
typedef int unmap_fn(void *, size_t);
typedef const char *errormsg_fn(void);
typedef void drain_fn(void);
typedef void *memcpy_fn(void *, const void *, size_t, unsigned int);
typedef void *memcpy_persist_fn(void *, const void *, size_t);
#define FN(type, i) LAZY_FN(&lib, type, i)

void *pmem_lib_map_file(const char *path, size_t len, int flags, mode_t mode,
			size_t *mapped_lenp, int *is_pmemp)
{
	return FN(map_file_fn, MAP_FILE)(path, len, flags, mode, mapped_lenp, is_pmemp);
}

int pmem_lib_unmap(void *addr, size_t len)
{
	return FN(unmap_fn, UNMAP)(addr, len);
}

const char *pmem_lib_errormsg(void)
{
	return FN(errormsg_fn, ERRORMSG)();
}

void pmem_lib_drain(void)
{
	if (lazy_lib_fn(&lib, DRAIN))
		FN(drain_fn, DRAIN)();
}

void *pmem_lib_memcpy(void *dst, const void *src, size_t len, unsigned int flags)
{
	return FN(memcpy_fn, MEMCPY)(dst, src, len, flags);
}

void *pmem_lib_memcpy_persist(void *dst, const void *src, size_t len)
{
	return FN(memcpy_persist_fn, MEMCPY_PERSIST)(dst, src, len);
}
