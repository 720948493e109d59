// SPDX-License-Identifier: GPL-2.0
/*
 * block: requests the block layer hands to the driver of the target disk.
 *
 * Hooks: block_rq_issue (blk_mq_start_request: the driver takes the request),
 * block_rq_requeue (the driver gave it back; it will be issued again) and
 * block_rq_complete (blk_update_request / blk_complete_request).
 * Each hook has three variants, thin SEC() wrappers over one handler; user
 * space enables one set with bpf_program__set_autoload() before loading:
 *   tp_btf      the request pointer is BTF-typed: direct loads, best;
 *   raw_tp      same arguments, read with BPF_CORE_READ (probe reads);
 *   tracepoint  classic perf tracepoint: only dev, sector, nr_sector,
 *               error and rwbs, no request pointer, so counts and bytes
 *               but no latency.
 *
 * Cost: nothing is kept per request, and by default only the completion
 * hook runs: one program per I/O.  Device time (issue -> complete) is
 * taken against rq->io_start_time_ns and queue time (request start ->
 * issue) is rq->io_start_time_ns - rq->start_time_ns: timestamps the
 * kernel already stores in struct request.  Counts and bytes are exact;
 * the times are taken for a random 1 in (time_mask + 1) requests, each
 * then weighted by that stride, so sums and histograms estimate every
 * request's (Horvitz-Thompson) while user space widens the stride as the
 * completion rate grows (user/probes/block.c).  The timing is what costs
 * (cache lines the issuing CPU wrote, histogram slots; the figures are in
 * docs/overhead.md), and it runs in the loop worker or irq context that
 * completes the I/O, the bottleneck of a fast device.  With
 * --detail (issue_hooked) the issue hook also runs and takes queue time
 * with its own clock read, which also times queues that keep no issue
 * stamp (no QUEUE_FLAG_STATS).  Everything lands in per-CPU
 * arrays and no cache line is shared between CPUs: issue and completion
 * often run on different CPUs (the loop worker, the irq CPU), and an
 * in-flight counter updated by both (an atomic add each, for the maximum
 * queue depth) bounced its line between them on every I/O.  The mean
 * depth comes free from Little's law instead (user/probes/block.c).
 * Read at completion, the queue time is 0 whenever both stamps are the
 * same cached plug time (below): on 6.18 that was every request of psync,
 * libaio and io_uring on a loop device.
 * The issue hook's clock read sees the time since the plug's first use
 * instead, which is the batch's submission work more than queueing.
 *
 * --detail also loads block_bio_queue, block_getrq and block_rq_insert
 * and times blktrace's stages (iodig/block.h: Q2G, G2I, I2D, G2D): their
 * stamps live in an LRU hash keyed by the request's first bio, written
 * at each hook and taken out at issue.  That is a hash operation at four
 * hooks per I/O, which is why it is not the default.
 *
 * Both kernel timestamps are ktime_get_ns() values, but since v6.9 (commit
 * da4c8c3d0975, "block: cache current nsec time in struct blk_plug") a
 * task inside a plug gets the time cached at the plug's first use until it
 * sleeps.  Requests submitted in a batch (libaio, io_uring) therefore start
 * earlier than they really did: queue time includes the batch's earlier
 * submissions, and device time includes the submission work between the
 * cached stamp and the issue.  Sync submissions are not plugged and exact.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "iodig/block.h"
#include "core_fixes.bpf.h"
#include "fast_rand.bpf.h"
#include "tp_progs.bpf.h"
#include "percpu_maps.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Kernel dev_t of the whole disk to watch (BLOCK_KDEV), 0 = every disk. */
const volatile __u32 targ_dev = 0;
/* The issue hook is loaded (--detail): queue time and the issue count
 * come from it; otherwise completion derives both. */
const volatile bool issue_hooked = true;
/* Time a random 1 in (time_mask + 1) completions, a power of two; 0 =
 * every one.  Set through the mmapped .bss while the workload runs. */
__u32 time_mask = 0;
/*
 * Where the request is among the arguments of block_rq_issue,
 * block_rq_requeue and block_rq_insert, and the bio among those of
 * block_bio_queue and block_getrq: first since v5.11 (commit a54895fa
 * dropped their request_queue argument), second before.  User space
 * reads them from the tracepoints' prototypes in the kernel's BTF
 * (user/probes/tp_layout.h); rodata, so the verifier keeps one branch.
 */
const volatile __u32 rq_arg = 0;
const volatile __u32 bio_arg = 0;

IODIG_PERCPU_SLOT(counters, struct block_counters);

IODIG_PERCPU_HISTS(hists, BLOCK_HIST_ROWS);

/* --detail stage stamps; merged bios never reach issue as a request's
 * first bio, so theirs are evicted, never read. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, BLOCK_STAMPS_ENTRIES);
	__type(key, __u64);
	__type(value, struct block_stamps);
} stamps SEC(".maps");

/* REQ_OP_BITS is 8 in every kernel with blk-mq (include/linux/blk_types.h);
 * it is a #define, so vmlinux.h does not carry it. */
#define IODIG_REQ_OP_MASK 0xffu

/* What the handlers need from a request, however it was read. */
struct rq_info {
	__u32 dev;
	__u32 cmd_flags;
	__u32 data_len;      /* completion: bytes not yet completed */
	__u64 stamp_ns;      /* issue: rq->start_time_ns (0 when the queue
			      * keeps no start stamp, e.g. iostats off);
			      * completion: rq->io_start_time_ns (0 without
			      * QUEUE_FLAG_STATS, which wbt, iolatency, iocost
			      * and BFQ turn on) */
	__u64 start_ns;      /* completion: rq->start_time_ns */
};

static __always_inline __u32 disk_kdev(int major, int first_minor)
{
	return BLOCK_KDEV(major, first_minor);
}

/*
 * @btf is a constant at every call site, so each variant compiles only its
 * own branch: direct loads for tp_btf, probe reads for raw_tp.
 */
static __always_inline void read_rq(struct request *rq, bool btf, bool completion,
				    struct rq_info *ri)
{
	struct gendisk *disk;

	if (btf) {
		disk = iodig_rq_disk_btf(rq);
		ri->dev = disk ? disk_kdev(disk->major, disk->first_minor) : 0;
		ri->cmd_flags = rq->cmd_flags;
		if (completion)
			ri->data_len = rq->__data_len;
		else
			ri->stamp_ns = rq->start_time_ns;
	} else {
		disk = iodig_rq_disk(rq);
		ri->dev = disk_kdev(BPF_CORE_READ(disk, major),
				    BPF_CORE_READ(disk, first_minor));
		ri->cmd_flags = BPF_CORE_READ(rq, cmd_flags);
		if (completion)
			ri->data_len = BPF_CORE_READ(rq, __data_len);
		else
			ri->stamp_ns = BPF_CORE_READ(rq, start_time_ns);
	}
}

/* At completion, and only for a request about to be timed: the stamps
 * were written by the issuing CPU, often not the completing one. */
static __always_inline void read_stamps(struct request *rq, bool btf, struct rq_info *ri)
{
	if (btf) {
		ri->stamp_ns = rq->io_start_time_ns;
		if (!issue_hooked)
			ri->start_ns = rq->start_time_ns;
	} else {
		ri->stamp_ns = BPF_CORE_READ(rq, io_start_time_ns);
		if (!issue_hooked)
			ri->start_ns = BPF_CORE_READ(rq, start_time_ns);
	}
}

static __always_inline __u32 op_of_flags(__u32 cmd_flags)
{
	switch (cmd_flags & IODIG_REQ_OP_MASK) {
	case REQ_OP_READ:
		return BLOCK_OP_READ;
	case REQ_OP_WRITE:
		return BLOCK_OP_WRITE;
	case REQ_OP_DISCARD:
		return BLOCK_OP_DISCARD;
	default:
		return BLOCK_OP_OTHER;
	}
}

/* blk_fill_rwbs(): an optional 'F' (preflush) precedes the op letter, and
 * a flush op is 'F' itself; the flag letters that follow are never R/W.
 * Callers pass the two letters as values: the verifier refuses a context
 * pointer that has been offset, which passing ctx->rwbs would produce. */
static __always_inline __u32 op_of_rwbs(char c0, char c1)
{
	char c = c0 == 'F' ? c1 : c0;

	if (c == 'R')
		return BLOCK_OP_READ;
	if (c == 'W')
		return BLOCK_OP_WRITE;
	/* 'D' is a discard, "DE" a secure erase */
	if (c == 'D' && c1 != 'E')
		return BLOCK_OP_DISCARD;
	return BLOCK_OP_OTHER;
}

static __always_inline struct block_op_counters *op_counters(__u32 op)
{
	__u32 zero = 0;
	struct block_counters *c = bpf_map_lookup_elem(&counters, &zero);

	if (!c || op >= BLOCK_OP_NR)
		return NULL;
	return &c->op[op];
}

/* The op's counters when @ri is a request of the watched disk, else NULL. */
static __always_inline struct block_op_counters *watched(const struct rq_info *ri, __u32 op)
{
	if (targ_dev && ri->dev != targ_dev)
		return NULL;
	return op_counters(op);
}

/* @w: how many requests this one stands for (the timing stride). */
static __always_inline void hist_add(__u32 kind, __u32 op, __u64 v, __u64 w)
{
	iodig_hist_add(&hists, block_hist_row(kind, op), v, w);
}

/* 0 when this completion is left untimed, else the stride it stands for;
 * the countdown lives in the op's counters. */
static __always_inline __u64 timing_weight(struct block_op_counters *oc)
{
	return iodig_sample_weight(&oc->time_countdown, time_mask + 1);
}

/*
 * Plain loads and stores are enough for the per-CPU counters: the kernel
 * runs at most one instance of a program per CPU (a nested hit is counted
 * in the program's recursion_misses, which user space reports), and issue
 * and completion write different fields.
 */
static __always_inline void latency_add(__u32 kind, __u32 op, __u64 from, __u64 to,
					__u64 w, __u64 *sum, __u64 *max)
{
	__u64 d = to > from ? to - from : 0;

	*sum += d * w;
	if (d > *max)
		*max = d;
	hist_add(kind, op, d, w);
}

/* @timed: the mechanism sees the request (not the classic tracepoint). */
static __always_inline void on_issue(const struct rq_info *ri, __u32 op, bool timed)
{
	struct block_op_counters *oc = watched(ri, op);

	if (!oc)
		return;
	oc->issued++;
	if (!timed)
		return;
	if (!ri->stamp_ns) {
		oc->queue_untimed++;
		return;
	}
	/* --detail, where every request is timed (time_mask stays 0) */
	oc->queue_timed++;
	latency_add(BLOCK_HIST_QUEUE, op, ri->stamp_ns, bpf_ktime_get_ns(), 1,
		    &oc->queue_ns_sum, &oc->queue_ns_max);
}

static __always_inline void on_requeue(const struct rq_info *ri, __u32 op)
{
	struct block_op_counters *oc = watched(ri, op);

	if (!oc)
		return;
	oc->requeued++;
	/* Without the issue hook a requeued request was issued once more
	 * than it completes. */
	if (!issue_hooked)
		oc->issued++;
}

/*
 * The times of a completed request in the sample: queue time from the two
 * stamps the request carries (both 0, or equal plug times, are what the
 * kernel kept, reported as they are) and device time against a clock
 * read.  A request without stamps counts as untimed, weighted like the
 * others.
 */
static __always_inline void time_completion(struct request *rq, bool btf,
					    struct rq_info *ri, __u32 op,
					    struct block_op_counters *oc)
{
	bool queue_stamped;
	__u64 w = timing_weight(oc);

	if (!w)
		return;
	read_stamps(rq, btf, ri);
	queue_stamped = !issue_hooked && ri->start_ns && ri->stamp_ns;
	if (!issue_hooked && !queue_stamped)
		oc->queue_untimed += w;
	if (!ri->stamp_ns) {
		oc->dev_untimed += w;
		return;
	}
	if (queue_stamped) {
		oc->queue_timed++;
		latency_add(BLOCK_HIST_QUEUE, op, ri->start_ns, ri->stamp_ns, w,
			    &oc->queue_ns_sum, &oc->queue_ns_max);
	}
	oc->dev_timed++;
	latency_add(BLOCK_HIST_DEVICE, op, ri->stamp_ns, bpf_ktime_get_ns(), w,
		    &oc->dev_ns_sum, &oc->dev_ns_max);
}

/* @rq: the request, NULL from the classic tracepoint (untimed). */
static __always_inline void on_complete(struct request *rq, bool btf, struct rq_info *ri,
					__u32 op, int error, __u32 nr_bytes)
{
	struct block_op_counters *oc = watched(ri, op);

	if (!oc)
		return;
	oc->bytes += nr_bytes;
	if (error)
		oc->errors++;
	/* blk_update_request() traces every partial completion; the request
	 * is done when this event covers all that was left. */
	if (nr_bytes < ri->data_len)
		return;
	oc->completed++;
	if (!issue_hooked)
		oc->issued++;
	if (rq)
		time_completion(rq, btf, ri, op, oc);
}

static __always_inline struct request *rq_of(__u64 *ctx)
{
	if (rq_arg == 1)
		return (struct request *)ctx[1];
	return (struct request *)ctx[0];
}

static __always_inline void stage_add(struct block_op_counters *oc, __u32 stage,
				      __u32 op, __u64 from, __u64 to)
{
	__u64 d = to > from ? to - from : 0;

	if (stage >= BLOCK_STAGE_NR)
		return;
	oc->stage_ns_sum[stage] += d;
	if (d > oc->stage_ns_max[stage])
		oc->stage_ns_max[stage] = d;
	hist_add(BLOCK_HIST_STAGE0 + stage, op, d, 1);
}

/* At issue: the request's stages from its first bio's (@bio) stamps. */
static __always_inline void stages_at_issue(__u64 bio, const struct rq_info *ri, __u32 op)
{
	struct block_op_counters *oc = watched(ri, op);
	struct block_stamps *st;
	__u64 now;

	if (!oc)
		return;
	st = bio ? bpf_map_lookup_elem(&stamps, &bio) : NULL;
	if (!st || !st->q || !st->g) {
		oc->stage_untimed++;
		if (st)
			bpf_map_delete_elem(&stamps, &bio);
		return;
	}
	now = bpf_ktime_get_ns();
	stage_add(oc, BLOCK_STAGE_Q2G, op, st->q, st->g);
	if (st->i) {
		stage_add(oc, BLOCK_STAGE_G2I, op, st->g, st->i);
		stage_add(oc, BLOCK_STAGE_I2D, op, st->i, now);
	} else {
		stage_add(oc, BLOCK_STAGE_G2D, op, st->g, now);
	}
	bpf_map_delete_elem(&stamps, &bio);
}

static __always_inline int handle_issue(__u64 *ctx, bool btf)
{
	struct request *rq = rq_of(ctx);
	struct rq_info ri = {};
	__u64 bio = 0;
	__u32 op;

	read_rq(rq, btf, false, &ri);
	/* Read before the first branch: the verifier checks a pointer read
	 * from the tracepoint's argument with a search of the kernel's BTF,
	 * once for every path that reaches the read. */
	if (issue_hooked)
		bio = btf ? (__u64)rq->bio : (__u64)BPF_CORE_READ(rq, bio);
	op = op_of_flags(ri.cmd_flags);
	on_issue(&ri, op, true);
	if (issue_hooked)
		stages_at_issue(bio, &ri, op);
	return 0;
}

static __always_inline struct bio *bio_of(__u64 *ctx)
{
	if (bio_arg == 1)
		return (struct bio *)ctx[1];
	return (struct bio *)ctx[0];
}

static __always_inline bool bio_watched(struct bio *bio, bool btf)
{
	struct gendisk *disk;

	if (!targ_dev)
		return true;
	if (btf) {
		disk = iodig_bio_disk_btf(bio);
		return disk && disk_kdev(disk->major, disk->first_minor) == targ_dev;
	}
	disk = iodig_bio_disk(bio);
	return disk_kdev(BPF_CORE_READ(disk, major), BPF_CORE_READ(disk, first_minor)) == targ_dev;
}

/* Q: a bio enters the block layer; its stamps start over. */
static __always_inline int handle_bio_queue(__u64 *ctx, bool btf)
{
	struct bio *bio = bio_of(ctx);
	struct block_stamps st = {};
	__u64 key = (__u64)bio;

	if (!bio || !bio_watched(bio, btf))
		return 0;
	st.q = bpf_ktime_get_ns();
	bpf_map_update_elem(&stamps, &key, &st, BPF_ANY);
	return 0;
}

/* G: a request was allocated for the bio (after any tag wait). */
static __always_inline int handle_getrq(__u64 *ctx, bool btf)
{
	__u64 key = (__u64)bio_of(ctx);
	struct block_stamps *st = bpf_map_lookup_elem(&stamps, &key);

	if (st)
		st->g = bpf_ktime_get_ns();
	return 0;
}

/* I: the request went into the scheduler or a dispatch list. */
static __always_inline int handle_insert(__u64 *ctx, bool btf)
{
	struct request *rq = rq_of(ctx);
	__u64 key = btf ? (__u64)rq->bio : (__u64)BPF_CORE_READ(rq, bio);
	struct block_stamps *st = bpf_map_lookup_elem(&stamps, &key);

	if (st)
		st->i = bpf_ktime_get_ns();
	return 0;
}

static __always_inline int handle_requeue(__u64 *ctx, bool btf)
{
	struct rq_info ri = {};

	read_rq(rq_of(ctx), btf, false, &ri);
	on_requeue(&ri, op_of_flags(ri.cmd_flags));
	return 0;
}

/* block_rq_complete(struct request *rq, blk_status_t/int error,
 *                   unsigned int nr_bytes), unchanged since v4.x. */
static __always_inline int handle_complete(__u64 *ctx, bool btf)
{
	struct request *rq = (struct request *)ctx[0];
	struct rq_info ri = {};

	read_rq(rq, btf, true, &ri);
	on_complete(rq, btf, &ri, op_of_flags(ri.cmd_flags), (int)ctx[1], (__u32)ctx[2]);
	return 0;
}

IODIG_TP_PROGS(block_rq_issue, issue, handle_issue(ctx, btf))
IODIG_TP_PROGS(block_rq_requeue, reque, handle_requeue(ctx, btf))
IODIG_TP_PROGS(block_rq_complete, compl, handle_complete(ctx, btf))
IODIG_TP_PROGS(block_bio_queue, bioq, handle_bio_queue(ctx, btf))
IODIG_TP_PROGS(block_getrq, getrq, handle_getrq(ctx, btf))
IODIG_TP_PROGS(block_rq_insert, ins, handle_insert(ctx, btf))

/* Classic tracepoints: the record's dev is disk_devt(rq->q->disk), the
 * whole disk, in the kernel's dev_t encoding.  Without the request there
 * are no timestamps, and since nothing is kept per request no latency. */
SEC("tracepoint/block/block_rq_issue")
int iodig_issue_tp(struct trace_event_raw_block_rq *ctx)
{
	struct rq_info ri = { .dev = ctx->dev };

	on_issue(&ri, op_of_rwbs(ctx->rwbs[0], ctx->rwbs[1]), false);
	return 0;
}

SEC("tracepoint/block/block_rq_requeue")
int iodig_reque_tp(struct trace_event_raw_block_rq_requeue *ctx)
{
	struct rq_info ri = { .dev = ctx->dev };

	on_requeue(&ri, op_of_rwbs(ctx->rwbs[0], ctx->rwbs[1]));
	return 0;
}

SEC("tracepoint/block/block_rq_complete")
int iodig_compl_tp(struct trace_event_raw_block_rq_completion *ctx)
{
	/* No remaining length either: every event counts as a completion. */
	struct rq_info ri = { .dev = ctx->dev, .data_len = 0 };

	on_complete(NULL, false, &ri, op_of_rwbs(ctx->rwbs[0], ctx->rwbs[1]), ctx->error,
		    ctx->nr_sector << 9);
	return 0;
}
