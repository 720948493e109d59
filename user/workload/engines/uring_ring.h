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
#include "workload/engines/shared.h"

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

/* The ring's options, which both engines take: the member ring of their
 * options struct. */
struct uring_ring_opts {
	bool hipri;                /* IORING_SETUP_IOPOLL */
	bool fixedbufs;            /* register one buffer per unit */
	bool registerfiles;        /* register the job's files */
	bool sqthread_poll;        /* IORING_SETUP_SQPOLL */
	bool sqpoll_cpu_set;       /* sqthread_poll_cpu given: SQ_AFF */
	unsigned int sqpoll_cpu;
};

/* sqthread_poll_cpu's setter: the value, and that it was given (fio pins
 * the submission thread only then). */
opt_setter uring_set_sqpoll_cpu;

/* Their entries in the option table over @opts_t; @hipri_help says what
 * polling needs with that engine. */
#define URING_RING_OPTIONS(opts_t, hipri_help)				\
	ENGINE_OPT_HIPRI(opts_t, ring.hipri, hipri_help),			\
	{ .name = "fixedbufs", .type = OPT_BOOL, .flags = OPT_BARE,		\
	  OPT_FIELD(opts_t, ring.fixedbufs),				\
	  .help = "io_uring registered buffers" },			\
	{ .name = "registerfiles", .type = OPT_BOOL, .flags = OPT_BARE,		\
	  OPT_FIELD(opts_t, ring.registerfiles),				\
	  .help = "io_uring registered files" },				\
	{ .name = "sqthread_poll", .type = OPT_BOOL, .flags = OPT_BARE,		\
	  OPT_FIELD(opts_t, ring.sqthread_poll),				\
	  .help = "io_uring kernel submission thread" },			\
	UINT_OPT("sqthread_poll_cpu", OPT_FIELD(opts_t, ring.sqpoll_cpu),	\
		 NULL, 0, 4095,						\
		 "The CPU of the submission thread (sqthread_poll)",	\
		 .set = uring_set_sqpoll_cpu, .hint = "CPU")

/* What the ring is set up with, besides the flags in @params. */
struct uring_ring_cfg {
	const struct uring_ring_opts *opts;
	uring_result_fn *result;
};

/* Sets up, in w->engine_data (the engine's state, which starts with a
 * struct uring_data and declares its pending and cqes arrays), a ring of w->nr_units entries with
 * @p (IORING_SETUP_* flags, sq_thread_*) and what @cfg's options ask
 * (polling, the submission thread, registered buffers and files).
 * On error nothing is left but the zeroed state. */
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
