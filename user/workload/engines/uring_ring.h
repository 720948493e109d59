/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The io_uring ring that io_uring and io_uring_cmd share: setup with the
 * task-run flags, registered buffers and files, submission (commit) and
 * reaping (getevents).  The engines differ in the SQEs they fill and in
 * how a CQE becomes a unit's result.
 */
#ifndef IODIG_ENGINES_URING_RING_H
#define IODIG_ENGINES_URING_RING_H

#include <liburing.h>
#include <stdbool.h>

#include "base/errbuf.h"
#include "workload/engine.h"

struct worker;

/* A CQE's result as the unit's: bytes transferred or -errno. */
typedef int64_t uring_result_fn(struct worker *w, const struct io_unit *u,
				const struct io_uring_cqe *cqe);

struct uring_data {
	struct io_uring ring;
	bool ring_ready;
	bool sqpoll;
	bool defer_taskrun;        /* completions appear only on GETEVENTS */
	unsigned char sqe_flags;   /* IOSQE_FIXED_FILE with registerfiles */
	int rw_flags;              /* RWF_NOWAIT with nowait */
	bool fixedbufs;
	uring_result_fn *result;   /* NULL: cqe->res as it is */
	struct io_unit **pending;  /* SQEs filled but not submitted, ring order */
	unsigned int nr_pending;
	unsigned int inflight;     /* submitted, not yet reaped */
	struct io_uring_cqe **cqes;
	unsigned int cap;          /* nr_units */
};

/* What the ring is set up with, besides the flags in @params. */
struct uring_ring_cfg {
	bool fixedbufs;            /* register one buffer per unit */
	bool registerfiles;        /* register the job's files */
	uring_result_fn *result;
	/* Bytes of w->engine_data, a struct that starts with struct
	 * uring_data; 0: just that. */
	size_t data_size;
};

/* Allocates w->engine_data, sets up a ring of w->nr_units entries with
 * @p (IORING_SETUP_* flags, sq_thread_*) and registers what @cfg asks.
 * On error nothing is left (w->engine_data is NULL). */
int uring_ring_open(struct worker *w, const struct io_uring_params *p,
		    const struct uring_ring_cfg *cfg, struct errbuf *err);
/* A unit's SQE: NULL (the runner must reap first) when the ring is full. */
struct io_uring_sqe *uring_ring_sqe(struct uring_data *d);
/* Notes @u as filled into the SQE uring_ring_sqe gave last. */
void uring_ring_queued(struct uring_data *d, struct io_unit *u);

/* The engine_ops callbacks of both engines. */
void uring_cleanup(struct worker *w);
int uring_commit(struct worker *w);
int uring_getevents(struct worker *w, unsigned int min, unsigned int max,
		    struct io_unit **done);

#endif /* IODIG_ENGINES_URING_RING_H */
