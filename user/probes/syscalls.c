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

#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "iodig/syscalls.h"
#include "probes/figures.h"
#include "probes/probe.h"
#include "probes/sc_calls.h"
#include "probes/selection.h"
#include "probes/tracefs.h"
#include "probes/maps.h"
#include "probes/family_render.h"
#include "probes/family.h"
#include "workload/stats.h"
#include "syscalls.skel.h"

_Static_assert(sizeof(struct sc_counters) % sizeof(uint64_t) == 0,
	       "sc_counters is summed as u64 words");

static const char *const sc_mechs[] = { MECH_TP_BTF, MECH_RAW_TP, MECH_TRACEPOINT };
#define SC_NR_MECHS (sizeof(sc_mechs) / sizeof(sc_mechs[0]))

/* Pseudo-mechanism IODIG_DISABLE understands: "slots" puts the per-thread
 * state in task storage instead of the thread slots. */
#define SC_THREAD_SLOTS_NAME "slots"

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

struct sc_state {
	FAMILY_BASE;
	struct syscalls_bpf *skel;
	bool task_storage;            /* else the thread slots */
	char unattached[160];         /* calls the kernel has no tracepoint for */
	uint32_t thread_slots;        /* entries of thread_slots, from the job */
	/* filled by read_at_end */
	struct sc_counters sum;
	struct hist h[SC_ROW_NR];
};

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
	int last_err = -ENOENT, err;

	s->unattached[0] = '\0';
	for (int c = 0; c < SC_CALL_NR; c++) {
		struct bpf_program *enter = c == SC_CALL_URING_ENTER ?
			skel->progs.iodig_sceu_tp : skel->progs.iodig_sce_tp;
		char ev_enter[64], ev_exit[64];
		struct bpf_link *le;

		snprintf(ev_enter, sizeof(ev_enter), "sys_enter_%s", sc_call_name(c));
		snprintf(ev_exit, sizeof(ev_exit), "sys_exit_%s", sc_call_name(c));
		if (sc_call_nr(c) < 0 || tracefs_event_exists("syscalls", ev_enter) ||
		    tracefs_event_exists("syscalls", ev_exit)) {
			note_add(s->unattached, sizeof(s->unattached), sc_call_name(c));
			continue;
		}
		le = bpf_program__attach_tracepoint(enter, "syscalls", ev_enter);
		err = family_keep_pair(s, le, !le ? NULL : bpf_program__attach_tracepoint(
					       skel->progs.iodig_scx_tp, "syscalls", ev_exit));
		if (err) {
			last_err = err;
			note_add(s->unattached, sizeof(s->unattached), sc_call_name(c));
			continue;
		}
		nlinks += 2;
	}
	if (nlinks)
		return 0;
	return err_set(why, -last_err, "no syscalls:sys_enter_<call> tracepoint could be "
		       "attached (%s)", tracefs_event_exists("syscalls", "sys_enter_pread64")
		       == -ENODEV ? "tracefs not mounted" : "CONFIG_FTRACE_SYSCALLS off?");
}

static int sc_load(void *state, size_t mech, struct errbuf *why)
{
	struct sc_state *s = state;
	int err = FAMILY_OPEN(s, syscalls);

	if (err)
		return err;
	for (int c = 0; c < SC_CALL_NR; c++)
		s->skel->rodata->sc_nr[c] = sc_call_nr(c);
	s->skel->rodata->use_task_storage = s->task_storage;
	bpf_map__set_autocreate(s->skel->maps.thread_tls, s->task_storage);
	/* The slots are never touched with task storage: keep them tiny. */
	s->skel->rodata->nr_thread_slots = s->task_storage ? 1 : s->thread_slots;
	bpf_map__set_max_entries(s->skel->maps.thread_slots,
				 s->skel->rodata->nr_thread_slots);
	for (size_t m = 0; m < SC_NR_MECHS; m++) {
		struct bpf_program *progs[3];

		mech_progs(s->skel, m, progs);
		for (int i = 0; i < 3; i++) {
			if (!progs[i])
				continue;
			bpf_program__set_autoload(progs[i], m == mech);
			/* Classic tracepoints are attached per call, by sc_attach(). */
			if (!strcmp(sc_mechs[m], MECH_TRACEPOINT))
				bpf_program__set_autoattach(progs[i], false);
		}
	}
	return family_load(s, why);
}

static int sc_attach(void *state, struct errbuf *why)
{
	struct sc_state *s = state;
	int err = family_attach_skeleton(s);

	if (!err && !strcmp(sc_mechs[s->mech], MECH_TRACEPOINT))
		err = attach_tracepoints(s, why);
	return err;
}

static void sc_prepare(void *state)
{
	struct sc_state *s = state;

	/* Only the workers make the traced calls (io threads never do), and
	 * workers started together have consecutive thread ids: 8 slots per
	 * worker keep them and the odd later one apart; 64 B each, so 64 KiB
	 * to 4 MiB. */
	s->thread_slots = map_size(8 * (uint64_t)s->env->threads, 1024, 65536,
				   SC_THREAD_SLOTS);
	/* The thread slots are an array any kernel with BPF has and the
	 * cheaper of the two; task storage (5.11+) is kept for when they
	 * are disabled, e.g. to compare the two. */
	s->task_storage = mech_is_disabled(s->env, SC_THREAD_SLOTS_NAME);
}

static void sc_note_status(void *state, int err, struct probe_status *st)
{
	const struct sc_state *s = state;

	if (err)
		return;
	if (s->task_storage) {
		mech_reason_add(st->reason, sizeof(st->reason), "per-thread state in task "
				"storage (thread slots disabled by IODIG_DISABLE)");
		st->state = PROBE_DEGRADED;
	}
	if (s->unattached[0])
		mech_reason_add(st->reason, sizeof(st->reason), "no tracepoint for %s",
				s->unattached);
}

/* Read when the workload ends, so the counts match the workload's own
 * whatever other families' collect() does in this process; that is all
 * the family reads. */
static int sc_read_at_end(void *state)
{
	struct sc_state *s = state;
	int err;

	err = map_sum_counters(s->skel->maps.counters, &s->sum, sizeof(s->sum));
	if (err)
		return err;
	/* row r's histogram is row r of the map */
	return map_read_hists(bpf_map__fd(s->skel->maps.hists), s->h, SC_ROW_NR);
}

/* The maps were read when the workload ended (sc_read_at_end()). */
static int sc_collect(void *state, uint64_t workload_ios)
{
	(void)state;
	(void)workload_ios;
	return 0;
}

/* The calls of one role's rows, and how many of them failed. */
struct role_total {
	uint64_t calls, errors;
};

static struct role_total role_total(const struct sc_state *s, enum sc_role role)
{
	struct role_total t = { 0, 0 };

	for (int r = 0; r < SC_ROW_NR; r++)
		if (sc_rows[r].role == role) {
			t.calls += s->sum.row[r].calls;
			t.errors += s->sum.row[r].errors;
		}
	return t;
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

static void text_crosscheck(FILE *out, const char *what, struct role_total traced,
			    uint64_t counted, bool reaping)
{
	uint64_t seen = traced.calls, failed = traced.errors;

	fprintf(out, "    %s calls: %llu traced, workload counted %llu", what,
		(unsigned long long)seen, (unsigned long long)counted);
	if (seen == counted)
		fprintf(out, " (match)\n");
	else if (reaping && seen < counted)
		/* liburing reaps from the CQ ring in user space when
		 * completions are already there. */
		fprintf(out, " (%llu found completions without a system call)\n",
			(unsigned long long)(counted - seen));
	else if (seen - counted <= failed)
		/* The engines retry an interrupted call (EINTR, EAGAIN)
		 * within one submit or reap, as fio's do, and count it once. */
		fprintf(out, " (%+lld: failed calls retried)\n", (long long)(seen - counted));
	else
		fprintf(out, " (%+lld)\n", (long long)(seen - counted));
}

static void sc_render_text(const void *state, FILE *out)
{
	const struct sc_state *s = state;
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
		text_crosscheck(out, "submitting", role_total(s, ROLE_SUBMIT),
				s->wl.submit_calls, false);
		/* A sync engine completes inside the submitting call. */
		if (!s->wl.sync_engine)
			text_crosscheck(out, "reaping   ", role_total(s, ROLE_REAP),
					s->wl.reap_calls, true);
	}
	family_drops_text(s, out);
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
	json_object_object_add(o, "submit_calls", json_u64(role_total(s, ROLE_SUBMIT).calls));
	json_object_object_add(o, "reap_calls", json_u64(role_total(s, ROLE_REAP).calls));
	if (s->have_wl) {
		json_object_object_add(o, "workload_submit_calls", json_u64(s->wl.submit_calls));
		json_object_object_add(o, "workload_reap_calls", json_u64(s->wl.reap_calls));
	}
	json_object_object_add(o, "workload_ios", json_u64(s->wl.ios));
	json_object_object_add(o, "drops", family_drops_json(s));
	json_object_object_add(kernel, probe_json_name(&syscalls_probe), o);
}

/* What the family lost, by cause (probes/family_render.h); unmatched_exit:
 * an exit that did not match the entry recorded for its thread.  The base
 * adds recursion. */
static const struct family_drop_def sc_drops[] = {
	FAMILY_DROP("thread_state", struct sc_state, sum.state_misses),
	FAMILY_DROP("unmatched_exit", struct sc_state, sum.mismatched),
};

/* Figures: each traced call's calls and time in the kernel per I/O. */
static const struct figure_def sc_fn_figures[2] =
	FIGURE_FUNCTION_PER_IO_DEFS("syscall", "syscall", "calls/IO", "time/IO", 20);

static void sc_figures(const void *state, const struct probe_workload *wl,
		       struct figure_set *out)
{
	const struct sc_state *s = state;

	for (int r = 0; s && r < SC_ROW_NR; r++) {
		const struct sc_row_counters *c = &s->sum.row[r];

		if (!c->calls)
			continue;
		figure_put_fn_per_io(out, sc_fn_figures, sc_rows[r].key, c->calls,
				     c->ns_sum, wl->ios);
	}
}

/* Opt-in: two program runs per traced call, and raw_syscalls fire for
 * every call of the machine, so it costs more per I/O than the rest of the
 * default set (docs/overhead.md).  The runner counts the calls itself. */
FAMILY_DEFINE(syscalls, sc,
	      "time in the kernel of the submitting and reaping system calls",
	      .opt_in = true, FAMILY_DROPS(sc_drops),
	      FAMILY_HOOKS(sc, prepare, attach, note_status, read_at_end, figures));
