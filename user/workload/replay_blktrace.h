/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's read_iolog of a blktrace binary trace (what `blkparse -d` dumps,
 * or one per-CPU file of `blktrace -o`), read as fio 3.33's
 * read_blktrace reads it: each queue event (Q) becomes an I/O of the
 * trace's sector * 512, bytes and direction, a flush a sync; its pace is
 * the gaps between the queue events' times.  The rest of the events only
 * measure the trace's depth: the most requests queued in one direction
 * before one completes.  The records are struct blk_io_trace of the
 * kernel's include/uapi/linux/blktrace_api.h, version 7, in either byte
 * order, each followed by pdu_len bytes that are skipped.
 */
#ifndef IODIG_REPLAY_BLKTRACE_H
#define IODIG_REPLAY_BLKTRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/errbuf.h"
#include "workload/replay_log.h"

/* Whether @buf starts with a blktrace record's magic (fio's is_blktrace). */
bool replay_is_blktrace(const unsigned char *buf, size_t len);

/* Reads the trace @buf of @len bytes into @log with @o's replay options;
 * every device of the trace is @redirect when not NULL, else the block
 * device of the trace's major:minor here.  0, or -errno with @name and
 * the record's byte offset in @err. */
int replay_blktrace_parse(struct replay_log *log, const unsigned char *buf,
			  size_t len, const char *name,
			  const struct job_replay_opts *o, const char *redirect,
			  struct errbuf *err);

#endif /* IODIG_REPLAY_BLKTRACE_H */
