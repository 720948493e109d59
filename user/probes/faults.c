// SPDX-License-Identifier: GPL-2.0
/*
 * faults probe family, user side: picks tp_btf, raw_tp or the classic
 * tracepoints for bpf/faults.bpf.c, attaching each event only where this
 * kernel has it, then reports the workload's user page faults per I/O and
 * how DAX faults were served (or that no DAX mapping was seen).  The fs_dax
 * tracepoints are attached only where a DAX fault can happen
 * (probes/fs_dax_source.h): each one attached costs start and end time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "faults.skel.h"
#include "iodig/faults.h"
#include "probes/figures.h"
#include "probes/probe.h"
#include "probes/selection.h"
#include "probes/tracefs.h"
#include "probes/tp_layout.h"
#include "probes/maps.h"
#include "probes/family_render.h"
#include "probes/family.h"
#include "probes/fs_dax_source.h"

_Static_assert(sizeof(struct faults_counters) % sizeof(uint64_t) == 0,
	       "faults_counters is summed as u64 words");

static const char *const faults_mechs[] = { MECH_TP_BTF, MECH_RAW_TP, MECH_TRACEPOINT };
#define FAULTS_NR_MECHS (sizeof(faults_mechs) / sizeof(faults_mechs[0]))
/* Program name suffix of each mechanism, in faults_mechs order. */
static const char *const mech_suffix[FAULTS_NR_MECHS] = { "btf", "raw", "tp" };

#define EV_PAGE_FAULT (-1)
#define EV_DAX_START (-2)     /* a handler's entry: times its _done */

/* The row of a tracepoint of the fs_dax category. */
#define DAX_EVENT(event, stem, dax, label, key) { "fs_dax", event, stem, dax, label, key }

/* Every hooked event: its tracefs place, program stem and DAX slot. */
static const struct fault_event {
	const char *category;
	const char *event;
	const char *stem;        /* programs iodig_<stem>_{btf,raw,tp} */
	int dax;                 /* enum faults_dax_event, EV_PAGE_FAULT */
	const char *label;       /* text report */
	const char *key;         /* JSON */
} fault_events[] = {
	{ "exceptions", "page_fault_user", "pf", EV_PAGE_FAULT, "user faults", "user" },
	DAX_EVENT("dax_pmd_fault_done", "dpmd", DAX_EV_PMD_FAULT, "PMD faults", "pmd_fault"),
	DAX_EVENT("dax_pte_fault_done", "dpte", DAX_EV_PTE_FAULT, "PTE faults", "pte_fault"),
	DAX_EVENT("dax_pmd_load_hole", "dpmdh", DAX_EV_PMD_LOAD_HOLE, "PMD holes", "pmd_load_hole"),
	DAX_EVENT("dax_pmd_load_hole_fallback", "dpmhf", DAX_EV_PMD_LOAD_HOLE_FALLBACK,
		  "PMD hole fallbacks", "pmd_load_hole_fallback"),
	DAX_EVENT("dax_load_hole", "dpteh", DAX_EV_PTE_LOAD_HOLE, "PTE holes", "pte_load_hole"),
	DAX_EVENT("dax_insert_pfn_mkwrite", "dmkw", DAX_EV_MKWRITE, "mkwrite", "mkwrite"),
	DAX_EVENT("dax_insert_pfn_mkwrite_no_entry", "dmkwn", DAX_EV_MKWRITE_NO_ENTRY,
		  "mkwrite without entry", "mkwrite_no_entry"),
	DAX_EVENT("dax_pmd_fault", "dpmds", EV_DAX_START, NULL, NULL),
	DAX_EVENT("dax_pte_fault", "dptes", EV_DAX_START, NULL, NULL),
};
#define FAULTS_NR_EVENTS (sizeof(fault_events) / sizeof(fault_events[0]))

struct faults_state {
	FAMILY_BASE;
	struct faults_bpf *skel;
	bool present[FAULTS_NR_EVENTS];    /* attached */
	bool dax_traced;                   /* a DAX fault can happen here, so
					    * the fs_dax events are hooked */
	char dax_why[128];                 /* what can fault, or why none can */
	/* filled by read_at_end and collect */
	struct faults_counters sum;
	uint32_t tgids[IODIG_MAX_TGIDS];
};

static struct bpf_program *event_prog(struct faults_bpf *skel, size_t ev, size_t mech)
{
	char name[64];

	snprintf(name, sizeof(name), "iodig_%s_%s", fault_events[ev].stem, mech_suffix[mech]);
	return bpf_object__find_program_by_name(skel->obj, name);
}

/*
 * Does this kernel have the event?  tracefs says so for every mechanism;
 * without tracefs, tp_btf and raw_tp can still be had when the kernel's
 * BTF has the tracepoint's prototype (probes/tp_layout.h).
 */
static bool event_exists(struct faults_state *s, size_t ev, bool classic)
{
	int err = tracefs_event_exists(fault_events[ev].category, fault_events[ev].event);

	if (err != -ENODEV || classic)
		return err == 0;
	return tp_proto(family_btf(s), fault_events[ev].event) != NULL;
}

static int faults_load(void *state, size_t mech, struct errbuf *why)
{
	struct faults_state *s = state;
	bool classic = !strcmp(faults_mechs[mech], MECH_TRACEPOINT);
	size_t nr_present = 0;
	int err;

	s->dax_traced = fs_dax_possible(s->env->sys_root, s->dax_why, sizeof(s->dax_why));
	for (size_t ev = 0; ev < FAULTS_NR_EVENTS; ev++) {
		bool dax = fault_events[ev].dax != EV_PAGE_FAULT;

		s->present[ev] = (!dax || s->dax_traced) && event_exists(s, ev, classic);
		nr_present += s->present[ev];
	}
	if (!nr_present) {
		const char *no_tracefs =
			tracefs_event_exists("exceptions", "page_fault_user") == -ENODEV
			? " (tracefs not mounted)" : "";

		if (!s->dax_traced)
			return err_set(why, ENOENT, "no exceptions:page_fault_user%s, and DAX "
				       "faults not traced: %s", no_tracefs, s->dax_why);
		return err_set(why, ENOENT, "neither exceptions:page_fault_user nor any "
			       "fs_dax tracepoint found%s", no_tracefs);
	}
	err = FAMILY_OPEN(s, faults);
	if (err)
		return err;
	for (size_t ev = 0; ev < FAULTS_NR_EVENTS; ev++)
		for (size_t m = 0; m < FAULTS_NR_MECHS; m++)
			bpf_program__set_autoload(event_prog(s->skel, ev, m),
						  m == mech && s->present[ev]);
	return family_load(s, why);
}

static void missing_list(const struct faults_state *s, bool dax, char *buf, size_t size)
{
	buf[0] = '\0';
	for (size_t ev = 0; ev < FAULTS_NR_EVENTS; ev++) {
		size_t used = strlen(buf);

		if (s->present[ev] || (fault_events[ev].dax != EV_PAGE_FAULT) != dax ||
		    (dax && !s->dax_traced))
			continue;
		snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
			 fault_events[ev].event);
	}
}

/* Without the page-fault hook the family only sees DAX: say so.  DAX
 * left untraced because none can fault here loses nothing, but the
 * status says it, as the report does. */
static void faults_note_status(void *state, int err, struct probe_status *st)
{
	const struct faults_state *s = state;

	if (err)
		return;
	if (!s->dax_traced)
		mech_reason_add(st->reason, sizeof(st->reason), "DAX faults not traced: %s",
				s->dax_why);
	if (s->present[0])
		return;
	mech_reason_add(st->reason, sizeof(st->reason),
			"no exceptions:page_fault_user (not x86?): DAX events only");
	st->state = PROBE_DEGRADED;
}

/*
 * Read when the workload ends.  Other families' collect() (symbolizing
 * stacks, allocating tables) runs in iodig's own process, and its page
 * faults are not the workload's.
 */
static int faults_read_at_end(void *state)
{
	struct faults_state *s = state;

	return map_sum_counters(s->skel->maps.counters, &s->sum, sizeof(s->sum));
}

static int faults_collect(void *state, uint64_t workload_ios)
{
	struct faults_state *s = state;

	(void)workload_ios;
	for (int i = 0; i < IODIG_MAX_TGIDS; i++)
		s->tgids[i] = s->filter_tgids[i];
	return 0;
}

static uint64_t user_faults(const struct faults_state *s)
{
	uint64_t n = 0;

	for (int i = 0; i < IODIG_MAX_TGIDS; i++)
		n += s->sum.user[i];
	return n;
}

static uint64_t dax_event_total(const struct faults_state *s, int dax)
{
	uint64_t n = 0;

	for (int r = 0; r < DAX_RES_NR; r++)
		n += s->sum.dax[dax][r];
	return n;
}

static bool dax_present(const struct faults_state *s)
{
	for (size_t ev = 1; ev < FAULTS_NR_EVENTS; ev++)
		if (s->present[ev])
			return true;
	return false;
}

static uint64_t dax_total(const struct faults_state *s)
{
	uint64_t n = 0;

	for (int d = 0; d < DAX_EV_NR; d++)
		n += dax_event_total(s, d);
	return n;
}

/* The handler's time, all results or those of @res (-1: all): the
 * number timed and their sum. */
static uint64_t dax_timed(const struct faults_state *s, int d, int res, uint64_t *ns)
{
	uint64_t n = 0;

	*ns = 0;
	for (int r = 0; r < DAX_RES_NR; r++) {
		if (res >= 0 && r != res)
			continue;
		n += s->sum.dax_timed[d][r];
		*ns += s->sum.dax_ns[d][r];
	}
	return n;
}

/* How the reports name a DAX fault's result. */
static const char *const result_keys[DAX_RES_NR] = {
	[DAX_RES_NOPAGE] = "mapped",
	[DAX_RES_FALLBACK] = "fallback",
	[DAX_RES_ERROR] = "error",
	[DAX_RES_OTHER] = "other",
};

/* ", time per fault: mapped 12.3 us, fallback 4.5 us" */
static void dax_time_text(const struct faults_state *s, int d, FILE *out)
{
	const char *sep = ", time per fault: ";

	for (int r = 0; r < DAX_RES_NR; r++) {
		uint64_t ns, n = dax_timed(s, d, r, &ns);

		if (!n)
			continue;
		fprintf(out, "%s%s %.2f us", sep, result_keys[r], (double)ns / (double)n / 1e3);
		sep = ", ";
	}
}

static void text_dax(const struct faults_state *s, FILE *out)
{
	bool first = true;

	if (!s->dax_traced) {
		fprintf(out, "    DAX faults: not traced: %s\n", s->dax_why);
		return;
	}
	if (!dax_present(s)) {
		fprintf(out, "    DAX faults: not traced: this kernel has no fs_dax "
			     "tracepoints\n");
		return;
	}
	if (!dax_total(s)) {
		fprintf(out, "    DAX: no DAX mapping seen\n");
		return;
	}
	for (size_t ev = 1; ev < FAULTS_NR_EVENTS; ev++) {
		int d = fault_events[ev].dax;
		uint64_t n = d >= 0 ? dax_event_total(s, d) : 0;

		if (!n)
			continue;
		fprintf(out, "%s%s=%llu", first ? "    DAX: " : "; ", fault_events[ev].label,
			(unsigned long long)n);
		first = false;
		/* Results matter for the two fault handlers; holes have none. */
		if (d != DAX_EV_PMD_FAULT && d != DAX_EV_PTE_FAULT)
			continue;
		fprintf(out, " (mapped=%llu, fallback=%llu, error=%llu, other=%llu)",
			(unsigned long long)s->sum.dax[d][DAX_RES_NOPAGE],
			(unsigned long long)s->sum.dax[d][DAX_RES_FALLBACK],
			(unsigned long long)s->sum.dax[d][DAX_RES_ERROR],
			(unsigned long long)s->sum.dax[d][DAX_RES_OTHER]);
		if (d < DAX_TIMED_NR)
			dax_time_text(s, d, out);
	}
	fputc('\n', out);
}

static void faults_render_text(const void *state, FILE *out)
{
	const struct faults_state *s = state;
	uint64_t n;
	char missing[512];

	if (!s)
		return;
	fprintf(out, "  faults: mechanism=%s\n", s->mechanism);
	if (s->present[0]) {
		n = user_faults(s);
		fprintf(out, "    user page faults=%llu (", (unsigned long long)n);
		if (s->wl.ios)
			fprintf(out, "%.3f per I/O", (double)n / (double)s->wl.ios);
		else
			fprintf(out, "per I/O n/a");
		fprintf(out, "): write=%llu, instruction=%llu, protection=%llu",
			(unsigned long long)s->sum.write, (unsigned long long)s->sum.instr,
			(unsigned long long)s->sum.prot);
		if (s->have_wl)
			fprintf(out, "; workload rusage minf=%llu, majf=%llu",
				(unsigned long long)s->wl.minf, (unsigned long long)s->wl.majf);
		fputc('\n', out);
	}
	text_dax(s, out);
	missing_list(s, true, missing, sizeof(missing));
	if (dax_present(s) && missing[0])
		fprintf(out, "    fs_dax tracepoints not in this kernel: %s\n", missing);
	family_drops_text(s, out);
}

/* {"mapped": {"timed": N, "avg_ns": X}, ...} of the results timed */
static struct json_object *json_dax_time(const struct faults_state *s, int d)
{
	struct json_object *o = json_object_new_object();

	for (int r = 0; r < DAX_RES_NR; r++) {
		uint64_t ns, n = dax_timed(s, d, r, &ns);
		struct json_object *t;

		if (!n)
			continue;
		t = json_object_new_object();
		json_object_object_add(t, "timed", json_u64(n));
		json_object_object_add(t, "avg_ns", json_object_new_double((double)ns / (double)n));
		json_object_object_add(o, result_keys[r], t);
	}
	return o;
}

/*
 * {"traced": true, "seen": ..., "events": {...}, "missing_tracepoints": [...]}
 * or, where no fs_dax event was hooked, {"traced": false, "reason": "..."}
 * without counts: "not traced" is never read as zero faults.
 */
static struct json_object *json_dax(const struct faults_state *s)
{
	struct json_object *o = json_object_new_object();
	struct json_object *events, *missing;
	bool traced = s->dax_traced && dax_present(s);

	json_object_object_add(o, "traced", json_object_new_boolean(traced));
	if (!s->dax_traced) {
		json_object_object_add(o, "reason", json_object_new_string(s->dax_why));
		return o;
	}
	missing = json_object_new_array();
	for (size_t ev = 1; ev < FAULTS_NR_EVENTS; ev++)
		if (!s->present[ev])
			json_object_array_add(missing,
					      json_object_new_string(fault_events[ev].event));
	json_object_object_add(o, "missing_tracepoints", missing);
	if (!traced) {
		json_object_object_add(o, "reason", json_object_new_string(
			"this kernel has no fs_dax tracepoints"));
		return o;
	}
	events = json_object_new_object();
	json_object_object_add(o, "seen", json_object_new_boolean(dax_total(s) > 0));
	for (size_t ev = 1; ev < FAULTS_NR_EVENTS; ev++) {
		int d = fault_events[ev].dax;
		struct json_object *e;

		if (!s->present[ev] || d < 0)
			continue;
		e = json_object_new_object();
		json_object_object_add(e, "total", json_u64(dax_event_total(s, d)));
		for (int r = 0; r < DAX_RES_NR; r++)
			json_object_object_add(e, result_keys[r], json_u64(s->sum.dax[d][r]));
		if (d < DAX_TIMED_NR)
			json_object_object_add(e, "time", json_dax_time(s, d));
		json_object_object_add(events, fault_events[ev].key, e);
	}
	json_object_object_add(o, "events", events);
	return o;
}

static void faults_render_json(const void *state, struct json_object *kernel)
{
	const struct faults_state *s = state;
	struct json_object *o, *procs;
	uint64_t n;

	if (!s || !kernel)
		return;
	n = user_faults(s);
	o = json_object_new_object();
	procs = json_object_new_array();
	json_object_object_add(o, "mechanism", json_object_new_string(s->mechanism));
	json_object_object_add(o, "page_fault_user", json_object_new_boolean(s->present[0]));
	json_object_object_add(o, "user_faults", json_u64(n));
	json_object_object_add(o, "per_io", json_object_new_double(
		s->wl.ios ? (double)n / (double)s->wl.ios : 0.0));
	json_object_object_add(o, "write", json_u64(s->sum.write));
	json_object_object_add(o, "instruction", json_u64(s->sum.instr));
	json_object_object_add(o, "protection", json_u64(s->sum.prot));
	for (int i = 0; i < IODIG_MAX_TGIDS && s->tgids[i]; i++) {
		struct json_object *p = json_object_new_object();

		json_object_object_add(p, "tgid", json_object_new_int((int)s->tgids[i]));
		json_object_object_add(p, "user_faults", json_u64(s->sum.user[i]));
		json_object_array_add(procs, p);
	}
	json_object_object_add(o, "per_process", procs);
	if (s->have_wl) {
		json_object_object_add(o, "workload_minf", json_u64(s->wl.minf));
		json_object_object_add(o, "workload_majf", json_u64(s->wl.majf));
	}
	json_object_object_add(o, "dax", json_dax(s));
	json_object_object_add(o, "drops", family_drops_json(s));
	json_object_object_add(kernel, probe_json_name(&faults_probe), o);
}

/* What the family lost is only program runs the kernel skipped
 * (recursion), which the base counts. */
/* Figures: the workload's user page faults per I/O; where DAX faults
 * were seen, how they mapped (the mean size mapped, PMD and PTE faults
 * per I/O) and the time per mapped fault of each handler. */
static const struct figure_def faults_per_io_figure =
	FIGURE_KERNEL_DEF("kernel.faults_per_io", "user faults per I/O", FIGURE_LOWER, 20);
#define DAX_FIGURE(key, label, better) FIGURE_KERNEL_DEF("kernel." key, (label), (better), 21)
static const struct figure_def dax_map_kib_figure =
	DAX_FIGURE("dax_mapped_kib_per_fault", "DAX mapping size, KiB per mapped fault",
		   FIGURE_NO_DIRECTION);
static const struct figure_def dax_per_io_figures[] = {
	DAX_FIGURE("dax_pmd_mapped_per_io", "DAX PMD (2 MiB) mappings per I/O", FIGURE_NO_DIRECTION),
	DAX_FIGURE("dax_pmd_fallbacks_per_io", "DAX PMD fallbacks per I/O", FIGURE_LOWER),
	DAX_FIGURE("dax_pte_faults_per_io", "DAX PTE (4 KiB) faults per I/O", FIGURE_LOWER),
};
static const struct figure_def dax_time_figures[DAX_TIMED_NR] = {
	[DAX_EV_PMD_FAULT] = DAX_FIGURE("dax_pmd_fault_ns", "DAX PMD fault time, ns per mapped fault",
					FIGURE_LOWER),
	[DAX_EV_PTE_FAULT] = DAX_FIGURE("dax_pte_fault_ns", "DAX PTE fault time, ns per mapped fault",
					FIGURE_LOWER),
};

static void dax_figures(const struct faults_state *s, uint64_t ios, struct figure_set *out)
{
	uint64_t pmd = s->sum.dax[DAX_EV_PMD_FAULT][DAX_RES_NOPAGE];
	uint64_t pte = s->sum.dax[DAX_EV_PTE_FAULT][DAX_RES_NOPAGE];
	/* in dax_per_io_figures order */
	double per_io[] = { (double)pmd, (double)s->sum.dax[DAX_EV_PMD_FAULT][DAX_RES_FALLBACK],
			    (double)dax_event_total(s, DAX_EV_PTE_FAULT) };

	_Static_assert(sizeof(per_io) / sizeof(per_io[0]) ==
		       sizeof(dax_per_io_figures) / sizeof(dax_per_io_figures[0]),
		       "one value per DAX per-I/O figure");
	if (!dax_total(s))
		return;
	/* 2 MiB per PMD mapping, 4 KiB per PTE one */
	figure_put(out, &dax_map_kib_figure,
		   figure_ratio(2048.0 * (double)pmd + 4.0 * (double)pte, (double)(pmd + pte)));
	for (size_t i = 0; i < sizeof(per_io) / sizeof(per_io[0]); i++)
		figure_put(out, &dax_per_io_figures[i], figure_ratio(per_io[i], (double)ios));
	for (int d = 0; d < DAX_TIMED_NR; d++) {
		uint64_t ns, n = dax_timed(s, d, DAX_RES_NOPAGE, &ns);

		if (n)
			figure_put(out, &dax_time_figures[d], (double)ns / (double)n);
	}
}

static void faults_figures(const void *state, const struct probe_workload *wl,
			   struct figure_set *out)
{
	const struct faults_state *s = state;

	if (!s)
		return;
	figure_put(out, &faults_per_io_figure,
		   figure_ratio((double)user_faults(s), (double)wl->ios));
	dax_figures(s, wl->ios, out);
}

FAMILY_DEFINE(faults, faults,
	      "the workload's user page faults, and how DAX faults were served",
	      FAMILY_HOOKS(faults, note_status, read_at_end, figures));
