/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's static symbols (ksym_is_static()) kept in a file across
 * the runs of one boot, so that a run need not have the kernel list
 * /proc/kallsyms (tens of ms of its CPU, and the parse) again.  The file
 * holds a key, the boot's id and the modules loaded (name, size and
 * address), then a ksyms__save_static() image; a file whose key is not
 * the running kernel's is not used, and the next full read replaces it.
 * Written atomically (base/atomic_file.h): a reader sees a whole file or
 * none.  Where: IODIG_KSYMS_CACHE, else /run/iodig/kallsyms (a tmpfs
 * that a reboot empties); IODIG_KSYMS_CACHE=off keeps none.
 */
#ifndef IODIG_KSYMS_CACHE_H
#define IODIG_KSYMS_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "probes/ksyms.h"

struct ksyms_cache_key {
	char magic[8];
	char boot_id[40];
	uint64_t modules_hash;
	uint64_t reserved;
};

/* The cache file's path, NULL when there is to be none. */
const char *ksyms_cache_path(void);

/* The running kernel's key; false when its boot id cannot be read. */
bool ksyms_cache_key(struct ksyms_cache_key *key);

/* The cache file at @path opened when it is ours and has @key, else -1.
 * Its image starts at sizeof(struct ksyms_cache_key). */
int ksyms_cache_open(const char *path, const struct ksyms_cache_key *key);

/* @ks's static symbols written to @path under @key; 0 or -errno. */
int ksyms_cache_write(const char *path, const struct ksyms_cache_key *key,
		      const struct ksyms *ks);

#endif /* IODIG_KSYMS_CACHE_H */
