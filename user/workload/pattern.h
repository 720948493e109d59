/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's byte patterns (buffer_pattern, verify_pattern): a value such as
 * 0xdeadbeef"abcd"-12'file'%o is parsed once into bytes, then repeated
 * over a buffer.  %o (verify_pattern only) stands for 8 bytes holding the
 * block's offset, pasted in when a buffer is filled or checked.
 */
#ifndef IODIG_PATTERN_H
#define IODIG_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/errbuf.h"

#define PATTERN_MAX 512      /* fio's MAX_PATTERN_SIZE */
#define PATTERN_FMT_MAX 8    /* %o formats one pattern may hold */
#define PATTERN_OFF_LEN 8    /* bytes %o stands for */

struct pattern {
	uint8_t bytes[PATTERN_MAX];
	uint16_t len;                       /* 0: no pattern */
	uint8_t nr_offsets;                 /* %o formats */
	uint16_t offset_at[PATTERN_FMT_MAX]; /* where each %o starts */
};

/* Parses fio's pattern syntax into @p: 0x hex bytes in the order written,
 * decimal numbers (INT_MIN..INT_MAX) as their little-endian bytes, "text",
 * 'file' (its contents), and %o when @allow_offset.  The message starts
 * with @where, names @what (the option) and says why. */
int pattern_parse(struct pattern *p, const char *value, bool allow_offset,
		  const char *where, const char *what, struct errbuf *err);

/* Repeats @p over @buf from its first byte, %o holding @offset. */
void pattern_spread(const struct pattern *p, void *buf, size_t len,
		  uint64_t offset);

/* Compares @buf with @p repeated, as if the repetition had started
 * @phase bytes earlier (fio's "mod"), %o holding @offset.  Returns -1
 * when they match, else the index of the first differing byte and, in
 * @want, the byte the pattern has there. */
long pattern_find_diff(const struct pattern *p, const void *buf, size_t len,
		      size_t phase, uint64_t offset, uint8_t *want);

#endif /* IODIG_PATTERN_H */
