/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's lockmem: memory a worker maps and mlock(2)s for its run, so that
 * the rest of the machine (the page cache above all) has that much less;
 * fio's way to run a job as on a machine with less memory.
 */
#ifndef IODIG_MEM_LOCK_H
#define IODIG_MEM_LOCK_H

#include <stddef.h>
#include <stdint.h>

#include "base/errbuf.h"

struct mem_lock {
	void *base;   /* NULL: nothing locked */
	size_t len;
};

/* Locks @bytes (0: nothing), as fio at most the machine's memory less
 * 128 MiB.  0, or -errno with the reason in @err, nothing left locked. */
int mem_lock_take(struct mem_lock *l, uint64_t bytes, struct errbuf *err);

/* Unlocks and unmaps it; harmless on a zeroed or released one. */
void mem_lock_release(struct mem_lock *l);

#endif /* IODIG_MEM_LOCK_H */
