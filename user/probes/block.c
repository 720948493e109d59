// SPDX-License-Identifier: GPL-2.0
/*
 * block probe family, user side: picks tp_btf, raw_tp or the classic
 * tracepoint for bpf/block.bpf.c, then turns its per-CPU maps into request
 * counts, bytes and device/queue time for the report.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "base/sysfs_num.h"
#include "block.skel.h"
#include "iodig/block.h"
#include "probes/figures.h"
#include "probes/probe.h"
#include "probes/selection.h"
#include "probes/tp_layout.h"
#include "probes/maps.h"
#include "probes/family_render.h"
#include "probes/family.h"
#include "target/diskstats.h"
#include "workload/stats.h"
#include "base/clock.h"

_Static_assert(sizeof(struct block_counters) % sizeof(uint64_t) == 0,
	       "block_counters is summed as u64 words");

static const char *const block_mechs[] = { MECH_TP_BTF, MECH_RAW_TP, MECH_TRACEPOINT };
#define BLOCK_NR_MECHS (sizeof(block_mechs) / sizeof(block_mechs[0]))

static const char *const op_names[BLOCK_OP_NR] = { "read", "write", "discard",
						   "other" };

struct block_state {
	FAMILY_BASE;
	struct block_bpf *skel;
	uint32_t targ_kdev;           /* BLOCK_KDEV of the target, 0 = all */
	char disk[64];
	bool timed;                   /* the mechanism sees struct request */
	bool issue_hooked;            /* --detail: the issue hook runs too */
	uint32_t rq_arg, bio_arg;     /* where the request and the bio are
				       * among the tracepoints' arguments */
	/* Timing stride (bpf/block.bpf.c: time_mask + 1): fixed, or set by
	 * tick() from the completion rate; the widest used is reported. */
	bool stride_fixed;
	unsigned int stride, stride_max;
	uint64_t tick_completed, tick_ns;
	uint64_t detached_ns;         /* --probe-toggle: when the hooks were
				       * last detached */
	/* filled by collect */
	struct block_counters sum;
	struct hist h[BLOCK_HIST_NR][BLOCK_OP_NR];
	uint64_t unmatched;           /* issued, never requeued nor completed */
	uint64_t workload_ios;
	unsigned long nr_requests;    /* the queue's tag depth, 0 = unknown */
	/* The disk's own count of completed requests when the hooks
	 * were attached: collect() compares the requests the program saw
	 * with the disk's to count completions the kernel never handed to
	 * it (docs/overhead.md, "Completions the kernel does not deliver"). */
	bool disk_named;              /* disk is a name under /sys/block */
	bool disk_counted;            /* disk_at_attach was read */
	bool toggled;                 /* --probe-toggle detached the hooks */
	struct disk_counters disk_at_attach;
	uint64_t disk_completed;      /* the disk's count over the run */
	uint64_t undelivered;         /* of them, never seen by the program */
	uint64_t issues_undelivered;  /* issues of them never seen */
	struct probe_shared shared;   /* tag waits, from share_in */
};

/* /sys/block/<disk>/queue/nr_requests: requests the queue can hold, its
 * tag depth with no I/O scheduler (0 when unreadable). */
static unsigned long read_nr_requests(const char *disk)
{
	return (unsigned long)sysfs_read_u64("/sys/block/%s/queue/nr_requests", disk);
}

/* The programs of each mechanism, in block_mechs order; the stage hooks
 * (--detail) need the request and bio pointers, which the classic
 * tracepoint does not give (NULL there). */
enum { PROG_ISSUE, PROG_REQUEUE, PROG_COMPLETE, PROG_BIO_QUEUE, PROG_GETRQ,
       PROG_INSERT, PROGS_PER_MECH };

static struct bpf_program *mech_prog(struct block_bpf *skel, size_t mech, int which)
{
	struct bpf_program *const table[BLOCK_NR_MECHS][PROGS_PER_MECH] = {
		{ skel->progs.iodig_issue_btf, skel->progs.iodig_reque_btf,
		  skel->progs.iodig_compl_btf, skel->progs.iodig_bioq_btf,
		  skel->progs.iodig_getrq_btf, skel->progs.iodig_ins_btf },
		{ skel->progs.iodig_issue_raw, skel->progs.iodig_reque_raw,
		  skel->progs.iodig_compl_raw, skel->progs.iodig_bioq_raw,
		  skel->progs.iodig_getrq_raw, skel->progs.iodig_ins_raw },
		{ skel->progs.iodig_issue_tp, skel->progs.iodig_reque_tp,
		  skel->progs.iodig_compl_tp, NULL, NULL, NULL },
	};

	return table[mech][which];
}

static int block_load(void *state, size_t mech, struct errbuf *why)
{
	struct block_state *s = state;
	int err = FAMILY_OPEN(s, block);

	if (err)
		return err;
	s->timed = strcmp(block_mechs[mech], MECH_TRACEPOINT) != 0;
	s->skel->rodata->targ_dev = s->targ_kdev;
	s->skel->rodata->issue_hooked = s->issue_hooked;
	s->skel->rodata->rq_arg = s->rq_arg;
	s->skel->rodata->bio_arg = s->bio_arg;
	s->skel->bss->time_mask = s->stride - 1;
	/* The stage stamps are used with --detail only.  Each bio between
	 * queue and issue holds one, so never more than the job's I/Os in
	 * flight; 4 times that leaves the LRU room for the stamps of merged
	 * bios, which are only ever evicted (~80 B each, 2.6 MiB at most). */
	bpf_map__set_max_entries(s->skel->maps.stamps, !s->issue_hooked ? 1 :
				 map_size(4 * s->env->inflight, 1024, 32768,
					  BLOCK_STAMPS_ENTRIES));
	/* The issue hook is a second program run per I/O; by default the
	 * completion derives what it gave (bpf/block.bpf.c). */
	for (size_t i = 0; i < BLOCK_NR_MECHS; i++)
		for (int p = 0; p < PROGS_PER_MECH; p++)
			if (mech_prog(s->skel, i, p))
				bpf_program__set_autoload(mech_prog(s->skel, i, p),
							  i == mech && (s->issue_hooked ||
							  (p != PROG_ISSUE && p < PROG_BIO_QUEUE)));
	return family_load(s, why);
}

/* The request's and the bio's place among the tracepoints' arguments
 * (bpf/block.bpf.c: rq_arg), from the kernel's BTF; where v5.11 and later
 * have them when it does not say. */
static void read_arg_layout(struct block_state *s)
{
	int rq = tp_struct_arg(family_btf(s), "block_rq_issue", "request");
	int bio = tp_struct_arg(family_btf(s), "block_bio_queue", "bio");

	s->rq_arg = rq > 0 ? (uint32_t)rq : 0;
	s->bio_arg = bio > 0 ? (uint32_t)bio : 0;
}

/* The timing stride for @rate completions a second: the smallest power of
 * two that keeps the timed ones within BLOCK_TIMED_PER_S. */
static unsigned int stride_for_rate(double rate)
{
	unsigned int stride = 1;

	while (stride < BLOCK_STRIDE_MAX && rate / stride > BLOCK_TIMED_PER_S)
		stride *= 2;
	return stride;
}

/* A requested stride as the BPF side takes it: a power of two within
 * 1..BLOCK_STRIDE_MAX, rounded down. */
static unsigned int stride_of_request(unsigned int want)
{
	unsigned int stride = 1;

	while (stride * 2 <= want && stride < BLOCK_STRIDE_MAX)
		stride *= 2;
	return stride;
}

static void block_prepare(void *state)
{
	struct block_state *s = state;
	const struct probe_env *env = s->env;

	s->issue_hooked = env->detail;
	/* --detail times every request: its stages are exact anyway. */
	s->stride_fixed = env->detail || env->block_time_stride;
	s->stride = env->detail ? 1 : stride_of_request(env->block_time_stride);
	s->stride_max = s->stride;
	s->tick_ns = now_ns();
	read_arg_layout(s);
	if (env->target_dev)
		s->targ_kdev = BLOCK_KDEV(major(env->target_dev), minor(env->target_dev));
	if (env->target_disk[0]) {
		snprintf(s->disk, sizeof(s->disk), "%s", env->target_disk);
		s->disk_named = true;
		s->nr_requests = read_nr_requests(env->target_disk);
	}
	else if (env->target_dev)
		snprintf(s->disk, sizeof(s->disk), "%u:%u", major(env->target_dev),
			 minor(env->target_dev));
	else
		snprintf(s->disk, sizeof(s->disk), "all disks");
}

static uint64_t total_of(const struct block_state *s, size_t field_off)
{
	uint64_t t = 0;

	for (int op = 0; op < BLOCK_OP_NR; op++)
		t += *(const uint64_t *)((const char *)&s->sum.op[op] + field_off);
	return t;
}
#define TOTAL(s, field) total_of((s), offsetof(struct block_op_counters, field))

/* Every ~200 ms: the stride for the completion rate since the last tick.
 * Each timed request carries its stride as weight, so a stride that
 * changes mid-run leaves the estimates unbiased. */
static void block_tick(void *state)
{
	struct block_state *s = state;
	struct block_counters sum;
	uint64_t now, done = 0;

	if (!s || !s->skel || s->stride_fixed || !s->timed || s->detached)
		return;
	if (map_sum_counters(s->skel->maps.counters, &sum, sizeof(sum)))
		return;
	for (int op = 0; op < BLOCK_OP_NR; op++)
		done += sum.op[op].completed;
	now = now_ns();
	if (now <= s->tick_ns || done < s->tick_completed)
		return;
	s->stride = stride_for_rate((double)(done - s->tick_completed) * 1e9 /
				    (double)(now - s->tick_ns));
	if (s->stride > s->stride_max)
		s->stride_max = s->stride;
	s->skel->bss->time_mask = s->stride - 1;
	s->tick_completed = done;
	s->tick_ns = now;
}

/* The stride follows the completion rate while attached: tick() measures
 * from tick_ns, which moves on by the time spent detached. */
static int block_set_attached(void *state, bool on)
{
	struct block_state *s = state;
	int err = family_relink(s, on);

	if (on)
		s->tick_ns += now_ns() - s->detached_ns;
	else
		s->detached_ns = now_ns();
	s->toggled = true;
	return err;
}

/* The disk's completion counts are requests' only on a blk-mq disk (a
 * bio-based one, such as zram, counts bios and has no requests), and only
 * while its queue keeps I/O statistics. */
static bool disk_counts_requests(const char *disk)
{
	char mq[128];

	snprintf(mq, sizeof(mq), "/sys/block/%s/mq", disk);
	return !access(mq, F_OK) && sysfs_read_u64("/sys/block/%s/queue/iostats", disk) != 0;
}

/* The disk's counters are read once the hooks are in, so that every
 * completion it counts from here on should reach the program too. */
static int block_attach(void *state, struct errbuf *why)
{
	struct block_state *s = state;
	struct errbuf ignored = { 0 };
	int err = family_attach_skeleton(s);

	if (err)
		return err_set(why, -err, "attaching the block hooks failed");
	s->disk_counted = s->disk_named && disk_counts_requests(s->disk) &&
			  !diskstats_read(NULL, s->disk, &s->disk_at_attach, &ignored);
	return 0;
}

static uint64_t disk_requests(const struct disk_counters *c)
{
	return c->ios[0] + c->ios[1] + c->discard_ios + c->flush_ios;
}

/* Requests the disk completed since attach that the program never saw:
 * on 6.18 the kernel occasionally runs no program for a batch of
 * completions (docs/overhead.md); they are counted, not assumed away.
 * Totals are compared, not ops: the disk counts zone resets as writes,
 * where the program has them as "other". */
static void count_undelivered(struct block_state *s)
{
	struct disk_counters now;
	struct errbuf ignored = { 0 };
	uint64_t seen = TOTAL(s, completed);

	if (!s->disk_counted || s->toggled || diskstats_read(NULL, s->disk, &now, &ignored)) {
		s->disk_counted = false;
		return;
	}
	s->disk_completed = disk_requests(&now) - disk_requests(&s->disk_at_attach);
	s->undelivered = s->disk_completed > seen ? s->disk_completed - seen : 0;
	/* Every request the disk completed was issued, once more for each
	 * requeue; the issue hook misses batches the same way, and without
	 * it the issues are counted at completion. */
	seen = TOTAL(s, issued) - TOTAL(s, requeued);
	if (s->disk_completed > seen)
		s->issues_undelivered = s->disk_completed - seen;
}

static int block_collect(void *state, uint64_t workload_ios)
{
	struct block_state *s = state;
	uint64_t issued, ended;
	int err;

	s->workload_ios = workload_ios;
	err = map_sum_counters(s->skel->maps.counters, &s->sum, sizeof(s->sum));
	if (err)
		return err;
	/* h[kind][op] is laid out as block_hist_row() numbers them. */
	err = map_read_hists(bpf_map__fd(s->skel->maps.hists), &s->h[0][0],
			     BLOCK_HIST_NR * BLOCK_OP_NR);
	if (err)
		return err;
	/* After the workload every issue should have ended in a requeue or a
	 * completion.  What is left was still in flight or was an event the
	 * kernel did not deliver: on 6.18 a completion run in softirq on top
	 * of another task is occasionally not passed to the program (tracefs
	 * still sees it, recursion_misses stays 0): rare (docs/overhead.md),
	 * but counted rather than assumed away. */
	issued = TOTAL(s, issued);
	ended = TOTAL(s, requeued) + TOTAL(s, completed);
	s->unmatched = issued > ended ? issued - ended : 0;
	count_undelivered(s);
	return 0;
}

static void print_bytes(FILE *out, uint64_t b)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double v = (double)b;
	int u = 0;

	while (v >= 1024.0 && u < 5) {
		v /= 1024.0;
		u++;
	}
	fprintf(out, "%llu (%.*f%s)", (unsigned long long)b, u ? 1 : 0, v, units[u]);
}

static void text_latency(FILE *out, const char *what, const struct hist *h,
			 uint64_t sum, uint64_t max, uint64_t untimed)
{
	if (!h->total) {
		fprintf(out, "      %s: no timestamps (%llu requests without)\n", what,
			(unsigned long long)untimed);
		return;
	}
	fputs("      ", out);
	latency_text(out, what, h, (double)sum / (double)h->total, max);
	if (untimed)
		fprintf(out, ", untimed=%llu", (unsigned long long)untimed);
	fputc('\n', out);
}

/* Sum, maximum, timed and untimed counts behind histogram @kind of one
 * op (@h: its histogram, whose total is the timed count where every
 * request is timed). */
struct kind_figures {
	uint64_t sum, max, timed, untimed;
};

static struct kind_figures figures_of(const struct block_op_counters *c, uint32_t kind,
				      const struct hist *h)
{
	struct kind_figures f = { 0 };

	if (kind == BLOCK_HIST_DEVICE) {
		f = (struct kind_figures){ c->dev_ns_sum, c->dev_ns_max, c->dev_timed,
					   c->dev_untimed };
	} else if (kind == BLOCK_HIST_QUEUE) {
		f = (struct kind_figures){ c->queue_ns_sum, c->queue_ns_max, c->queue_timed,
					   c->queue_untimed };
	} else if (kind < BLOCK_HIST_NR) {
		f.sum = c->stage_ns_sum[kind - BLOCK_HIST_STAGE0];
		f.max = c->stage_ns_max[kind - BLOCK_HIST_STAGE0];
		f.timed = h->total;
		/* one untimed count for all stages: a request without stamps */
		f.untimed = kind == BLOCK_HIST_STAGE0 ? c->stage_untimed : 0;
	}
	return f;
}

static const char *const stage_names[BLOCK_STAGE_NR] = { "Q2G", "G2I", "I2D", "G2D" };

/* --detail: blktrace's stages of the op's requests, those that had any. */
static void text_stages(FILE *out, const struct block_state *s, int op)
{
	for (int k = 0; k < BLOCK_STAGE_NR; k++) {
		uint32_t kind = BLOCK_HIST_STAGE0 + k;
		struct kind_figures f = figures_of(&s->sum.op[op], kind, &s->h[kind][op]);
		char label[16];

		if (!s->h[kind][op].total && !f.untimed)
			continue;
		snprintf(label, sizeof(label), "%-6s", stage_names[k]);
		text_latency(out, label, &s->h[kind][op], f.sum, f.max, f.untimed);
	}
}

/* Requests completed, those the kernel did not deliver to the program
 * included: the ratios per I/O are the disk's, not the program's view. */
static uint64_t requests_done(const struct block_state *s)
{
	return TOTAL(s, completed) + s->undelivered;
}

/* Little's law: the mean number of requests in the driver is the device
 * time they spent there divided by the wall time, exact and free. */
static double mean_inflight(const struct block_state *s)
{
	if (!s->timed || !s->wl.runtime_ns)
		return 0.0;
	return (double)TOTAL(s, dev_ns_sum) / (double)s->wl.runtime_ns;
}

/* Tag waits as the sched family saw them: threads that slept in
 * blk_mq_get_tag because every tag of the queue was in use. */
static void text_tag_waits(const struct block_state *s, FILE *out)
{
	const struct probe_shared *t = &s->shared;

	if (!t->tag_waits_known) {
		fprintf(out, "    tag waits: not measured (the sched family is not loaded)\n");
		return;
	}
	if (!t->tag_waits) {
		fprintf(out, "    tag waits: none seen (blk_mq_get_tag never slept)\n");
		return;
	}
	fprintf(out, "    tag waits: %llu sleeps in blk_mq_get_tag", (unsigned long long)t->tag_waits);
	if (s->workload_ios)
		fprintf(out, " (%.3f per I/O)", (double)t->tag_waits / (double)s->workload_ios);
	if (t->tag_wait_timed)
		fprintf(out, ", off-CPU total=%.2fms avg=%.2fus", (double)t->tag_wait_ns / 1e6,
			(double)t->tag_wait_ns / (double)t->tag_wait_timed / 1e3);
	if (t->tag_wait_period > 1)
		fprintf(out, " (estimated from %llu stacks, 1 in %u switches)",
			(unsigned long long)t->tag_wait_sampled, t->tag_wait_period);
	fputc('\n', out);
}

static void block_render_text(const void *state, FILE *out)
{
	const struct block_state *s = state;
	uint64_t completed;

	if (!s)
		return;
	fprintf(out, "  block (%s): mechanism=%s\n", s->disk, s->mechanism);
	completed = TOTAL(s, completed);
	if (!completed && !TOTAL(s, issued)) {
		fprintf(out, "    no requests seen\n");
		return;
	}
	for (int op = 0; op < BLOCK_OP_NR; op++) {
		const struct block_op_counters *c = &s->sum.op[op];

		if (!c->issued && !c->completed)
			continue;
		fprintf(out, "    %-5s: requests=%llu, bytes=", op_names[op],
			(unsigned long long)c->completed);
		print_bytes(out, c->bytes);
		fprintf(out, ", errors=%llu", (unsigned long long)c->errors);
		if (c->requeued)
			fprintf(out, ", requeued=%llu", (unsigned long long)c->requeued);
		fputc('\n', out);
		if (!s->timed)
			continue;
		text_latency(out, "device", &s->h[BLOCK_HIST_DEVICE][op], c->dev_ns_sum,
			     c->dev_ns_max, c->dev_untimed);
		/* Read from the request's stamps, which a plug stamps with
		 * one cached time: say so rather than print a row of zeros. */
		if (!s->issue_hooked && c->completed > c->queue_untimed && !c->queue_ns_max)
			fprintf(out, "      queue : 0 for every request (the kernel stamped "
				     "start and issue with one cached plug time, v6.9+; "
				     "--detail times it at issue)\n");
		else
			text_latency(out, "queue ", &s->h[BLOCK_HIST_QUEUE][op],
				     c->queue_ns_sum, c->queue_ns_max, c->queue_untimed);
		if (s->issue_hooked)
			text_stages(out, s, op);
	}
	if (!s->timed)
		fprintf(out, "    device/queue time: not available from the classic "
			     "tracepoint (no request pointer)\n");
	else if (s->stride_max > 1)
		fprintf(out, "    times: estimated from %llu requests timed at random, "
			     "1 in up to %u (%s) and weighted by it; max is the largest "
			     "of them; --block-sample=1 times every request\n",
			(unsigned long long)TOTAL(s, dev_timed), s->stride_max,
			s->stride_fixed ? "fixed" : "set from the completion rate");
	else if (s->issue_hooked)
		fprintf(out, "    stages (blktrace's): Q2G bio queued -> request allocated "
			     "(tag waits fall here), G2I -> inserted, I2D inserted -> issued, "
			     "G2D allocated -> issued directly\n");

	fprintf(out, "    requests per workload I/O: ");
	if (s->workload_ios)
		fprintf(out, "%.2f", (double)requests_done(s) / (double)s->workload_ios);
	else
		fprintf(out, "n/a");
	if (mean_inflight(s) > 0.0)
		fprintf(out, ", in flight: avg=%.2f", mean_inflight(s));
	if (mean_inflight(s) > 0.0 && s->nr_requests)
		fprintf(out, " of nr_requests=%lu (%.0f%%)", s->nr_requests,
			100.0 * mean_inflight(s) / (double)s->nr_requests);
	if (s->unmatched)
		fprintf(out, ", issued without completion: %llu",
			(unsigned long long)s->unmatched);
	fputc('\n', out);
	if (s->undelivered)
		fprintf(out, "    undelivered: %llu of the %llu requests %s completed "
			     "never reached the program (the kernel ran none for them); "
			     "the counts above are short by that\n",
			(unsigned long long)s->undelivered, (unsigned long long)s->disk_completed,
			s->disk);
	text_tag_waits(s, out);
	family_drops_text(s, out);
}

static void block_share_in(void *state, const struct probe_shared *sh)
{
	struct block_state *s = state;

	if (s)
		s->shared = *sh;
}

static struct json_object *json_tag_waits(const struct block_state *s)
{
	const struct probe_shared *t = &s->shared;
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "measured", json_object_new_boolean(t->tag_waits_known));
	if (!t->tag_waits_known)
		return o;
	json_object_object_add(o, "source", json_object_new_string(t->tag_wait_source));
	json_object_object_add(o, "sleeps", json_object_new_int64((int64_t)t->tag_waits));
	json_object_object_add(o, "offcpu_ns", json_object_new_int64((int64_t)t->tag_wait_ns));
	json_object_object_add(o, "timed", json_object_new_int64((int64_t)t->tag_wait_timed));
	json_object_object_add(o, "sampled", json_object_new_int64((int64_t)t->tag_wait_sampled));
	json_object_object_add(o, "sample_period", json_object_new_int64(t->tag_wait_period));
	return o;
}

static struct json_object *json_per_op(const struct block_state *s, size_t field_off)
{
	struct json_object *o = json_object_new_object();

	for (int op = 0; op < BLOCK_OP_NR; op++)
		json_object_object_add(o, op_names[op],
				       json_u64(*(const uint64_t *)
						((const char *)&s->sum.op[op] + field_off)));
	json_object_object_add(o, "total", json_u64(total_of(s, field_off)));
	return o;
}
#define JSON_PER_OP(s, field) json_per_op((s), offsetof(struct block_op_counters, field))

/* "samples": the requests the histogram stands for (weighted by the
 * timing stride); "timed": those actually timed. */
static struct json_object *json_latency(const struct hist *h, const struct kind_figures *f)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "samples", json_u64(h->total));
	json_object_object_add(o, "timed", json_u64(f->timed));
	json_object_object_add(o, "untimed", json_u64(f->untimed));
	json_object_object_add(o, "mean", json_object_new_double(
		h->total ? (double)f->sum / (double)h->total : 0.0));
	json_add_percentiles(o, h);
	json_object_object_add(o, "p99_9", json_u64(hist_percentile(h, 99.9)));
	json_object_object_add(o, "max", json_u64(f->max));
	return o;
}

/* device_ns / queue_ns over all ops, with a per-op object for each op
 * that completed requests. */
static struct json_object *json_kind(const struct block_state *s, uint32_t kind)
{
	struct hist *all = calloc(1, sizeof(*all));
	struct kind_figures total = { 0 };
	struct json_object *o;

	if (!all)
		return NULL;
	for (int op = 0; op < BLOCK_OP_NR; op++) {
		struct kind_figures f = figures_of(&s->sum.op[op], kind, &s->h[kind][op]);

		hist_merge(all, &s->h[kind][op]);
		total.sum += f.sum;
		total.timed += f.timed;
		total.untimed += f.untimed;
		if (f.max > total.max)
			total.max = f.max;
	}
	o = json_latency(all, &total);
	for (int op = 0; op < BLOCK_OP_NR; op++) {
		struct kind_figures f = figures_of(&s->sum.op[op], kind, &s->h[kind][op]);

		if (!s->sum.op[op].completed)
			continue;
		json_object_object_add(o, op_names[op], json_latency(&s->h[kind][op], &f));
	}
	free(all);
	return o;
}

static void block_render_json(const void *state, struct json_object *kernel)
{
	const struct block_state *s = state;
	struct json_object *b;

	if (!s || !kernel)
		return;
	b = json_object_new_object();
	json_object_object_add(b, "disk", json_object_new_string(s->disk));
	json_object_object_add(b, "mechanism", json_object_new_string(s->mechanism));
	json_object_object_add(b, "queue_time_from", json_object_new_string(
		s->issue_hooked ? "issue hook" : "request stamps"));
	json_object_object_add(b, "requests", JSON_PER_OP(s, completed));
	json_object_object_add(b, "issued", JSON_PER_OP(s, issued));
	json_object_object_add(b, "requeued", JSON_PER_OP(s, requeued));
	json_object_object_add(b, "bytes", JSON_PER_OP(s, bytes));
	json_object_object_add(b, "errors", JSON_PER_OP(s, errors));
	if (s->timed) {
		struct json_object *t = json_object_new_object();

		json_object_object_add(t, "stride_max", json_u64(s->stride_max));
		json_object_object_add(t, "stride_from", json_object_new_string(
			s->stride_fixed ? "fixed" : "completion rate"));
		json_object_object_add(t, "timed", JSON_PER_OP(s, dev_timed));
		json_object_object_add(b, "timing", t);
		json_object_object_add(b, "device_ns", json_kind(s, BLOCK_HIST_DEVICE));
		json_object_object_add(b, "queue_ns", json_kind(s, BLOCK_HIST_QUEUE));
		if (s->issue_hooked) {
			struct json_object *st = json_object_new_object();

			for (int k = 0; k < BLOCK_STAGE_NR; k++) {
				char key[16];

				snprintf(key, sizeof(key), "%s_ns", stage_names[k]);
				for (char *c = key; *c; c++)
					*c = (char)(*c >= 'A' && *c <= 'Z' ? *c + 32 : *c);
				json_object_object_add(st, key, json_kind(s, BLOCK_HIST_STAGE0 + k));
			}
			json_object_object_add(b, "stages", st);
		}
	}
	json_object_object_add(b, "requests_per_io", json_object_new_double(
		s->workload_ios ? (double)requests_done(s) / (double)s->workload_ios : 0.0));
	if (s->timed && s->wl.runtime_ns)
		json_object_object_add(b, "inflight_mean",
				       json_object_new_double(mean_inflight(s)));
	if (s->nr_requests)
		json_object_object_add(b, "nr_requests", json_u64(s->nr_requests));
	json_object_object_add(b, "tag_waits", json_tag_waits(s));
	json_object_object_add(b, "unmatched_issues", json_u64(s->unmatched));
	json_object_object_add(b, "disk_completed", s->disk_counted ?
			       json_u64(s->disk_completed) : NULL);
	json_object_object_add(b, "drops", family_drops_json(s));
	json_object_object_add(kernel, probe_json_name(&block_probe), b);
}

/* What the family lost: program runs the kernel skipped, as recursion
 * (the base counts those) or without a word (undelivered: the disk
 * counted completions no program run saw); nothing kept per request can
 * fill up. */
static const struct family_drop_def block_drops[] = {
	FAMILY_DROP("undelivered", struct block_state, undelivered),
	FAMILY_DROP("issues_undelivered", struct block_state, issues_undelivered),
};

static const char *const block_classic_events[] = {
	"block_rq_issue", "block_rq_requeue", "block_rq_complete",
};

/* Figures: how many requests the driver saw per I/O of the workload. */
static const struct figure_def block_requests_figure =
	FIGURE_KERNEL_DEF("kernel.requests_per_io", "block requests per I/O",
			  FIGURE_NO_DIRECTION, 30);

static void block_figures(const void *state, const struct probe_workload *wl,
			  struct figure_set *out)
{
	const struct block_state *s = state;

	if (s)
		figure_put(out, &block_requests_figure,
			   figure_ratio((double)requests_done(s), (double)wl->ios));
}

FAMILY_DEFINE(block, block,
	      "requests the disk's driver saw: counts, bytes, device and queue time",
	      FAMILY_CLASSIC("block", block_classic_events), FAMILY_DROPS(block_drops),
	      FAMILY_HOOKS(block, prepare, attach, tick, set_attached, share_in, figures));
