// SPDX-License-Identifier: GPL-2.0
/*
 * syscalls probe family, user side: picks tp_btf, raw_tp or the classic
 * per-call tracepoints for bpf/syscalls.bpf.c, points it at the workload's
 * processes, then reports time in the kernel per call and per I/O for each
 * submitting and reaping call, checked against the workload's own counts.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "iodig/syscalls.h"
#include "iodig/tgid_filter.h"
#include "probes/figures.h"
#include "probes/probe.h"
#include "probes/mechanism.h"
#include "workload/stats.h"
#include "syscalls.skel.h"

_Static_assert(sizeof(struct sc_counters) % sizeof(uint64_t) == 0,
	       "sc_counters is summed as u64 words");

static const char *const sc_mechs[] = { MECH_TP_BTF, MECH_RAW_TP, MECH_TRACEPOINT };
#define SC_NR_MECHS (sizeof(sc_mechs) / sizeof(sc_mechs[0]))

/* Pseudo-mechanism IODIG_DISABLE understands: "slots" puts the per-thread
 * state in task storage instead of the thread slots. */
#define SC_THREAD_SLOTS_NAME "slots"

/* The traced calls: their tracefs names and numbers on this architecture. */
static const struct {
	const char *name;
	long nr;
} sc_calls[SC_CALL_NR] = {
#ifdef SYS_io_submit
	[SC_CALL_IO_SUBMIT] = { "io_submit", SYS_io_submit },
#else
	[SC_CALL_IO_SUBMIT] = { "io_submit", -1 },
#endif
#ifdef SYS_io_getevents
	[SC_CALL_IO_GETEVENTS] = { "io_getevents", SYS_io_getevents },
#else
	[SC_CALL_IO_GETEVENTS] = { "io_getevents", -1 },
#endif
#ifdef SYS_io_pgetevents
	[SC_CALL_IO_PGETEVENTS] = { "io_pgetevents", SYS_io_pgetevents },
#else
	[SC_CALL_IO_PGETEVENTS] = { "io_pgetevents", -1 },
#endif
#ifdef SYS_io_uring_enter
	[SC_CALL_URING_ENTER] = { "io_uring_enter", SYS_io_uring_enter },
#else
	[SC_CALL_URING_ENTER] = { "io_uring_enter", -1 },
#endif
	[SC_CALL_PREAD64] = { "pread64", SYS_pread64 },
	[SC_CALL_PWRITE64] = { "pwrite64", SYS_pwrite64 },
#ifdef SYS_preadv2
	[SC_CALL_PREADV2] = { "preadv2", SYS_preadv2 },
#else
	[SC_CALL_PREADV2] = { "preadv2", -1 },
#endif
#ifdef SYS_pwritev2
	[SC_CALL_PWRITEV2] = { "pwritev2", SYS_pwritev2 },
#else
	[SC_CALL_PWRITEV2] = { "pwritev2", -1 },
#endif
};

enum sc_role { ROLE_SUBMIT, ROLE_REAP, ROLE_OTHER };

/* Report rows: text label, JSON key, and which workload count they match.
 * submit+wait counts as submitting: the worker counts io_uring_submit*()
 * as one submit call and reaps without entering when CQEs are ready. */
static const struct {
	const char *label;
	const char *key;
	enum sc_role role;
} sc_rows[SC_ROW_NR] = {
	[SC_ROW_IO_SUBMIT] = { "io_submit", "io_submit", ROLE_SUBMIT },
	[SC_ROW_IO_GETEVENTS] = { "io_getevents", "io_getevents", ROLE_REAP },
	[SC_ROW_IO_PGETEVENTS] = { "io_pgetevents", "io_pgetevents", ROLE_REAP },
	[SC_ROW_URING_SUBMIT] = { "io_uring_enter(submit)", "io_uring_enter_submit",
				  ROLE_SUBMIT },
	[SC_ROW_URING_SUBMIT_WAIT] = { "io_uring_enter(submit+wait)",
				       "io_uring_enter_submit_wait", ROLE_SUBMIT },
	[SC_ROW_URING_WAIT] = { "io_uring_enter(wait)", "io_uring_enter_wait", ROLE_REAP },
	[SC_ROW_URING_OTHER] = { "io_uring_enter(other)", "io_uring_enter_other",
				 ROLE_OTHER },
	[SC_ROW_PREAD64] = { "pread64", "pread64", ROLE_SUBMIT },
	[SC_ROW_PWRITE64] = { "pwrite64", "pwrite64", ROLE_SUBMIT },
	[SC_ROW_PREADV2] = { "preadv2", "preadv2", ROLE_SUBMIT },
	[SC_ROW_PWRITEV2] = { "pwritev2", "pwritev2", ROLE_SUBMIT },
};

/* Classic tracepoint links: an entry and an exit per call. */
#define SC_MAX_LINKS (2 * SC_CALL_NR)

struct sc_state {
	const struct probe_env *env;  /* only during open */
	struct syscalls_bpf *skel;
	struct bpf_link *links[SC_MAX_LINKS];
	char mechanism[32];
	bool task_storage;            /* else the thread slots */
	char unattached[160];         /* calls the kernel has no tracepoint for */
	uint32_t thread_slots;        /* entries of thread_slots, from the job */
	/* filled by set_workload and collect */
	struct probe_workload wl;
	bool have_wl;
	bool frozen;                  /* sum read when the workload ended */
	struct sc_counters sum;
	struct hist h[SC_ROW_NR];
	uint64_t missed;
};

static size_t mech_index(const char *mechanism)
{
	for (size_t i = 0; i < SC_NR_MECHS; i++)
		if (!strcmp(sc_mechs[i], mechanism))
			return i;
	return SC_NR_MECHS;
}

/* The two programs of each mechanism, in sc_mechs order; the tracepoint
 * mechanism has a third for io_uring_enter (see the .bpf.c). */
static void mech_progs(struct syscalls_bpf *skel, size_t mech, struct bpf_program **progs)
{
	struct bpf_program *const table[SC_NR_MECHS][3] = {
		{ skel->progs.iodig_sce_btf, skel->progs.iodig_scx_btf, NULL },
		{ skel->progs.iodig_sce_raw, skel->progs.iodig_scx_raw, NULL },
		{ skel->progs.iodig_sce_tp, skel->progs.iodig_scx_tp, skel->progs.iodig_sceu_tp },
	};

	memcpy(progs, table[mech], sizeof(table[mech]));
}

static void links_destroy(struct sc_state *s)
{
	for (size_t i = 0; i < SC_MAX_LINKS; i++) {
		bpf_link__destroy(s->links[i]);
		s->links[i] = NULL;
	}
}

static void note_add(char *buf, size_t size, const char *word)
{
	size_t used = strlen(buf);

	snprintf(buf + used, size - used, "%s%s", used ? ", " : "", word);
}

/* Classic mechanism: each call's two events, where tracefs has them. */
static int attach_tracepoints(struct sc_state *s, struct errbuf *why)
{
	struct syscalls_bpf *skel = s->skel;
	size_t nlinks = 0;
	int last_err = -ENOENT;

	s->unattached[0] = '\0';
	for (int c = 0; c < SC_CALL_NR; c++) {
		struct bpf_program *enter = c == SC_CALL_URING_ENTER ?
			skel->progs.iodig_sceu_tp : skel->progs.iodig_sce_tp;
		char ev_enter[64], ev_exit[64];
		struct bpf_link *le, *lx;

		snprintf(ev_enter, sizeof(ev_enter), "sys_enter_%s", sc_calls[c].name);
		snprintf(ev_exit, sizeof(ev_exit), "sys_exit_%s", sc_calls[c].name);
		if (sc_calls[c].nr < 0 || mech_tracepoint_exists("syscalls", ev_enter) ||
		    mech_tracepoint_exists("syscalls", ev_exit)) {
			note_add(s->unattached, sizeof(s->unattached), sc_calls[c].name);
			continue;
		}
		le = bpf_program__attach_tracepoint(enter, "syscalls", ev_enter);
		if (!le) {
			last_err = -errno;
			note_add(s->unattached, sizeof(s->unattached), sc_calls[c].name);
			continue;
		}
		lx = bpf_program__attach_tracepoint(skel->progs.iodig_scx_tp, "syscalls",
						    ev_exit);
		if (!lx) {
			last_err = -errno;
			bpf_link__destroy(le);
			note_add(s->unattached, sizeof(s->unattached), sc_calls[c].name);
			continue;
		}
		s->links[nlinks++] = le;
		s->links[nlinks++] = lx;
	}
	if (nlinks)
		return 0;
	return err_set(why, -last_err, "no syscalls:sys_enter_<call> tracepoint could be "
		       "attached (%s)", mech_tracepoint_exists("syscalls", "sys_enter_pread64")
		       == -ENODEV ? "tracefs not mounted" : "CONFIG_FTRACE_SYSCALLS off?");
}

/*
 * Opens, loads and attaches one variant; leaves nothing behind on failure.
 * *@loaded tells a failed load (maybe task storage) from a failed attach.
 */
static int sc_load(struct sc_state *s, size_t want, bool task_storage, bool *loaded,
		   struct errbuf *why)
{
	struct bpf_object_open_opts opts;
	struct syscalls_bpf *skel;
	pid_t tgid = s->env->runner_tgid; /* 0: only tracked workers */
	int err;

	*loaded = false;
	skel = syscalls_bpf__open_opts(mech_open_opts(s->env, &opts));
	if (!skel)
		return errno ? -errno : -ENOMEM;
	for (int c = 0; c < SC_CALL_NR; c++)
		skel->rodata->sc_nr[c] = sc_calls[c].nr;
	skel->rodata->use_task_storage = task_storage;
	skel->rodata->supervisor_tid = (uint32_t)s->env->supervisor_tid;
	bpf_map__set_autocreate(skel->maps.thread_tls, task_storage);
	/* The slots are never touched with task storage: keep them tiny. */
	skel->rodata->nr_thread_slots = task_storage ? 1 : s->thread_slots;
	bpf_map__set_max_entries(skel->maps.thread_slots, skel->rodata->nr_thread_slots);
	iodig_tgid_add(skel->bss->tgids, (uint32_t)tgid);
	for (size_t m = 0; m < SC_NR_MECHS; m++) {
		struct bpf_program *progs[3];

		mech_progs(skel, m, progs);
		for (int i = 0; i < 3; i++) {
			if (!progs[i])
				continue;
			bpf_program__set_autoload(progs[i], m == want);
			/* Classic tracepoints are attached per call below. */
			if (m == mech_index(MECH_TRACEPOINT))
				bpf_program__set_autoattach(progs[i], false);
		}
	}
	s->skel = skel;
	err = syscalls_bpf__load(skel);
	if (err)
		goto cleanup;
	*loaded = true;
	err = syscalls_bpf__attach(skel);
	if (!err && !strcmp(sc_mechs[want], MECH_TRACEPOINT))
		err = attach_tracepoints(s, why);
cleanup:
	if (err) {
		links_destroy(s);
		syscalls_bpf__destroy(skel);
		s->skel = NULL;
		return err < 0 ? err : -err;
	}
	return 0;
}

static int sc_try(void *ctx, const char *mechanism, struct errbuf *why)
{
	struct sc_state *s = ctx;
	size_t want = mech_index(mechanism);
	bool loaded;

	if (want == SC_NR_MECHS)
		return err_set(why, EINVAL, "unknown mechanism");
	/* The thread slots are an array any kernel with BPF has and the
	 * cheaper of the two; task storage (5.11+) is kept for when they
	 * are disabled, e.g. to compare the two. */
	s->task_storage = mech_is_disabled(s->env, SC_THREAD_SLOTS_NAME);
	return sc_load(s, want, s->task_storage, &loaded, why);
}

static int sc_open(const struct probe_env *env, void **state, struct probe_status *st)
{
	struct sc_state *s;
	int err;

	*state = NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		memset(st, 0, sizeof(*st));
		st->state = PROBE_MISSING;
		snprintf(st->reason, sizeof(st->reason), "out of memory");
		return -ENOMEM;
	}
	s->env = env;
	/* Only the workers make the traced calls (io threads never do), and
	 * workers started together have consecutive thread ids: 8 slots per
	 * worker keep them and the odd later one apart; 64 B each, so 64 KiB
	 * to 4 MiB. */
	s->thread_slots = mech_map_size(8 * (uint64_t)env->threads, 1024, 65536,
					SC_THREAD_SLOTS);
	err = mech_select(env, "syscalls", sc_mechs, SC_NR_MECHS, sc_try, s, st);
	s->env = NULL;
	if (err) {
		free(s);
		return err;
	}
	snprintf(s->mechanism, sizeof(s->mechanism), "%s", st->mechanism);
	if (s->task_storage) {
		size_t used = strlen(st->reason);

		snprintf(st->reason + used, sizeof(st->reason) - used,
			 "%sper-thread state in task storage (thread slots disabled by "
			 "IODIG_DISABLE)", used ? "; " : "");
		st->state = PROBE_DEGRADED;
	}
	if (s->unattached[0]) {
		size_t used = strlen(st->reason);

		snprintf(st->reason + used, sizeof(st->reason) - used,
			 "%sno tracepoint for %s", used ? "; " : "", s->unattached);
	}
	*state = s;
	return 0;
}

static int sc_track_tgid(void *state, pid_t tgid)
{
	struct sc_state *s = state;

	return mech_track_tgid(s && s->skel ? s->skel->bss->tgids : NULL, tgid);
}

static int read_maps(struct sc_state *s)
{
	uint64_t *slots = NULL;
	int err;

	err = mech_sum_percpu(bpf_map__fd(s->skel->maps.counters), 1,
			      sizeof(s->sum) / sizeof(uint64_t), (uint64_t *)&s->sum);
	if (err)
		return err;
	slots = calloc(SC_HIST_ENTRIES, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	err = mech_sum_percpu(bpf_map__fd(s->skel->maps.hists), SC_HIST_ENTRIES, 1, slots);
	if (err)
		goto cleanup;
	for (uint32_t r = 0; r < SC_ROW_NR; r++) {
		s->h[r].total = 0;
		for (uint32_t i = 0; i < IODIG_HIST_SLOTS; i++) {
			s->h[r].slot[i] = slots[sc_hist_index(r, i)];
			s->h[r].total += s->h[r].slot[i];
		}
	}
cleanup:
	free(slots);
	return err;
}

/* The workload is over: take the counts now, so they match the workload's
 * own whatever other families' collect() does in this process. */
static void sc_set_workload(void *state, const struct probe_workload *wl)
{
	struct sc_state *s = state;

	if (s && s->skel && mech_keep_workload(&s->wl, &s->have_wl, wl))
		s->frozen = !read_maps(s);
}

static int sc_collect(void *state, uint64_t workload_ios)
{
	struct sc_state *s = state;
	size_t mech;
	int err;

	if (!s || !s->skel)
		return -EINVAL;
	if (!s->have_wl)
		s->wl.ios = workload_ios;
	if (!s->frozen && (err = read_maps(s)))
		return err;
	s->missed = 0;
	mech = mech_index(s->mechanism);
	if (mech < SC_NR_MECHS) {
		struct bpf_program *progs[3];

		mech_progs(s->skel, mech, progs);
		for (int i = 0; i < 3; i++)
			if (progs[i])
				s->missed += mech_prog_misses(bpf_program__fd(progs[i]));
	}
	return 0;
}

static uint64_t role_calls(const struct sc_state *s, enum sc_role role)
{
	uint64_t n = 0;

	for (int r = 0; r < SC_ROW_NR; r++)
		if (sc_rows[r].role == role)
			n += s->sum.row[r].calls;
	return n;
}

/* A percentile is a slot's midpoint, which may lie past the largest value
 * seen; never report one above the maximum. */
static uint64_t pctile(const struct hist *h, double pct, uint64_t max)
{
	uint64_t v = hist_percentile(h, pct);

	return v > max ? max : v;
}

/* fio prints latencies in the unit that keeps the figure readable. */
static void print_ns(FILE *out, double ns)
{
	if (ns < 10000.0)
		fprintf(out, "%.0fns", ns);
	else if (ns < 10000000.0)
		fprintf(out, "%.2fus", ns / 1e3);
	else
		fprintf(out, "%.2fms", ns / 1e6);
}

static void text_crosscheck(FILE *out, const char *what, uint64_t seen,
			    uint64_t counted, bool reaping)
{
	fprintf(out, "    %s calls: %llu traced, workload counted %llu", what,
		(unsigned long long)seen, (unsigned long long)counted);
	if (seen == counted)
		fprintf(out, " (match)\n");
	else if (reaping && seen < counted)
		/* liburing reaps from the CQ ring in user space when
		 * completions are already there. */
		fprintf(out, " (%llu found completions without a system call)\n",
			(unsigned long long)(counted - seen));
	else
		fprintf(out, " (%+lld)\n", (long long)(seen - counted));
}

/* What the family lost, by cause (probes/mechanism.h); unmatched_exit:
 * an exit that did not match the entry recorded for its thread. */
#define SC_NR_DROPS 3
static size_t sc_drops(const struct sc_state *s, struct mech_drop *d)
{
	d[0] = (struct mech_drop){ "thread_state", s->sum.state_misses };
	d[1] = (struct mech_drop){ "unmatched_exit", s->sum.mismatched };
	d[2] = (struct mech_drop){ "recursion", s->missed };
	return SC_NR_DROPS;
}

static void sc_render_text(const void *state, FILE *out)
{
	const struct sc_state *s = state;
	struct mech_drop drops[SC_NR_DROPS];
	bool any = false;

	if (!s)
		return;
	fprintf(out, "  syscalls: mechanism=%s, per-thread state=%s\n", s->mechanism,
		s->task_storage ? "task storage" : "thread slots");
	for (int r = 0; r < SC_ROW_NR; r++) {
		const struct sc_row_counters *c = &s->sum.row[r];
		double mean;

		if (!c->calls)
			continue;
		any = true;
		mean = (double)c->ns_sum / (double)c->calls;
		fprintf(out, "    %-27s: calls=%llu", sc_rows[r].label,
			(unsigned long long)c->calls);
		if (c->errors)
			fprintf(out, " (errors=%llu)", (unsigned long long)c->errors);
		fprintf(out, ", in kernel avg=");
		print_ns(out, mean);
		fprintf(out, " p50=");
		print_ns(out, (double)pctile(&s->h[r], 50.0, c->ns_max));
		fprintf(out, " p99=");
		print_ns(out, (double)pctile(&s->h[r], 99.0, c->ns_max));
		fprintf(out, " max=");
		print_ns(out, (double)c->ns_max);
		fprintf(out, ", per I/O=");
		if (s->wl.ios)
			print_ns(out, (double)c->ns_sum / (double)s->wl.ios);
		else
			fprintf(out, "n/a");
		fputc('\n', out);
	}
	if (!any)
		fprintf(out, "    no traced calls seen\n");
	else if (s->have_wl) {
		text_crosscheck(out, "submitting", role_calls(s, ROLE_SUBMIT),
				s->wl.submit_calls, false);
		/* A sync engine completes inside the submitting call. */
		if (!s->wl.sync_engine)
			text_crosscheck(out, "reaping   ", role_calls(s, ROLE_REAP),
					s->wl.reap_calls, true);
	}
	mech_drops_text(out, drops, sc_drops(s, drops));
}

static struct json_object *json_row(const struct sc_state *s, int r)
{
	const struct sc_row_counters *c = &s->sum.row[r];
	const struct hist *h = &s->h[r];
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "calls", json_u64(c->calls));
	json_object_object_add(o, "errors", json_u64(c->errors));
	json_object_object_add(o, "returned", json_u64(c->ret_sum));
	json_object_object_add(o, "ns_total", json_u64(c->ns_sum));
	json_object_object_add(o, "mean_ns", json_object_new_double(
		c->calls ? (double)c->ns_sum / (double)c->calls : 0.0));
	json_object_object_add(o, "p50_ns", json_u64(pctile(h, 50.0, c->ns_max)));
	json_object_object_add(o, "p90_ns", json_u64(pctile(h, 90.0, c->ns_max)));
	json_object_object_add(o, "p99_ns", json_u64(pctile(h, 99.0, c->ns_max)));
	json_object_object_add(o, "max_ns", json_u64(c->ns_max));
	json_object_object_add(o, "ns_per_io", json_object_new_double(
		s->wl.ios ? (double)c->ns_sum / (double)s->wl.ios : 0.0));
	return o;
}

static void sc_render_json(const void *state, struct json_object *kernel)
{
	const struct sc_state *s = state;
	struct mech_drop drops[SC_NR_DROPS];
	struct json_object *o, *calls;

	if (!s || !kernel)
		return;
	o = json_object_new_object();
	calls = json_object_new_object();
	json_object_object_add(o, "mechanism", json_object_new_string(s->mechanism));
	json_object_object_add(o, "thread_state", json_object_new_string(
		s->task_storage ? "task_storage" : "slots"));
	for (int r = 0; r < SC_ROW_NR; r++)
		if (s->sum.row[r].calls)
			json_object_object_add(calls, sc_rows[r].key, json_row(s, r));
	json_object_object_add(o, "calls", calls);
	json_object_object_add(o, "submit_calls", json_u64(role_calls(s, ROLE_SUBMIT)));
	json_object_object_add(o, "reap_calls", json_u64(role_calls(s, ROLE_REAP)));
	if (s->have_wl) {
		json_object_object_add(o, "workload_submit_calls", json_u64(s->wl.submit_calls));
		json_object_object_add(o, "workload_reap_calls", json_u64(s->wl.reap_calls));
	}
	json_object_object_add(o, "workload_ios", json_u64(s->wl.ios));
	json_object_object_add(o, "drops", mech_drops_json(drops, sc_drops(s, drops)));
	json_object_object_add(kernel, probe_json_name(&syscalls_probe), o);
}

static void sc_destroy(void *state)
{
	struct sc_state *s = state;

	if (!s)
		return;
	links_destroy(s);
	syscalls_bpf__destroy(s->skel);
	free(s);
}

MECH_DEFINE_OBJECT(sc_object, struct sc_state)

static int sc_set_attached(void *state, bool on)
{
	struct sc_state *s = state;
	struct errbuf why = { 0 };
	int err;

	if (!s || !s->skel)
		return 0;
	if (!on) {
		syscalls_bpf__detach(s->skel);
		links_destroy(s);
		return 0;
	}
	err = syscalls_bpf__attach(s->skel);
	if (!err && !strcmp(s->mechanism, MECH_TRACEPOINT) && !s->links[0])
		err = attach_tracepoints(s, &why);
	return err < 0 ? err : -err;
}

/* Figures: each traced call's calls and time in the kernel per I/O. */
static const struct figure_def sc_calls_figure = {
	.kind = FIGURE_FUNCTION, .key = "fn|syscall|*|calls_per_io", .label = "syscall",
	.measure = "calls/IO", .unit = "calls/IO", .better = FIGURE_LOWER, .rank = 20,
};
static const struct figure_def sc_ns_figure = {
	.kind = FIGURE_FUNCTION, .key = "fn|syscall|*|ns_per_io", .label = "syscall",
	.measure = "time/IO", .unit = "ns/IO", .better = FIGURE_LOWER, .rank = 20,
};

static void sc_figures(const void *state, const struct probe_workload *wl,
		       struct figure_set *out)
{
	const struct sc_state *s = state;

	for (int r = 0; s && r < SC_ROW_NR; r++) {
		const struct sc_row_counters *c = &s->sum.row[r];

		if (!c->calls)
			continue;
		figure_put_fn(out, &sc_calls_figure, sc_rows[r].key,
			      figure_ratio((double)c->calls, (double)wl->ios));
		figure_put_fn(out, &sc_ns_figure, sc_rows[r].key,
			      figure_ratio((double)c->ns_sum, (double)wl->ios));
	}
}

const struct probe_family syscalls_probe = {
	.name = "syscalls",
	.summary = "time in the kernel of the submitting and reaping system calls",
	/* Two program runs per traced call, and raw_syscalls fire for every
	 * call of the machine: ~450 ns per I/O here, more than the rest of
	 * the default set.  The runner counts the calls itself. */
	.opt_in = true,
	.open = sc_open,
	.track_tgid = sc_track_tgid,
	.set_attached = sc_set_attached,
	.set_workload = sc_set_workload,
	.collect = sc_collect,
	.render_text = sc_render_text,
	.render_json = sc_render_json,
	.figures = sc_figures,
	.object = sc_object,
	.destroy = sc_destroy,
};
