/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The I/O engine interface, after fio's ioengine_ops: the runner fills an
 * io_unit, calls queue(), commits batches and reaps completions.  A sync
 * engine does the I/O inside queue() and returns IO_COMPLETED; it needs no
 * commit, getevents or event.
 */
#ifndef IODIG_ENGINE_H
#define IODIG_ENGINE_H

#include <stdint.h>

#include "base/errbuf.h"
#include "workload/job.h"

struct worker;

enum io_result {
	IO_COMPLETED, /* done inside queue(); result is set */
	IO_QUEUED,    /* held by the engine until commit() */
	IO_BUSY,      /* no room: the runner must reap first */
};

struct io_unit {
	void *buf;
	uint64_t offset;
	uint32_t len;
	enum ddir ddir;
	uint64_t start_ns;  /* CLOCK_MONOTONIC when handed to queue() */
	uint64_t issue_ns;  /* when the submitting call returned */
	int64_t result;     /* bytes transferred or -errno */
	unsigned int index; /* position in worker->units, also its buffer */
	struct io_unit *next_free;
	void *engine_priv;  /* per-unit engine state (e.g. a struct iocb) */
};

#define ENGINE_SYNC   (1u << 0) /* queue() completes the I/O */
#define ENGINE_MMAP   (1u << 1) /* the engine maps the file itself */

struct engine_ops {
	const char *name;
	unsigned int flags;
	/* After the target is open and buffers allocated; sets
	 * worker->engine_data. */
	int (*init)(struct worker *w, struct errbuf *err);
	/* Optional: per-unit setup before queue(). */
	int (*prep)(struct worker *w, struct io_unit *u);
	enum io_result (*queue)(struct worker *w, struct io_unit *u);
	/* Submits queued units; sets issue_ns of each submitted unit and
	 * returns how many were submitted, or -errno. */
	int (*commit)(struct worker *w);
	/* Waits for at least @min (may be 0) and at most @max completions;
	 * returns how many are ready, or -errno. */
	int (*getevents)(struct worker *w, unsigned int min, unsigned int max);
	/* The i-th unit returned by the last getevents(), result set. */
	struct io_unit *(*event)(struct worker *w, unsigned int i);
	void (*cleanup)(struct worker *w);
};

/* Looks up an engine by name ("sync" is an alias of "psync"); NULL when
 * unknown. */
const struct engine_ops *engine_find(const char *name);
/* Comma-separated list of engine names, for help and errors. */
const char *engine_names(void);
/* Checks that every engine in the list provides what its flags require;
 * returns -EINVAL with the engine named in @err otherwise. */
int engines_check(struct errbuf *err);

#endif /* IODIG_ENGINE_H */
