/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Verify blocks as fio 3.33 lays them out: every verify_interval bytes of
 * a written block start with fio's 40-byte header (magic 0xacca, method,
 * length, rand seed, offset, time, thread, write number, crc32c of the
 * header), then the method's checksum of the rest of the interval
 * (workload/checksums.h).  The same bytes fio writes, so either tool
 * verifies what the other wrote; verify_pattern fills the data instead of
 * the seeded random bytes, and verify=pattern drops the header.
 */
#ifndef IODIG_VERIFY_H
#define IODIG_VERIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "workload/checksums.h"
#include "workload/job.h"
#include "workload/pattern.h"

#define VERIFY_HDR_MAGIC 0xacca
#define VERIFY_HDR_LEN 40

/* fio's struct verify_header; little-endian on disk, as fio on x86. */
struct verify_hdr {
	uint16_t magic;
	uint16_t verify_type;
	uint32_t len;        /* of the interval */
	uint64_t rand_seed;  /* of the data */
	uint64_t offset;     /* of the interval */
	uint32_t time_sec;
	uint32_t time_nsec;
	uint16_t thread;     /* fio's thread_number */
	uint16_t numberio;   /* writes the job issued before this one */
	uint32_t crc32;      /* crc32c (fio's, not inverted) of the above */
};
_Static_assert(sizeof(struct verify_hdr) == VERIFY_HDR_LEN, "fio's header");

/* What does not change within a job. */
struct verify_spec {
	enum verify_mode mode;
	uint32_t interval;           /* header every interval bytes */
	uint32_t hdr_offset;         /* verify_offset; 0 = at the start */
	const struct pattern *pattern;        /* verify_pattern, or NULL */
	const struct pattern *buffer_pattern; /* fixed part of compressible data */
	unsigned int compress_pct;
	uint16_t thread;
	bool check_seed;             /* fio checks it for mixed rw jobs only */
	bool check_numberio;
	bool fatal;                  /* verify_fatal: stop at the first bad interval */
};

/* One written block, as fio's io_u remembers it. */
struct verify_io {
	uint32_t file;       /* among the job's files */
	uint64_t offset;
	uint32_t len;
	uint64_t seed;
	uint16_t numberio;
	uint64_t time_ns;
};

enum verify_fault {
	VF_NONE,
	VF_MAGIC,
	VF_LEN,
	VF_SEED,
	VF_OFFSET,
	VF_NUMBERIO,
	VF_HDR_CRC,
	VF_SUM,
	VF_PATTERN,
};

struct verify_failure {
	enum verify_fault fault;
	uint32_t interval_index;
	uint64_t at;          /* offset of the bad interval */
	uint32_t len;
	uint64_t want, got;   /* header fields */
	/* the method and interval length the interval's first bytes name,
	 * read as a header whatever the mode: fio logs them for a bad
	 * pattern too, where the bytes are the pattern's */
	uint16_t media_type;
	uint32_t media_len;
	uint8_t want_sum[CSUM_FIELD_MAX], got_sum[CSUM_FIELD_MAX];
	uint32_t pos;         /* pattern: byte offset in the interval */
	uint8_t want_byte, got_byte;
	uint64_t hdr_seed;    /* to regenerate the expected data */
};

/* Bytes of header (40 plus the checksum field) @mode puts at the start
 * of each interval; 0 for verify=pattern. */
unsigned int verify_hdr_size(enum verify_mode mode);

/* Fills @buf (@io->len bytes) with @io's data and headers. */
void verify_fill(const struct verify_spec *s, void *buf,
		 const struct verify_io *io);

/* Checks @buf, read back for @io; swaps a moved header back in place.
 * Returns 0, or -EILSEQ with the first bad interval in @f. */
int verify_check(const struct verify_spec *s, void *buf,
		 const struct verify_io *io, struct verify_failure *f);

/* One line for the job's error: what failed, in file @path at which
 * offset, and the expected and received checksum or field. */
void verify_failure_describe(const struct verify_spec *s,
			     const struct verify_failure *f, const char *path,
			     const struct verify_io *io, char *buf, size_t len);
/* The lines fio logs for the bad block @f (no final newline). */
void verify_failure_log_text(const struct verify_spec *s,
			     const struct verify_failure *f, const char *path,
			     const struct verify_io *io, char *buf, size_t len);

/* fio's name of @mode ("crc32c", "sha3-256", "meta" ...). */
const char *verify_mode_name(enum verify_mode mode);

#endif /* IODIG_VERIFY_H */
