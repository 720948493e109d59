// SPDX-License-Identifier: GPL-2.0
/*
 * iouring probe family, user side: picks tp_btf, raw_tp or the classic
 * tracepoints for bpf/iouring.bpf.c, resolves this kernel's tracepoint
 * names and argument positions from its BTF, and reports how many of the
 * workload's requests io_uring punted to io-wq and how long those took.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "iodig/iouring.h"
#include "iouring.skel.h"
#include "probes/figures.h"
#include "probes/probe.h"
#include "probes/selection.h"
#include "probes/tracefs.h"
#include "probes/maps.h"
#include "probes/family_render.h"
#include "probes/tp_layout.h"
#include "probes/family.h"
#include "workload/stats.h"

_Static_assert(sizeof(struct iouring_counters) % sizeof(uint64_t) == 0,
	       "iouring_counters is summed as u64 words");

/* Best first; the enum indexes iouring_mechs and the program table. */
enum mech { M_TP_BTF, M_RAW_TP, M_TRACEPOINT, IOURING_NR_MECHS };
static const char *const iouring_mechs[IOURING_NR_MECHS] = {
	[M_TP_BTF] = MECH_TP_BTF, [M_RAW_TP] = MECH_RAW_TP, [M_TRACEPOINT] = MECH_TRACEPOINT,
};

enum hook {
	HOOK_SUBMIT,
	HOOK_PUNT,
	HOOK_COMPLETE,
	HOOK_POLL_ARM,
	HOOK_TASK_ADD,
	HOOK_RENAME,
	HOOK_NR,
};

/* Alternative kernel names of one hook, newest first. */
struct hook_def {
	const char *category;
	const char *names[2];
	bool required;
};

static const struct hook_def hooks[HOOK_NR] = {
	/* io_uring_submit_sqe in v5.19 and before (DepSurf), renamed when
	 * its arguments shrank to the request; some stable trees took it */
	[HOOK_SUBMIT]   = { "io_uring", { "io_uring_submit_req", "io_uring_submit_sqe" }, true },
	[HOOK_PUNT]     = { "io_uring", { "io_uring_queue_async_work" }, true },
	[HOOK_COMPLETE] = { "io_uring", { "io_uring_complete" }, true },
	[HOOK_POLL_ARM] = { "io_uring", { "io_uring_poll_arm" }, false },
	[HOOK_TASK_ADD] = { "io_uring", { "io_uring_task_add" }, false },
	[HOOK_RENAME]   = { "task", { "task_rename" }, false },
};

struct iouring_state {
	FAMILY_BASE;
	struct iouring_bpf *skel;
	const char *names[HOOK_NR];            /* tracepoint used, NULL = none */
	bool detail;                           /* --detail: submit and completion
						 * hooks from the start */
	/* io_uring_complete: attached at open with --detail, else loaded and
	 * attached by tick() once the first punt is seen. */
	enum { COMPLETE_PENDING, COMPLETE_AT_OPEN, COMPLETE_AT_PUNT,
	       COMPLETE_FAILED } complete;
	char complete_why[96];                 /* COMPLETE_FAILED: the error */
	/* filled by collect */
	struct iouring_counters sum;
	struct hist punt_hist;
	uint64_t iowq_workers, sqpoll_threads;
};

static struct bpf_program *prog_of(struct iouring_bpf *skel, size_t mech, enum hook h)
{
	struct bpf_program *const table[IOURING_NR_MECHS][HOOK_NR] = {
		[M_TP_BTF] = { skel->progs.iodig_sub_btf, skel->progs.iodig_qaw_btf, skel->progs.iodig_cmp_btf,
		  skel->progs.iodig_poll_btf, skel->progs.iodig_tadd_btf, skel->progs.iodig_ren_btf },
		[M_RAW_TP] = { skel->progs.iodig_sub_raw, skel->progs.iodig_qaw_raw, skel->progs.iodig_cmp_raw,
		  skel->progs.iodig_poll_raw, skel->progs.iodig_tadd_raw, skel->progs.iodig_ren_raw },
		[M_TRACEPOINT] = { skel->progs.iodig_sub_tp, skel->progs.iodig_qaw_tp, skel->progs.iodig_cmp_tp,
		  skel->progs.iodig_poll_tp, skel->progs.iodig_tadd_tp, skel->progs.iodig_ren_tp },
	};

	return table[mech][h];
}

/*
 * Argument positions on this kernel (include/trace/events/io_uring.h, as
 * DepSurf's snapshots and the io-uring list show them):
 * queue_async_work  (ctx, rw, req, work, flags) in v5.15,
 *                   (ctx, req, user_data, opcode, flags, work, rw) in v5.19,
 *                   (req, rw) by v6.2;
 * task_add          (ctx, req, user_data, opcode, mask), then (req, mask);
 * complete          (ctx, user_data, res[, cflags]) in v5.15,
 *                   (ctx, req, user_data, res, cflags, extra1, extra2) up
 *                   to v6.12, (ctx, req, cqe) since v6.13 (commit
 *                   "io_uring: clean up cqe trace points").
 * Which is which is told by argument count and types, never by version.
 * Without BTF the defaults of bpf/iouring.bpf.c (v6.13+) stay.
 */
static void set_arg_positions(const struct btf *btf, struct iouring_args *a)
{
	int n, cqe;

	n = tp_nr_args(btf, "io_uring_queue_async_work");
	if (n == 5)
		a->qaw_req = 2;
	else if (n >= 7)
		a->qaw_req = 1;
	else if (n >= 0)
		a->qaw_req = 0;
	n = tp_nr_args(btf, "io_uring_task_add");
	if (n >= 0)
		a->task_add_req = n == 2 ? 0 : 1;
	n = tp_nr_args(btf, "io_uring_complete");
	cqe = tp_struct_arg(btf, "io_uring_complete", "io_uring_cqe");
	if (cqe >= 0) {
		a->complete_req = 1;
		a->complete_res = IOURING_ARG_NONE;
		a->complete_cqe = (uint32_t)cqe;
	} else if (n >= 7) {
		a->complete_req = 1;
		a->complete_res = 3;
		a->complete_cqe = IOURING_ARG_NONE;
	} else if (n >= 3) {
		a->complete_req = IOURING_ARG_NONE;
		a->complete_res = 2;
		a->complete_cqe = IOURING_ARG_NONE;
	}
}

/* Which of the hook's names this kernel has for @mech, NULL if none;
 * without BTF the newest, which tp_btf and raw_tp then fail to find. */
static const char *hook_name(struct iouring_state *s, size_t mech, enum hook h)
{
	for (size_t i = 0; i < 2 && hooks[h].names[i]; i++) {
		const char *name = hooks[h].names[i];

		if (mech == M_TRACEPOINT ? !tracefs_event_exists(hooks[h].category, name) :
		    !family_btf(s) || tp_proto(family_btf(s), name))
			return name;
	}
	return NULL;
}

static struct bpf_link *attach_one(struct bpf_program *prog, size_t mech, enum hook h,
				   const char *name)
{
	switch (mech) {
	case M_TP_BTF:
		return bpf_program__attach_trace(prog);
	case M_RAW_TP:
		return bpf_program__attach_raw_tracepoint(prog, name);
	default:
		return bpf_program__attach_tracepoint(prog, hooks[h].category, name);
	}
}

/* The submit hook is a program run per request that only counts; by
 * default the completions stand in for it (one CQE per read or write). */
static bool hook_wanted(const struct iouring_state *s, enum hook h)
{
	return s->names[h] && (h != HOOK_SUBMIT || s->detail);
}

static bool complete_traced(const struct iouring_state *s)
{
	return s->complete == COMPLETE_AT_OPEN || s->complete == COMPLETE_AT_PUNT;
}

static int iouring_load(void *state, size_t mech, struct errbuf *why)
{
	struct iouring_state *s = state;
	int err;

	for (int h = 0; h < HOOK_NR; h++) {
		s->names[h] = hook_name(s, mech, h);
		if (!s->names[h] && hooks[h].required)
			return err_set(why, ENOENT, mech == M_TRACEPOINT ?
				       "no %s/%s in tracefs (mounted?)" :
				       "no %s tracepoint in this kernel's BTF",
				       hooks[h].category, hooks[h].names[0]);
	}
	err = FAMILY_OPEN(s, iouring);
	if (err)
		return err;
	/* NULL without kernel BTF: the defaults stay. */
	set_arg_positions(family_btf(s), &s->skel->rodata->args);
	/* punt_start holds the punted requests in flight, never more than
	 * the job's I/Os in flight: twice that, for entries whose completion
	 * was not seen (16 B keys and values: ~80 B each, 2.6 MiB at most).
	 * io_threads: twice the io threads the job can have at once, for
	 * io-wq workers that exit idle and come back with new ids. */
	bpf_map__set_max_entries(s->skel->maps.punt_start,
				 map_size(2 * s->env->inflight, 256, 32768, IOURING_MAX_PUNTED));
	bpf_map__set_max_entries(s->skel->maps.io_threads,
				 map_size(2 * map_io_threads(s->env), 256, 16384,
					  IOURING_MAX_THREADS));
	for (size_t m = 0; m < IOURING_NR_MECHS; m++) {
		for (int h = 0; h < HOOK_NR; h++) {
			struct bpf_program *p = prog_of(s->skel, m, h);
			bool use = m == mech && hook_wanted(s, h);

			bpf_program__set_autoload(p, use);
			/* tp_btf binds to the name at load time. */
			if (use && m == M_TP_BTF && strcmp(s->names[h], hooks[h].names[0]))
				bpf_program__set_attach_target(p, 0, s->names[h]);
		}
	}
	s->complete = s->detail ? COMPLETE_AT_OPEN : COMPLETE_PENDING;
	s->skel->bss->complete_hooked = s->detail;
	return family_load(s, why);
}

/* Attaches the hooks in use, io_uring_complete only once it is due
 * (complete_traced()); --probe-toggle attaches them again with it. */
static int iouring_attach(void *state, struct errbuf *why)
{
	struct iouring_state *s = state;
	int first_err = 0;

	for (int h = 0; h < HOOK_NR; h++) {
		int err;

		if (!hook_wanted(s, h) || (h == HOOK_COMPLETE && !complete_traced(s)))
			continue;
		err = family_keep_link(s, attach_one(prog_of(s->skel, s->mech, h), s->mech, h,
						     s->names[h]));
		if (err && !first_err)
			first_err = err_set(why, -err, "attaching to %s failed", s->names[h]);
	}
	return first_err;
}

static void iouring_prepare(void *state)
{
	struct iouring_state *s = state;

	s->detail = s->env->detail;
}

/* Attaches io_uring_complete once a punt has been seen: until then every
 * request went inline and the hook would only count what the workload
 * counts itself. */
static void iouring_tick(void *state)
{
	struct iouring_state *s = state;
	int err;

	if (!s || !s->skel || s->detached || s->complete != COMPLETE_PENDING ||
	    !s->skel->bss->punt_seen)
		return;
	err = family_keep_link(s, attach_one(prog_of(s->skel, s->mech, HOOK_COMPLETE), s->mech,
					     HOOK_COMPLETE, s->names[HOOK_COMPLETE]));
	if (err) {
		s->complete = COMPLETE_FAILED;
		snprintf(s->complete_why, sizeof(s->complete_why),
			 "failed to attach at the first punt: %s", strerror(-err));
		return;
	}
	s->skel->bss->complete_hooked = true;
	s->complete = COMPLETE_AT_PUNT;
}

static const char *complete_hook_text(const struct iouring_state *s)
{
	switch (s->complete) {
	case COMPLETE_AT_OPEN:
		return "attached at start";
	case COMPLETE_AT_PUNT:
		return "attached at the first punt";
	case COMPLETE_FAILED:
		return s->complete_why;
	default:
		return "not attached (no punts)";
	}
}

static int count_thread(const void *key, const void *value, void *ctx)
{
	const uint32_t *kind = value;
	struct iouring_state *s = ctx;

	(void)key;
	if (*kind == IOURING_THREAD_IOWQ)
		s->iowq_workers++;
	else if (*kind == IOURING_THREAD_SQPOLL)
		s->sqpoll_threads++;
	return 0;
}

/* punt_ns_max is a per-CPU maximum, which map_sum_percpu() would add up. */
static uint64_t punt_max(const struct iouring_state *s)
{
	int ncpu = libbpf_num_possible_cpus();
	struct iouring_counters *per = ncpu > 0 ? calloc(ncpu, sizeof(*per)) : NULL;
	uint32_t zero = 0;
	uint64_t max = 0;

	if (per && !bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.counters), &zero, per))
		for (int c = 0; c < ncpu; c++)
			if (per[c].punt_ns_max > max)
				max = per[c].punt_ns_max;
	free(per);
	return max;
}

static int iouring_collect(void *state, uint64_t workload_ios)
{
	struct iouring_state *s = state;
	int err;

	err = map_sum_counters(s->skel->maps.counters, &s->sum, sizeof(s->sum));
	if (err)
		return err;
	s->sum.punt_ns_max = punt_max(s);
	err = map_read_hists(bpf_map__fd(s->skel->maps.punt_hist), &s->punt_hist, 1);
	if (err)
		return err;
	s->iowq_workers = s->sqpoll_threads = 0;
	err = map_each_entry(s->skel->maps.io_threads, count_thread, s);
	if (err)
		return err;
	/* Without the submit hook, the requests are the I/Os the workload
	 * completed: one CQE per read or write. */
	if (!s->detail)
		s->sum.submitted = workload_ios;
	return 0;
}

static double ratio(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

static void iouring_render_text(const void *state, FILE *out)
{
	const struct iouring_state *s = state;
	const struct iouring_counters *c;
	double div;

	if (!s)
		return;
	c = &s->sum;
	fprintf(out, "  io_uring: mechanism=%s\n", s->mechanism);
	fprintf(out, "    io_uring: %llu %s, %llu punted to io-wq (%.1f%%), ",
		(unsigned long long)c->submitted,
		s->detail ? "submitted" : "requests (workload's count)",
		(unsigned long long)c->punted, 100.0 * ratio(c->punted, c->submitted));
	if (complete_traced(s))
		fprintf(out, "%llu completed%s (%llu failed, %llu -EAGAIN), ",
			(unsigned long long)c->completed,
			s->complete == COMPLETE_AT_PUNT ? " since the first punt" : "",
			(unsigned long long)c->failed, (unsigned long long)c->eagain);
	fprintf(out, "%llu poll armed, %llu poll task_work\n",
		(unsigned long long)c->poll_armed, (unsigned long long)c->task_add);
	if (!complete_traced(s))
		fprintf(out, "    completions: %s\n", complete_hook_text(s));
	fprintf(out, "    io-wq workers: %llu threads", (unsigned long long)s->iowq_workers);
	if (s->sqpoll_threads)
		fprintf(out, ", SQPOLL threads: %llu", (unsigned long long)s->sqpoll_threads);
	fputc('\n', out);
	if (s->punt_hist.total) {
		fputs("    ", out);
		div = latency_text(out, "punted latency", &s->punt_hist,
				   (double)c->punt_ns_sum / (double)c->punt_timed, c->punt_ns_max);
		/* Inline requests are not timed here: the workload's clat is. */
		if (s->have_wl && s->wl.ios)
			fprintf(out, "; workload clat avg=%.2f",
				(double)s->wl.clat_ns / (double)s->wl.ios / div);
		if (c->punt_unhooked)
			fprintf(out, "; %llu punts before the hook attached untimed",
				(unsigned long long)c->punt_unhooked);
		fputc('\n', out);
	}
	family_drops_text(s, out);
}

static void iouring_render_json(const void *state, struct json_object *kernel)
{
	const struct iouring_state *s = state;
	const struct iouring_counters *c;
	struct json_object *o, *sub;

	if (!s || !kernel)
		return;
	c = &s->sum;
	o = json_object_new_object();
	json_object_object_add(o, "mechanism", json_object_new_string(s->mechanism));
	json_object_object_add(o, "submit_tracepoint", json_object_new_string(
		s->names[HOOK_SUBMIT] ? s->names[HOOK_SUBMIT] : ""));
	json_object_object_add(o, "submitted", json_u64(c->submitted));
	json_object_object_add(o, "submitted_from", json_object_new_string(
		s->detail ? "submit hook" : "workload"));
	json_object_object_add(o, "complete_hook", json_object_new_string(complete_hook_text(s)));
	json_object_object_add(o, "punted", json_u64(c->punted));
	json_object_object_add(o, "punt_ratio",
			       json_object_new_double(ratio(c->punted, c->submitted)));
	if (complete_traced(s)) {
		json_object_object_add(o, "completed", json_u64(c->completed));
		json_object_object_add(o, "failed", json_u64(c->failed));
		json_object_object_add(o, "eagain", json_u64(c->eagain));
	}
	json_object_object_add(o, "poll_armed", json_u64(c->poll_armed));
	json_object_object_add(o, "task_add", json_u64(c->task_add));
	json_object_object_add(o, "iowq_workers", json_u64(s->iowq_workers));
	json_object_object_add(o, "sqpoll_threads", json_u64(s->sqpoll_threads));

	sub = json_object_new_object();
	json_object_object_add(sub, "samples", json_u64(c->punt_timed));
	json_object_object_add(sub, "mean", json_object_new_double(
		ratio(c->punt_ns_sum, c->punt_timed)));
	json_add_percentiles(sub, &s->punt_hist);
	json_object_object_add(sub, "max", json_u64(c->punt_ns_max));
	json_object_object_add(sub, "untimed_before_hook", json_u64(c->punt_unhooked));
	json_object_object_add(o, "punted_latency_ns", sub);
	if (s->have_wl && s->wl.ios)
		json_object_object_add(o, "workload_clat_mean_ns", json_object_new_double(
			ratio(s->wl.clat_ns, s->wl.ios)));

	json_object_object_add(o, "drops", family_drops_json(s));
	json_object_object_add(kernel, probe_json_name(&iouring_probe), o);
}

/* What the family lost, by cause (probes/family_render.h); punt_full: a
 * punted request not timed because the tracking hash was full. */
static const struct family_drop_def iouring_drops[] = {
	FAMILY_DROP("punt_full", struct iouring_state, sum.punt_untracked),
	FAMILY_DROP("threads_full", struct iouring_state, sum.thread_drops),
};

/* Figures: how many submitted requests went to io-wq, and the time a
 * request spent punted (punt to completion) per submitted request, the
 * share of the latency the punts stand for. */
static const struct figure_def iouring_punt_figure =
	FIGURE_KERNEL_DEF("kernel.punt_ratio", "io_uring punt ratio (io-wq)", FIGURE_LOWER, 0);
static const struct figure_def iouring_punt_time_figure = {
	.kind = FIGURE_KERNEL, .key = "kernel.punt_ns_per_io",
	.label = "io_uring time punted to io-wq per I/O", .unit = "ns/IO",
	.better = FIGURE_LOWER, .rank = 1,
};

static void iouring_figures(const void *state, const struct probe_workload *wl,
			    struct figure_set *out)
{
	const struct iouring_state *s = state;

	(void)wl;
	if (!s)
		return;
	figure_put(out, &iouring_punt_figure, ratio(s->sum.punted, s->sum.submitted));
	figure_put(out, &iouring_punt_time_figure, ratio(s->sum.punted, s->sum.submitted) *
		   ratio(s->sum.punt_ns_sum, s->sum.punt_timed));
}

FAMILY_DEFINE(iouring, iouring,
	      "io_uring requests: punted to io-wq or inline, punted latency, io-wq workers",
	      .json_name = "io_uring", FAMILY_DROPS(iouring_drops),
	      FAMILY_HOOKS(iouring, prepare, attach, tick, figures));
