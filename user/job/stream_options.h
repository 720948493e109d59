/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The options that shape a job's I/O stream, fio 3.33's: loops,
 * io_submit_mode, iodepth_low, iodepth_batch_complete_max, number_ios,
 * bssplit, blockalign, the rw=...:N modifiers and rw_sequencer.  A table
 * of their own, searched by job/options.c after its own.
 */
#ifndef IODIG_STREAM_OPTIONS_H
#define IODIG_STREAM_OPTIONS_H

#include "base/errbuf.h"
#include "base/option.h"
#include "workload/job.h"

extern const struct opt_desc stream_options[];

/* rw=MODE:N's modifier (@mod, after the colon, or NULL for none): for a
 * sequential mode the bytes to skip after each I/O (negative: backwards),
 * for a random one a new random offset every N I/Os. */
int stream_rw_modifier(struct job *job, const char *mod, const char *where,
		       struct errbuf *err);

/* Cross-option checks and fio's fix-ups once the whole job is read. */
int stream_opts_resolve(struct job *job, const char *where,
			struct errbuf *err);

#endif /* IODIG_STREAM_OPTIONS_H */
