/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's lockfile: an I/O holds its file's lock from before the engine
 * queues it until the engine's queue call returns (fio's td_io_prep to
 * td_io_queue), so with a sync engine the whole I/O; every worker doing
 * I/O on a file of that name takes the same lock.  exclusive locks each
 * I/O alone; readwrite lets reads share it and a write (or trim) have it
 * alone.  The locks live in a shared mapping, so worker processes and
 * threads see the same ones.
 */
#ifndef IODIG_FILE_LOCK_H
#define IODIG_FILE_LOCK_H

#include <pthread.h>

#include "base/errbuf.h"

struct worker;
struct io_unit;

struct file_lock_table {
	pthread_rwlock_t *locks;   /* in a MAP_SHARED mapping */
	size_t map_len;
	unsigned int nr;           /* set up */
};

/* @nr process-shared locks, unlocked.  -errno with the reason in @err. */
int file_lock_table_create(struct file_lock_table *t, unsigned int nr,
			   struct errbuf *err);
void file_lock_table_destroy(struct file_lock_table *t);

/* The lock of @u's file, as the worker's job's lockfile says: nothing
 * without one (w->file_locks NULL). */
void file_lock_take(const struct worker *w, const struct io_unit *u);
void file_lock_drop(const struct worker *w, const struct io_unit *u);

#endif /* IODIG_FILE_LOCK_H */
