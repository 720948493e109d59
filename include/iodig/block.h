/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The block probe family's maps, shared by bpf/block.bpf.c and
 * user/probes/block.c.  Fixed-width types only: clang-BPF and gcc both
 * compile this file.
 */
#ifndef IODIG_BLOCK_H
#define IODIG_BLOCK_H

#include "iodig/hist.h"

/* Request direction as fio reports it (discards are fio's trims);
 * flushes, secure erases, write-zeroes, zone commands and driver-private
 * requests are "other". */
enum block_op {
	BLOCK_OP_READ,
	BLOCK_OP_WRITE,
	BLOCK_OP_DISCARD,
	BLOCK_OP_OTHER,
	BLOCK_OP_NR,
};

/*
 * --detail: the request's way through the block layer, blktrace's names
 * (btt): Q bio queued (block_bio_queue), G request allocated
 * (block_getrq), I inserted into the scheduler or dispatch list
 * (block_rq_insert), D issued to the driver (block_rq_issue).  A request
 * issued directly, never inserted, has G2D instead of G2I and I2D.  A tag
 * wait falls in Q2G.
 */
enum block_stage {
	BLOCK_STAGE_Q2G,
	BLOCK_STAGE_G2I,
	BLOCK_STAGE_I2D,
	BLOCK_STAGE_G2D,
	BLOCK_STAGE_NR,
};

/* One direction's counters.  Per-CPU, so each is written by one CPU. */
struct block_op_counters {
	iodig_u64 issued;        /* block_rq_issue events (a requeued request
				  * is issued again, as blktrace shows it) */
	iodig_u64 requeued;      /* given back by the driver (BLK_STS_RESOURCE
				  * and the like), to be issued again */
	iodig_u64 completed;     /* requests whose last byte completed */
	iodig_u64 bytes;         /* bytes completed, partial completions too */
	iodig_u64 errors;        /* completion events carrying an error */
	/* Times: sums, histograms and the untimed counts (requests the
	 * sample found without stamps) are weighted by the timing stride
	 * (bpf/block.bpf.c), so they estimate all requests; the maxima are
	 * those of the requests timed. */
	iodig_u64 dev_ns_sum;    /* issue->complete */
	iodig_u64 dev_ns_max;
	iodig_u64 dev_timed;     /* requests actually timed, unweighted */
	iodig_u64 dev_untimed;   /* completed without rq->io_start_time_ns */
	iodig_u64 queue_ns_sum;  /* start->issue */
	iodig_u64 queue_ns_max;
	iodig_u64 queue_timed;
	iodig_u64 queue_untimed; /* without rq->start_time_ns (or, from the
				  * stamps, without io_start_time_ns) */
	/* --detail stages (enum block_stage), taken at issue */
	iodig_u64 stage_ns_sum[BLOCK_STAGE_NR];
	iodig_u64 stage_ns_max[BLOCK_STAGE_NR];
	iodig_u64 stage_untimed; /* issued without a bio-queue stamp (merged
				  * bios, or stamps evicted from the map) */
	iodig_u64 time_countdown; /* BPF's own: completions left until the
				  * next timed one (not a count) */
};

struct block_counters {
	struct block_op_counters op[BLOCK_OP_NR];
};

/* Histograms: one per (kind, op), each a row (struct iodig_hist_row) of one
 * per-CPU array, so the BPF side needs no hash map. */
enum block_hist_kind {
	BLOCK_HIST_DEVICE,   /* issue -> complete: what the driver took */
	BLOCK_HIST_QUEUE,    /* request start -> issue: plug, scheduler, tags */
	BLOCK_HIST_STAGE0,   /* + enum block_stage: the --detail stages */
	BLOCK_HIST_NR = BLOCK_HIST_STAGE0 + BLOCK_STAGE_NR,
};

/* Per-request stage stamps, keyed by the request's first bio. */
struct block_stamps {
	iodig_u64 q, g, i;
};

#define BLOCK_STAMPS_ENTRIES 8192

/* Completions timed per second at most once user space has seen the rate
 * (it sets a power-of-two stride every ~200 ms), and the widest stride.
 * 4,096 a second still put ~40 timed completions above a 1-second run's
 * p99; a timed completion costs several untimed ones (cold cache lines,
 * we think: the request's stamps, written by the issuing CPU, and the
 * histogram slots), so a wide stride takes most of the timing's cost
 * away, which a synchronous engine, with few program runs per I/O
 * besides, feels most (docs/overhead.md). */
#define BLOCK_TIMED_PER_S   4096
#define BLOCK_STRIDE_MAX    64

#define BLOCK_HIST_ROWS (BLOCK_HIST_NR * BLOCK_OP_NR)

static __always_inline iodig_u32 block_hist_row(iodig_u32 kind, iodig_u32 op)
{
	return kind * BLOCK_OP_NR + op;
}

/* The kernel's dev_t (include/linux/kdev_t.h: MINORBITS 20), which the
 * block tracepoints and struct gendisk use; it differs from glibc's. */
#define BLOCK_KDEV_MINORBITS 20
#define BLOCK_KDEV(major, minor) \
	(((iodig_u32)(major) << BLOCK_KDEV_MINORBITS) | (iodig_u32)(minor))

#endif /* IODIG_BLOCK_H */
