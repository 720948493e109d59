/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The funcs probe family's maps, shared by bpf/funcs.bpf.c and
 * user/probes/funcs.c: exact entry/exit timing of a table of kernel
 * functions (tag allocation, user-page pinning and release, DAX faults,
 * io_uring issue and punt).  Fixed-width types only.
 *
 * Each traced function has a slot; user space fills funcs_spec[slot] in
 * .rodata with what the BPF side records, so adding a function is one row
 * of the table in user/probes/funcs.c.
 */
#ifndef IODIG_FUNCS_H
#define IODIG_FUNCS_H

#include "iodig/tgid_filter.h"

/* Program slots (one fentry + one fexit program each). */
#define FUNCS_MAX_FNS 20
/* Nesting depth timed per thread: release_pages -> folios_put_refs ->
 * __folio_put is three, an interrupt on top adds a few. */
#define FUNCS_MAX_DEPTH 8
/* blk_mq_get_tag per hardware queue; queues past the last share it. */
#define FUNCS_MAX_HCTX 16

/* What a function's arguments and return value mean. */
enum funcs_kind {
	FK_PLAIN,        /* calls and latency only */
	FK_PAGES_RET,    /* returns pages pinned (< 0: -errno); arg_a = pages asked */
	FK_PAGES_ARG,    /* arg_a = number of pages handled */
	FK_ONE_PAGE,     /* one page per call */
	FK_IOV_BYTES,    /* returns bytes; arg_a = size_t *offset of the first
			  * page, arg_b = maxpages */
	FK_BIO,          /* arg_a = struct bio *: bvecs, and the disk filter */
	FK_FOLIO_BATCH,  /* arg_a = struct folio_batch *: its nr */
	FK_TAG,          /* blk_mq_get_tag(struct blk_mq_alloc_data *) */
	FK_DAX,          /* dax_iomap_fault(vmf, pe_size or order, ...) */
	FK_IOU_ISSUE,    /* io_issue_sqe(req, issue_flags) */
	FK_NR,
};

/* funcs_spec.flags */
#define FF_ANY_CONTEXT 0x1   /* also counted outside the workload's threads
			      * when nested in a counted call (or, FK_BIO,
			      * when the bio is for the target disk) */
#define FF_RET32       0x2   /* returns a 32-bit value: sign-extend it */

struct funcs_spec {
	iodig_u32 kind;
	iodig_u32 flags;
	iodig_u32 arg_a;     /* argument positions, 0-based */
	iodig_u32 arg_b;
};

/* Result classes; which ones a function can produce depends on its kind. */
enum funcs_result {
	FR_OK,           /* all asked for / mapped (VM_FAULT_NOPAGE) / a tag */
	FR_SHORT,        /* fewer pages than asked, or none */
	FR_EAGAIN,       /* -EAGAIN; io_issue_sqe: the NOWAIT attempt failed
			  * and the request is punted to io-wq */
	FR_ERROR,        /* other -errno, VM_FAULT_ERROR bits, no tag */
	FR_FALLBACK,     /* VM_FAULT_FALLBACK: PMD fault retried with PTEs */
	FR_OTHER,
	FR_NR,
};

/* Per-kind variants: DAX fault size; io_issue_sqe blocking or not. */
enum funcs_variant {
	FV_PTE = 0, FV_PMD = 1, FV_PUD = 2,
	FV_NOWAIT = 0, FV_BLOCKING = 1,
	FV_NR = 3,
};

/* Per-CPU, one per slot. */
struct funcs_fn_counters {
	iodig_u64 calls;       /* timed calls (entry and exit both seen) */
	iodig_u64 pages;
	iodig_u64 ns_sum;
	iodig_u64 ns_max;
	iodig_u64 slept;       /* a voluntary context switch inside */
	iodig_u64 preempted;   /* an involuntary one (and none voluntary) */
	iodig_u64 res[FR_NR];
	iodig_u64 variant[FV_NR];
	iodig_u64 lost;        /* entries whose exit was never seen */
};

struct funcs_hctx {
	iodig_u64 calls;
	iodig_u64 slept;
	iodig_u64 ns_sum;
};

/* Per-CPU, one entry. */
struct funcs_global {
	struct funcs_hctx hctx[FUNCS_MAX_HCTX];
	iodig_u64 overflow;      /* calls nested deeper than FUNCS_MAX_DEPTH */
	iodig_u64 no_storage;    /* task storage refused (busy or no memory) */
};


/* One timed call in progress on a thread. */
struct funcs_frame {
	iodig_u64 ts;
	iodig_u64 aux;
	iodig_u64 aux2;
	iodig_u64 sp;         /* fentry's trampoline frame (its ctx), 0 for kprobes */
	iodig_u32 slot;
	iodig_u32 nvcsw;      /* the task's context switch counts at entry */
	iodig_u32 nivcsw;
	iodig_u32 pad;
};

/* Per-thread stack of calls in progress (task local storage). */
struct funcs_stack {
	iodig_u32 depth;
	iodig_u32 over;       /* entries past FUNCS_MAX_DEPTH, not pushed */
	struct funcs_frame f[FUNCS_MAX_DEPTH];
};

/* The first stack found full (one for the run, not per CPU): which task
 * and which calls filled it, so a report can say why calls went untimed. */
struct funcs_overflow {
	iodig_u64 claimed;    /* 0 until the first overflow writes the rest */
	iodig_u64 ts;         /* when it overflowed */
	iodig_u32 tid;
	iodig_u32 pad;
	iodig_u32 slot[FUNCS_MAX_DEPTH];
	iodig_u64 entered[FUNCS_MAX_DEPTH];   /* each frame's entry time */
	char comm[16];
};

#endif /* IODIG_FUNCS_H */
