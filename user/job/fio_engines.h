/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every I/O engine fio ships, with what iodig makes of it when it has no
 * engine of that name (workload/engine_list.h): an engine iodig has is
 * found by engine_find() first, so this table only explains refusals.
 */
#ifndef IODIG_FIO_ENGINES_H
#define IODIG_FIO_ENGINES_H

#include <stddef.h>

#include "workload/engine.h"

enum fio_engine_class {
	FIO_ENGINE_KERNEL,   /* local I/O through the kernel: iodig's scope */
	FIO_ENGINE_BYPASS,   /* a user-space driver does the I/O */
	FIO_ENGINE_REMOTE,   /* storage across a network, not local I/O */
	FIO_ENGINE_NO_IO,    /* no storage I/O at all */
	FIO_ENGINE_OTHER_OS, /* another operating system's interface */
	FIO_ENGINE_EXTERNAL, /* code loaded from a file (external:PATH) */
};

struct fio_engine {
	const char *name;
	enum fio_engine_class cls;
	const char *what;     /* how it does its I/O, for the message */
	const char *same_as;  /* non-NULL: iodig's engine of that name does
			       * exactly what this one does */
};

/* fio's engine @name, NULL when fio has none of that name.  A name that
 * loads an engine from a file ("external:...", or a path) is an
 * FIO_ENGINE_EXTERNAL entry. */
const struct fio_engine *fio_engine_find(const char *name);

/* The engine iodig runs for ioengine=@name: its own of that name, else
 * the one fio's engine of that name is the same as (cpp_null: null);
 * NULL when neither. */
const struct engine_ops *fio_engine_resolve(const char *name);

/* The first engine iodig does not run whose own options name @key; NULL
 * when none does. */
const struct fio_engine *fio_engine_of_option(const char *key);

/* Why iodig does not run @e, named @name, as "engine 'NAME' ..." (no
 * leading "file:line: "). */
void fio_engine_refusal(const struct fio_engine *e, const char *name,
			char *buf, size_t len);

/* The i-th entry of the table; NULL past the last (for tests and docs). */
const struct fio_engine *fio_engine_at(size_t i);

#endif /* IODIG_FIO_ENGINES_H */
