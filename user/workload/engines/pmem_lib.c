// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>

#include "workload/engines/pmem_lib.h"

#define PMEM_SONAME "libpmem.so.1"

/*
 * The library's entry points, filled once (pthread_once) and only read
 * after: a process-wide table because the engines' store callbacks get
 * no context, and libpmem itself is process-wide state.
 */
static struct {
	void *(*map_file)(const char *, size_t, int, mode_t, size_t *, int *);
	int (*unmap)(void *, size_t);
	const char *(*errormsg)(void);
	void (*drain)(void);
	void *(*memcpy)(void *, const void *, size_t, unsigned int);
	void *(*memcpy_persist)(void *, const void *, size_t);
	char why[256];           /* the loader's reason when it failed */
} lib;
static pthread_once_t lib_once = PTHREAD_ONCE_INIT;

static void *sym(void *h, const char *name)
{
	void *f = dlsym(h, name);

	if (!f && !lib.why[0])
		snprintf(lib.why, sizeof(lib.why), "%s has no %s", PMEM_SONAME, name);
	return f;
}

static void load(void)
{
	void *h = dlopen(PMEM_SONAME, RTLD_NOW | RTLD_LOCAL);
	void *f[6];

	if (!h) {
		snprintf(lib.why, sizeof(lib.why), "%s", dlerror());
		return;
	}
	f[0] = sym(h, "pmem_map_file");
	f[1] = sym(h, "pmem_unmap");
	f[2] = sym(h, "pmem_errormsg");
	f[3] = sym(h, "pmem_drain");
	f[4] = sym(h, "pmem_memcpy");
	f[5] = sym(h, "pmem_memcpy_persist");
	if (lib.why[0])
		return;  /* all or none; the handle stays open, as a linked library */
	/* POSIX's dlsym returns data pointers that may be converted to
	 * function pointers */
	*(void **)&lib.map_file = f[0];
	*(void **)&lib.unmap = f[1];
	*(void **)&lib.errormsg = f[2];
	*(void **)&lib.drain = f[3];
	*(void **)&lib.memcpy = f[4];
	*(void **)&lib.memcpy_persist = f[5];
}

int pmem_lib_open(const char *engine, struct errbuf *err)
{
	pthread_once(&lib_once, load);
	if (lib.map_file)
		return 0;
	return err_set(err, ELIBACC, "ioengine=%s needs PMDK's libpmem: %s", engine, lib.why);
}

void *pmem_lib_map_file(const char *path, size_t len, int flags, mode_t mode,
			size_t *mapped_lenp, int *is_pmemp)
{
	return lib.map_file(path, len, flags, mode, mapped_lenp, is_pmemp);
}

int pmem_lib_unmap(void *addr, size_t len)
{
	return lib.unmap(addr, len);
}

const char *pmem_lib_errormsg(void)
{
	return lib.errormsg();
}

void pmem_lib_drain(void)
{
	if (lib.drain)
		lib.drain();
}

void *pmem_lib_memcpy(void *dst, const void *src, size_t len, unsigned int flags)
{
	return lib.memcpy(dst, src, len, flags);
}

void *pmem_lib_memcpy_persist(void *dst, const void *src, size_t len)
{
	return lib.memcpy_persist(dst, src, len);
}
