/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A shared library opened when first needed instead of at exec.
 *
 * Why: every library linked into iodig is mapped, relocated and has its
 * constructors run before main(), for every command, at every start; a
 * library that only some jobs use (libpmem for two engines, libcrypto for
 * some verify checksums) costs every other run that start-up time
 * (docs/overhead.md, start-up).  Opened on demand, only the runs that
 * call it pay, once.
 */
#ifndef IODIG_BASE_LAZY_LIB_H
#define IODIG_BASE_LAZY_LIB_H

#include <pthread.h>
#include <stddef.h>

struct lazy_lib {
	const char *soname;         /* "libpmem.so.1" */
	const char *const *names;   /* its symbols, in fns' order */
	void **fns;                 /* @n entries, all filled or none */
	size_t n;
	pthread_mutex_t lock;
	int state;                  /* 0 untried, 1 open, -1 failed */
	char why[256];              /* the loader's reason when it failed */
};

/* A static definition: `static struct lazy_lib lib = LAZY_LIB("x.so.1",
 * names, fns);` with names[] and void *fns[] of the same length. */
#define LAZY_LIB(soname_, names_, fns_)					\
	{ .soname = (soname_), .names = (names_), .fns = (fns_),		\
	  .n = sizeof(names_) / sizeof((names_)[0]),			\
	  .lock = PTHREAD_MUTEX_INITIALIZER }

/* Opens @l once per process and resolves its symbols; 0, or -ELIBACC
 * with *@why the loader's reason (owned by @l).  Cheap once open. */
int lazy_lib_open(struct lazy_lib *l, const char **why);

/* Symbol @i of @l, open, as a pointer to function type @type (POSIX
 * lets dlsym's pointers be converted to function pointers). */
#define LAZY_FN(l, type, i) ((type *)(l)->fns[i])

/* Symbol @i of an opened @l (NULL before lazy_lib_open() succeeded). */
void *lazy_lib_fn(struct lazy_lib *l, size_t i);

#endif /* IODIG_BASE_LAZY_LIB_H */
