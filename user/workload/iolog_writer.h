/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's per-job log files (write_lat_log, write_bw_log, write_iops_log,
 * write_hist_log and the log_* options), with fio's names
 * (PREFIX_clat.N.log ...) and line formats, so fio's own tools and
 * fio-plot read them.  A worker owns its writer; lines are kept in memory
 * while the job runs (no file I/O beside the measured I/O, as fio) and
 * each file is written whole when the job ends: it appears complete or
 * not at all (base/atomic_file.h), or, with per_job_logs=0, is appended
 * to under a lock, as fio appends.  With log_compression (or
 * log_store_compressed) the lines are kept as fio's records in zlib
 * chunks (workload/log_sample.h, base/zchunks.h), then written as the
 * same text, or as those chunks to fio's PREFIX_KIND.N.log.fz.
 */
#ifndef IODIG_IOLOG_WRITER_H
#define IODIG_IOLOG_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/errbuf.h"
#include "base/zchunks.h"
#include "workload/engine.h"
#include "workload/job.h"
#include "workload/stats.h"

enum iolog_file { IOLOG_SLAT, IOLOG_CLAT, IOLOG_LAT, IOLOG_BW, IOLOG_IOPS,
		  IOLOG_HIST, IOLOG_FILES };

/* One averaging window of a latency log, per direction. */
struct iolog_avg {
	uint64_t sum, n, max;
};

struct iolog_writer {
	const struct job *job;
	unsigned int number;           /* fio's job number, 1-based */
	unsigned int ioprio;           /* log_prio's column */
	bool active;                   /* some log is on */
	bool on[IOLOG_FILES];
	bool compressed;               /* the lines go to z[], not mem[] */
	FILE *mem[IOLOG_FILES];        /* the text of a log that is on, uncompressed */
	char *buf[IOLOG_FILES];
	size_t len[IOLOG_FILES];
	struct zchunks z[IOLOG_FILES]; /* the records of a log that is on */
	int err;                       /* the first error keeping a line */
	uint64_t start_ns;             /* time 0 of the log */
	uint64_t epoch_ms;             /* added to times (log_unix_epoch) */
	/* starts of the averaging windows: the latency logs' (log_avg_msec),
	 * the bw log's (bwavgtime) and the iops log's (iopsavgtime) */
	uint64_t lat_win_ms, bw_win_ms, iops_win_ms;
	struct iolog_avg avg[3][DDIR_COUNT];      /* slat, clat, lat */
	uint64_t win_bytes[DDIR_COUNT], win_ios[DDIR_COUNT];
	uint64_t hist_last_ms[DDIR_COUNT];
	struct hist *hist[DDIR_COUNT];             /* write_hist_log's window */
};

/* Sets up the logs @job asks for, as fio's job number @number; nothing
 * to do when it asks for none.  0 or -errno with the reason in @err. */
int iolog_open(struct iolog_writer *lw, const struct job *job, unsigned int number,
	       struct errbuf *err);
/* Time 0 of the logs: when the job starts measuring. */
void iolog_start(struct iolog_writer *lw, uint64_t now_ns);
/* One completed I/O @u; the latencies the worker measured. */
void iolog_io(struct iolog_writer *lw, const struct worker_stats *s, uint64_t now_ns,
	      const struct io_unit *u, uint64_t slat_ns, uint64_t clat_ns,
	      uint64_t lat_ns, bool has_slat);
/* Takes the I/O of @len bytes iolog_io just logged back out of the
 * averaged bw/iops window: fio's averaged rates leave out the reads of
 * its verify log, while its per-I/O lines keep them. */
void iolog_unsample(struct iolog_writer *lw, enum ddir d, uint32_t len);
/* Closes averaging windows that have ended (log_avg_msec, and the bw and
 * iops logs' bwavgtime and iopsavgtime). */
void iolog_tick(struct iolog_writer *lw, uint64_t now_ns);
/* Writes the files; 0 or -errno with the file named in @err.  A file
 * that cannot be created is left out, as fio does, and counted in @s. */
int iolog_finish(struct iolog_writer *lw, struct worker_stats *s,
		 uint64_t now_ns, struct errbuf *err);
/* Frees what is left; writes nothing.  Safe after iolog_finish. */
void iolog_free(struct iolog_writer *lw);

#endif /* IODIG_IOLOG_WRITER_H */
