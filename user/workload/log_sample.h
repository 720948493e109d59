/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One line of fio's lat/bw/iops logs, as text and as fio 3.33's binary
 * io_sample, the record its log_compression keeps and its .fz files hold:
 *   0  u64 time (ms)      8  u64 value
 *   16 u32 ddir, bit 31 set with log_offset, bit 30 with log_prio
 *   20 u16 I/O priority   22 u16 zero
 *   24 u64 bs             32 u64 offset (log_offset only)
 * in the host's byte order.  fio 3.33's record has no room for fio 3.37's
 * window maximum nor fio 3.38's issue time: iodig's records carry them
 * after fio's fields, so such a log cannot be stored as a .fz.
 */
#ifndef IODIG_LOG_SAMPLE_H
#define IODIG_LOG_SAMPLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "workload/job.h"

struct log_line {
	uint64_t ms;          /* the line's time, the epoch added */
	uint64_t value;
	enum ddir d;
	uint64_t bs, offset;
	uint64_t max;         /* log_window_value=both: the window's maximum */
	uint16_t ioprio;      /* the I/O's priority, 0xCPPP */
	uint64_t issue_ns;    /* log_issue_time: when it was issued, since the start */
};

/* The columns a log's lines have beside time, value, ddir, bs and prio. */
struct log_columns {
	bool max, offset, prio_value, issue;
};

/* The columns of @o's logs; @latency: a slat, clat or lat log. */
struct log_columns log_columns_of(const struct job_log_opts *o, bool latency);
/* fio's text line: TIME, VALUE[, MAX], DDIR, BS[, OFFSET], PRIO[, ISSUE]. */
void log_line_print(FILE *out, const struct log_columns *c, const struct log_line *l);
/* The most bytes a record takes. */
#define LOG_SAMPLE_MAX 56
/* Bytes of a record of lines with columns @c. */
size_t log_sample_size(const struct log_columns *c);
/* @l as a record into @buf (log_sample_size bytes). */
void log_sample_pack(const struct log_columns *c, const struct log_line *l, unsigned char *buf);
/* The line of the record @buf. */
void log_sample_unpack(const struct log_columns *c, const unsigned char *buf,
		       struct log_line *l);

#endif /* IODIG_LOG_SAMPLE_H */
