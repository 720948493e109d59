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
#include "iodig/tgid_filter.h"
#include "iouring.skel.h"
#include "probes/figures.h"
#include "probes/probe.h"
#include "probes/mechanism.h"
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
	const struct probe_env *env;           /* only during open */
	struct iouring_bpf *skel;
	struct bpf_link *links[HOOK_NR];
	struct bpf_program *progs[HOOK_NR];    /* the attached ones */
	const char *names[HOOK_NR];            /* tracepoint used, NULL = none */
	char mechanism[32];
	pid_t runner_tgid;
	bool detail;                           /* --detail: submit and completion
						 * hooks from the start */
	size_t mech;                           /* index of the loaded mechanism */
	bool detached;                         /* --probe-toggle: links dropped,
						* progs[] kept to attach again */
	/* io_uring_complete: attached at open with --detail, else loaded and
	 * attached by tick() once the first punt is seen. */
	enum { COMPLETE_PENDING, COMPLETE_AT_OPEN, COMPLETE_AT_PUNT,
	       COMPLETE_FAILED } complete;
	char complete_why[96];                 /* COMPLETE_FAILED: the error */
	struct btf *vmlinux;                   /* only while opening */
	/* filled by collect */
	struct iouring_counters sum;
	struct hist punt_hist;
	uint64_t iowq_workers, sqpoll_threads;
	uint64_t missed;
	bool have_workload;
	struct probe_workload wl;
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

static size_t mech_index(const char *mechanism)
{
	for (size_t i = 0; i < IOURING_NR_MECHS; i++)
		if (!strcmp(iouring_mechs[i], mechanism))
			return i;
	return IOURING_NR_MECHS;
}

/* The FUNC_PROTO behind typedef btf_trace_<tp>, NULL when unknown. */
static const struct btf_type *tp_proto(const struct btf *btf, const char *tp)
{
	const struct btf_type *t;
	char name[128];
	int id;

	if (!btf)
		return NULL;
	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	if (t)
		t = btf__type_by_id(btf, t->type);
	if (t && btf_is_ptr(t))
		t = btf__type_by_id(btf, t->type);
	return t && btf_is_func_proto(t) && btf_vlen(t) > 0 ? t : NULL;
}

/* Arguments of @tp without the leading private-data pointer, -1 unknown. */
static int tp_nr_args(const struct btf *btf, const char *tp)
{
	const struct btf_type *t = tp_proto(btf, tp);

	return t ? btf_vlen(t) - 1 : -1;
}

/* Index of the argument of @tp that points to struct @sname, -1 if none. */
static int tp_struct_arg(const struct btf *btf, const char *tp, const char *sname)
{
	const struct btf_type *t = tp_proto(btf, tp);
	const struct btf_param *p;

	if (!t)
		return -1;
	p = btf_params(t);
	for (int i = 1; i < btf_vlen(t); i++) {
		const struct btf_type *a = btf__type_by_id(btf, p[i].type);

		if (!a || !btf_is_ptr(a))
			continue;
		/* skip const/volatile/typedef to the pointee */
		a = btf__type_by_id(btf, a->type);
		while (a && (btf_is_mod(a) || btf_is_typedef(a)))
			a = btf__type_by_id(btf, a->type);
		if (a && btf_is_struct(a) && !strcmp(btf__name_by_offset(btf, a->name_off), sname))
			return i - 1;
	}
	return -1;
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

/* Which of the hook's names this kernel has for @mech, NULL if none. */
static const char *hook_name(const struct iouring_state *s, size_t mech, enum hook h)
{
	for (size_t i = 0; i < 2 && hooks[h].names[i]; i++) {
		const char *name = hooks[h].names[i];

		if (mech == M_TRACEPOINT ? !mech_tracepoint_exists(hooks[h].category, name) :
		    !s->vmlinux || tp_proto(s->vmlinux, name))
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

static void detach_all(struct iouring_state *s)
{
	for (int h = 0; h < HOOK_NR; h++) {
		bpf_link__destroy(s->links[h]);
		s->links[h] = NULL;
		s->progs[h] = NULL;
	}
}

/* The submit hook is a program run per request that only counts; by
 * default the completions stand in for it (one CQE per read or write). */
static bool hook_wanted(const struct iouring_state *s, enum hook h)
{
	return s->names[h] && (h != HOOK_SUBMIT || s->detail);
}

static int iouring_try(void *ctx, const char *mechanism, struct errbuf *why)
{
	struct iouring_state *s = ctx;
	size_t want = mech_index(mechanism);
	struct iouring_bpf *skel = NULL;
	struct bpf_object_open_opts opts;
	int err = 0;

	if (want == IOURING_NR_MECHS)
		return err_set(why, EINVAL, "unknown mechanism");
	for (int h = 0; h < HOOK_NR; h++) {
		s->names[h] = hook_name(s, want, h);
		if (!s->names[h] && hooks[h].required)
			return err_set(why, ENOENT, want == M_TRACEPOINT ?
				       "no %s/%s in tracefs (mounted?)" :
				       "no %s tracepoint in this kernel's BTF",
				       hooks[h].category, hooks[h].names[0]);
	}
	skel = iouring_bpf__open_opts(mech_open_opts(s->env, &opts));
	if (!skel)
		return errno ? -errno : -ENOMEM;
	set_arg_positions(s->vmlinux, &skel->rodata->args);
	/* punt_start holds the punted requests in flight, never more than
	 * the job's I/Os in flight: twice that, for entries whose completion
	 * was not seen (16 B keys and values: ~80 B each, 2.6 MiB at most).
	 * io_threads: twice the io threads the job can have at once, for
	 * io-wq workers that exit idle and come back with new ids. */
	bpf_map__set_max_entries(skel->maps.punt_start,
				 mech_map_size(2 * s->env->inflight, 256, 32768,
					       IOURING_MAX_PUNTED));
	bpf_map__set_max_entries(skel->maps.io_threads,
				 mech_map_size(2 * mech_io_threads(s->env), 256, 16384,
					       IOURING_MAX_THREADS));
	for (size_t m = 0; m < IOURING_NR_MECHS; m++) {
		for (int h = 0; h < HOOK_NR; h++) {
			struct bpf_program *p = prog_of(skel, m, h);
			bool use = m == want && hook_wanted(s, h);

			bpf_program__set_autoload(p, use);
			/* tp_btf binds to the name at load time. */
			if (use && m == M_TP_BTF && strcmp(s->names[h], hooks[h].names[0]))
				bpf_program__set_attach_target(p, 0, s->names[h]);
		}
	}
	if (s->runner_tgid > 0)
		iodig_tgid_add(skel->bss->targ_tgids, (uint32_t)s->runner_tgid);
	err = iouring_bpf__load(skel);
	if (err)
		goto cleanup;
	for (int h = 0; h < HOOK_NR; h++) {
		struct bpf_program *p = prog_of(skel, want, h);

		if (!hook_wanted(s, h) || (h == HOOK_COMPLETE && !s->detail))
			continue;
		s->links[h] = attach_one(p, want, h, s->names[h]);
		if (!s->links[h]) {
			err = -errno;
			err_set(why, -err, "attaching to %s failed", s->names[h]);
			goto cleanup;
		}
		s->progs[h] = p;
	}
	s->skel = skel;
	s->mech = want;
	s->complete = s->detail ? COMPLETE_AT_OPEN : COMPLETE_PENDING;
	skel->bss->complete_hooked = s->detail;
	return 0;
cleanup:
	detach_all(s);
	iouring_bpf__destroy(skel);
	return err < 0 ? err : -err;
}

static int iouring_open(const struct probe_env *env, void **state, struct probe_status *st)
{
	struct iouring_state *s;
	int err;

	*state = NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		memset(st, 0, sizeof(*st));
		st->state = PROBE_MISSING;
		snprintf(st->reason, sizeof(st->reason), "out of memory");
		return -ENOMEM;
	}
	s->runner_tgid = env->runner_tgid;
	s->detail = env->detail;
	/* NULL without kernel BTF: tp_btf/raw_tp fail and the defaults stay. */
	s->vmlinux = mech_btf_load(env);
	s->env = env;
	err = mech_select(env, "iouring", iouring_mechs, IOURING_NR_MECHS, iouring_try, s, st);
	s->env = NULL;
	btf__free(s->vmlinux);
	s->vmlinux = NULL;
	if (err) {
		free(s);
		return err;
	}
	snprintf(s->mechanism, sizeof(s->mechanism), "%s", st->mechanism);
	*state = s;
	return 0;
}

/* Attaches io_uring_complete once a punt has been seen: until then every
 * request went inline and the hook would only count what the workload
 * counts itself. */
static void iouring_tick(void *state)
{
	struct iouring_state *s = state;
	struct bpf_program *p;

	if (!s || !s->skel || s->detached || s->complete != COMPLETE_PENDING ||
	    !s->skel->bss->punt_seen)
		return;
	p = prog_of(s->skel, s->mech, HOOK_COMPLETE);
	s->links[HOOK_COMPLETE] = attach_one(p, s->mech, HOOK_COMPLETE,
					     s->names[HOOK_COMPLETE]);
	if (!s->links[HOOK_COMPLETE]) {
		s->complete = COMPLETE_FAILED;
		snprintf(s->complete_why, sizeof(s->complete_why),
			 "failed to attach at the first punt: %s", strerror(errno ? errno : EINVAL));
		return;
	}
	s->progs[HOOK_COMPLETE] = p;
	s->skel->bss->complete_hooked = true;
	s->complete = COMPLETE_AT_PUNT;
}

static int iouring_set_attached(void *state, bool on)
{
	struct iouring_state *s = state;
	int first_err = 0;

	if (!s || !s->skel || on == !s->detached)
		return 0;
	for (int h = 0; h < HOOK_NR; h++) {
		if (!s->progs[h])
			continue;
		if (!on) {
			bpf_link__destroy(s->links[h]);
			s->links[h] = NULL;
			continue;
		}
		s->links[h] = attach_one(s->progs[h], s->mech, h, s->names[h]);
		if (!s->links[h] && !first_err)
			first_err = -errno;
	}
	s->detached = !on;
	return first_err;
}

static bool complete_traced(const struct iouring_state *s)
{
	return s->complete == COMPLETE_AT_OPEN || s->complete == COMPLETE_AT_PUNT;
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

static int iouring_track_tgid(void *state, pid_t tgid)
{
	struct iouring_state *s = state;

	return mech_track_tgid(s && s->skel ? s->skel->bss->targ_tgids : NULL, tgid);
}

static void iouring_set_workload(void *state, const struct probe_workload *wl)
{
	struct iouring_state *s = state;

	if (s)
		mech_keep_workload(&s->wl, &s->have_workload, wl);
}

static void count_threads(struct iouring_state *s)
{
	int fd = bpf_map__fd(s->skel->maps.io_threads);
	uint32_t key, next, kind;
	bool first = true;

	s->iowq_workers = s->sqpoll_threads = 0;
	while (!bpf_map_get_next_key(fd, first ? NULL : &key, &next)) {
		first = false;
		key = next;
		if (bpf_map_lookup_elem(fd, &key, &kind))
			continue;
		if (kind == IOURING_THREAD_IOWQ)
			s->iowq_workers++;
		else if (kind == IOURING_THREAD_SQPOLL)
			s->sqpoll_threads++;
	}
}

/* punt_ns_max is a per-CPU maximum, which mech_sum_percpu() would add up. */
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

	if (!s || !s->skel)
		return -EINVAL;
	err = mech_sum_percpu(bpf_map__fd(s->skel->maps.counters), 1,
			      sizeof(s->sum) / sizeof(uint64_t), (uint64_t *)&s->sum);
	if (err)
		return err;
	s->sum.punt_ns_max = punt_max(s);
	err = mech_sum_percpu(bpf_map__fd(s->skel->maps.punt_hist), IODIG_HIST_SLOTS, 1,
			      s->punt_hist.slot);
	if (err)
		return err;
	s->punt_hist.total = 0;
	for (uint32_t i = 0; i < IODIG_HIST_SLOTS; i++)
		s->punt_hist.total += s->punt_hist.slot[i];
	count_threads(s);
	/* Without the submit hook, the requests are the I/Os the workload
	 * completed: one CQE per read or write. */
	if (!s->detail)
		s->sum.submitted = workload_ios;
	s->missed = 0;
	for (int h = 0; h < HOOK_NR; h++)
		if (s->progs[h])
			s->missed += mech_prog_misses(bpf_program__fd(s->progs[h]));
	return 0;
}

static double ratio(uint64_t part, uint64_t whole)
{
	return whole ? (double)part / (double)whole : 0.0;
}

/* fio prints latencies in the unit that keeps the average readable. */
static void pick_unit(double ns, const char **unit, double *div)
{
	if (ns < 10000.0) {
		*unit = "nsec";
		*div = 1.0;
	} else if (ns < 10000000.0) {
		*unit = "usec";
		*div = 1000.0;
	} else {
		*unit = "msec";
		*div = 1000000.0;
	}
}

/* What the family lost, by cause (probes/mechanism.h); punt_full: a
 * punted request not timed because the tracking hash was full. */
#define IOURING_NR_DROPS 3
static size_t iouring_drops(const struct iouring_state *s, struct mech_drop *d)
{
	d[0] = (struct mech_drop){ "punt_full", s->sum.punt_untracked };
	d[1] = (struct mech_drop){ "threads_full", s->sum.thread_drops };
	d[2] = (struct mech_drop){ "recursion", s->missed };
	return IOURING_NR_DROPS;
}

static void iouring_render_text(const void *state, FILE *out)
{
	const struct iouring_state *s = state;
	struct mech_drop drops[IOURING_NR_DROPS];
	const struct iouring_counters *c;
	const char *unit;
	double div, mean;

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
		mean = (double)c->punt_ns_sum / (double)c->punt_timed;
		pick_unit(mean, &unit, &div);
		fprintf(out, "    punted latency (%s): avg=%.2f, p50=%.2f, p99=%.2f, max=%.2f",
			unit, mean / div, (double)hist_percentile(&s->punt_hist, 50.0) / div,
			(double)hist_percentile(&s->punt_hist, 99.0) / div,
			(double)c->punt_ns_max / div);
		/* Inline requests are not timed here: the workload's clat is. */
		if (s->have_workload && s->wl.ios)
			fprintf(out, "; workload clat avg=%.2f",
				(double)s->wl.clat_ns / (double)s->wl.ios / div);
		if (c->punt_unhooked)
			fprintf(out, "; %llu punts before the hook attached untimed",
				(unsigned long long)c->punt_unhooked);
		fputc('\n', out);
	}
	mech_drops_text(out, drops, iouring_drops(s, drops));
}

static void iouring_render_json(const void *state, struct json_object *kernel)
{
	const struct iouring_state *s = state;
	struct mech_drop drops[IOURING_NR_DROPS];
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
	json_object_object_add(sub, "p50", json_u64(hist_percentile(&s->punt_hist, 50.0)));
	json_object_object_add(sub, "p90", json_u64(hist_percentile(&s->punt_hist, 90.0)));
	json_object_object_add(sub, "p99", json_u64(hist_percentile(&s->punt_hist, 99.0)));
	json_object_object_add(sub, "max", json_u64(c->punt_ns_max));
	json_object_object_add(sub, "untimed_before_hook", json_u64(c->punt_unhooked));
	json_object_object_add(o, "punted_latency_ns", sub);
	if (s->have_workload && s->wl.ios)
		json_object_object_add(o, "workload_clat_mean_ns", json_object_new_double(
			ratio(s->wl.clat_ns, s->wl.ios)));

	json_object_object_add(o, "drops", mech_drops_json(drops, iouring_drops(s, drops)));
	json_object_object_add(kernel, probe_json_name(&iouring_probe), o);
}

static void iouring_destroy(void *state)
{
	struct iouring_state *s = state;

	if (!s)
		return;
	detach_all(s);
	iouring_bpf__destroy(s->skel);
	free(s);
}

MECH_DEFINE_OBJECT(iouring_object, struct iouring_state)

/* Figures: how many submitted requests went to io-wq. */
static const struct figure_def iouring_punt_figure = {
	.kind = FIGURE_KERNEL, .key = "kernel.punt_ratio", .label = "io_uring punt ratio (io-wq)",
	.unit = "", .better = FIGURE_LOWER, .rank = 0,
};

static void iouring_figures(const void *state, const struct probe_workload *wl,
			    struct figure_set *out)
{
	const struct iouring_state *s = state;

	(void)wl;
	if (s)
		figure_put(out, &iouring_punt_figure, ratio(s->sum.punted, s->sum.submitted));
}

const struct probe_family iouring_probe = {
	.name = "iouring",
	.json_name = "io_uring",
	.summary = "io_uring requests: punted to io-wq or inline, punted latency, io-wq workers",
	.open = iouring_open,
	.track_tgid = iouring_track_tgid,
	.tick = iouring_tick,
	.set_attached = iouring_set_attached,
	.set_workload = iouring_set_workload,
	.collect = iouring_collect,
	.render_text = iouring_render_text,
	.render_json = iouring_render_json,
	.figures = iouring_figures,
	.object = iouring_object,
	.destroy = iouring_destroy,
};
