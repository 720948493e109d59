/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's write_iolog: the I/O a worker issued, as fio 3.33 writes it
 * (its iolog version 3, which read_iolog and fio's replay take):
 *   fio version 3 iolog
 *   USEC FILE add|open|close
 *   USEC FILE read|write OFFSET LENGTH
 *   USEC FILE sync|datasync OFFSET 0
 * USEC counted from when the worker set the log up.  Lines are kept in
 * memory while the job runs and added whole at the end of the file when
 * the job ends, as fio appends: each clone of numjobs adds its own log
 * (header, files, I/O, close) after those of the clones that ended
 * before it, and a file already there is added to, not replaced.  fio
 * 3.33 flushes a clone's lines in 8 KiB pieces, which cuts lines where
 * clones' logs grow past that; iodig's clones take turns under a lock.
 */
#ifndef IODIG_IO_TRACE_H
#define IODIG_IO_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/errbuf.h"
#include "workload/engine.h"

struct worker;

struct io_trace {
	FILE *mem;          /* NULL: write_iolog is off */
	char *buf;
	size_t len;
	uint64_t start_ns;
	/* per file: open as fio's log has it, from its first I/O or sync
	 * of a loop to its close */
	bool *open;
	unsigned int nr;
};

/* Starts @w's log when its job has write_iolog: the files added.  As
 * fio's get_next_file, a file is logged open when the job first reaches
 * it in a loop (io_trace_file_open, or its first I/O or sync), and
 * closed when done or at the loop's end (fio's clear_io_state).  0 or
 * -errno with the reason in @err. */
int io_trace_open(struct io_trace *t, const struct worker *w, struct errbuf *err);
/* File @file opened, closed: logged when it was not open, open. */
void io_trace_file_open(struct io_trace *t, const struct worker *w, unsigned int file);
void io_trace_file_close(struct io_trace *t, const struct worker *w, unsigned int file);
/* Whether the log has file @file open (false without write_iolog). */
bool io_trace_file_is_open(const struct io_trace *t, unsigned int file);
/* Every file open closes, in the files' order: fio's close_files
 * between loops, before the verify phase and at the end. */
void io_trace_close_all(struct io_trace *t, const struct worker *w);
/* One I/O handed to the engine. */
void io_trace_io(struct io_trace *t, const struct worker *w, const struct io_unit *u);
/* A sync @k of fsync=/fdatasync=/sync_file_range= of file @file, when it
 * is issued; fio logs the offset its io_u had last, @stale_offset here. */
void io_trace_sync(struct io_trace *t, const struct worker *w, unsigned int file,
		   enum io_sync k, uint64_t stale_offset);
/* Closes the files in the log and writes it; 0 or -errno with the file
 * named in @err.  Frees it either way. */
int io_trace_finish(struct io_trace *t, const struct worker *w, struct errbuf *err);
/* Frees it without writing; safe after io_trace_finish. */
void io_trace_free(struct io_trace *t);

#endif /* IODIG_IO_TRACE_H */
