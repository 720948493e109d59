/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's read_iolog: a text I/O log read whole before the job runs, as
 * fio 3.33's read_iolog() reads it.  Version 2 ("fio version 2 iolog"):
 *   FILE add|open|close
 *   FILE read|write|sync|datasync|trim OFFSET LENGTH
 *   FILE wait USEC
 * version 3 ("fio version 3 iolog", what write_iolog writes) puts the
 * microseconds since the log began before each line; the gaps between
 * them are the replay's pace (replay_no_stall, replay_time_scale).
 * replay_redirect, replay_scale, replay_align and replay_skip are applied
 * while reading, as fio does.  A log write_iolog appended to holds one
 * log after another (numjobs' clones): a header line past the first is
 * passed over and the logs are replayed one after the other, as fio does;
 * their times start again at each, which fio reads as no gap.
 */
#ifndef IODIG_REPLAY_LOG_H
#define IODIG_REPLAY_LOG_H

#include <stddef.h>
#include <stdint.h>

#include "base/errbuf.h"
#include "workload/job.h"

/* A log is refused past this many bytes: it is held in memory whole. */
#define REPLAY_LOG_MAX_BYTES (1ull << 30)

enum replay_kind {
	REPLAY_READ = DDIR_READ,
	REPLAY_WRITE = DDIR_WRITE,
	REPLAY_SYNC,      /* fsync of the entry's file */
	REPLAY_DATASYNC,  /* fdatasync */
	REPLAY_WAIT,      /* version 2: until delay_us after the job began */
	REPLAY_FILE,      /* add, open or close: only its delay counts */
};

struct replay_entry {
	uint64_t offset;
	uint64_t delay_us;  /* wait this long after the entry before */
	uint32_t len;
	uint32_t file;      /* index in replay_log.files */
	enum replay_kind kind;
};

struct replay_log {
	unsigned int version;         /* 2 or 3 */
	char **files;                 /* as the log names them, or the redirect */
	unsigned int nr_files;
	struct replay_entry *entries;
	size_t nr_entries;
	uint64_t ios[DDIR_COUNT];     /* reads and writes to replay */
	uint64_t bytes[DDIR_COUNT];
	uint32_t max_len[DDIR_COUNT]; /* the longest read, write */
	uint64_t syncs;
	uint64_t end;                 /* the highest offset + length reached */
	unsigned int depth;           /* a blktrace trace's depth; 0: a text log */
};

/* Reads the log at @path, a text log or a blktrace trace
 * (workload/replay_blktrace.h), with @o's replay options; @redirect, when not
 * NULL, is the one file every entry goes to.  0, or -errno with the log
 * and line named in @err. */
int replay_log_load(struct replay_log *log, const char *path,
		    const struct job_replay_opts *o, const char *redirect,
		    struct errbuf *err);
/* The same on @text (NUL-terminated), @name naming it in errors. */
int replay_log_parse(struct replay_log *log, const char *text, const char *name,
		     const struct job_replay_opts *o, const char *redirect,
		     struct errbuf *err);
/* Appends @e to @log's entries, *@cap of them allocated: 0 or -ENOMEM. */
int replay_log_append(struct replay_log *log, size_t *cap, const struct replay_entry *e);

/* fio's replay_time_scale: a gap between two entries of the log, in its
 * own units, at @time_scale percent of the log's pace; a gap too long to
 * count saturates. */
uint64_t replay_scaled_gap(uint64_t gap, unsigned int time_scale);
/* Frees what a load or parse left; safe on a zeroed or freed log. */
void replay_log_free(struct replay_log *log);

#endif /* IODIG_REPLAY_LOG_H */
