/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Verification within a worker, as fio 3.33 runs it: each write gets its
 * seed, data and headers as it is issued and is logged once it completes;
 * the log is read back and checked after the write phase (do_verify), or
 * every verify_backlog writes, verify_backlog_batch blocks at a time.  A
 * job that only reads checks every block it reads; verify_only replays
 * the job's writes without doing them and checks what is there.  The
 * worker's I/O loop issues the verify reads like any other, at the job's
 * depth.
 */
#ifndef IODIG_VERIFY_RUN_H
#define IODIG_VERIFY_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/errbuf.h"
#include "workload/engine.h"
#include "workload/fio_rand.h"
#include "workload/verify.h"
#include "workload/verify_log.h"
#include "workload/verify_state.h"

struct verify_unit {
	bool check;            /* check it when it completes */
	bool logged;           /* a read of the log (not a read of the job) */
	struct verify_io io;
};

struct verify_run {
	const struct job *job;
	struct verify_spec spec;
	struct frand seeds;        /* fio's verify_state */
	uint64_t seed;             /* what seeds it anew */
	struct verify_log log;
	struct verify_unit *units; /* by io_unit index */
	uint64_t write_issues;     /* fio's io_issues[WRITE]: the next numberio */
	uint64_t batch_left;       /* backlog reads still to issue */
	enum ddir last_done;
	uint64_t reads_done;       /* blocks read and checked */
	bool check_reads;          /* a job that only reads checks them all */
	bool stop;                 /* the loaded state says nothing more */
	bool has_state;
	struct verify_state state; /* verify_state_load */
	uint64_t *recent;          /* the last iodepth completed write offsets */
	uint64_t writes_done;
};

/* @thread_number: fio's number of the job (the first job of the file is
 * 1, a job's clones follow it); @seed_base: randseed, or a random value
 * when randrepeat is off. */
int verify_run_init(struct verify_run *vr, const struct job *job,
		    unsigned int nr_units, unsigned int thread_number,
		    struct frand_base seed_base, struct errbuf *err);
void verify_run_free(struct verify_run *vr);

/* A new loop (fio's clear_io_state): the seeds start over with
 * randrepeat (@reseed), else go on from where the verify phase left them. */
void verify_run_new_loop(struct verify_run *vr, bool reseed);
/* The verify phase starts (fio's do_verify): the seeds start over, so a
 * mixed job's Nth read of the log expects the Nth seed drawn, whatever
 * the block's write drew. */
void verify_run_start_phase(struct verify_run *vr);

/* @u (a write at its offset) gets its numberio, seed, data and headers. */
void verify_run_write(struct verify_run *vr, struct io_unit *u,
		      uint64_t now_ns);
/* verify_only: logs the write @u would be, without data. */
int verify_run_dry_write(struct verify_run *vr, const struct io_unit *u);

/* Makes @u the next verify read, from the backlog or, in the verify
 * phase, from the log; false when there is none (or the loaded state
 * stops verification: vr->stop). */
bool verify_run_next(struct verify_run *vr, struct io_unit *u,
		     bool verify_phase);
/* A read the job chose: checked when it completes if the job only reads;
 * false when the loaded state stops verification there. */
bool verify_run_plain_read(struct verify_run *vr, struct io_unit *u);

/* True when @u is a read of the verify log (not one the job chose). */
static inline bool verify_run_logged(const struct verify_run *vr,
				     const struct io_unit *u)
{
	return vr->units[u->index].logged;
}

/* @u completed with all its bytes: logs a write, checks a read.  On a bad
 * block returns -EILSEQ with a one-line description in @msg (and the
 * verify_dump files written). */
int verify_run_done(struct verify_run *vr, struct io_unit *u,
		    const char *path, char *msg, size_t len);

/* Writes fio's state file for this job (verify_state_save). */
int verify_run_save_state(struct verify_run *vr, struct errbuf *err);

#endif /* IODIG_VERIFY_RUN_H */
