/* SPDX-License-Identifier: GPL-2.0 */
/*
 * verify=crc32c: every written block starts with a header naming its offset
 * and the crc32c of the rest of the block, so a later read can prove the
 * data came back from the right place intact without remembering seeds.
 */
#ifndef IODIG_VERIFY_H
#define IODIG_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "base/rng.h"

#define VERIFY_MAGIC 0x69646967766572ull /* "idigver" */

struct verify_header {
	uint64_t magic;
	uint64_t offset;
	uint32_t len;
	uint32_t crc;   /* crc32c of bytes after the header */
};

uint32_t crc32c(uint32_t crc, const void *buf, size_t len);

/* Fills @buf with random bytes and a header for @offset. */
void verify_fill(void *buf, uint32_t len, uint64_t offset, struct rng *r);

/* 0 when @buf holds what verify_fill wrote for @offset; otherwise -EILSEQ
 * and a description of the mismatch in @why. */
int verify_check(const void *buf, uint32_t len, uint64_t offset, char *why,
		 size_t why_len);

#endif /* IODIG_VERIFY_H */
