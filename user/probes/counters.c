// SPDX-License-Identifier: GPL-2.0
/*
 * counters probe family: the kernel's event counters of the workload, as
 * `perf stat` counts them, per I/O.  No BPF: each worker thread opens its
 * counters on itself with perf_event_open (workload/counters.h), counting
 * over the window of its getrusage, so the two agree and the per-I/O
 * figures divide by the I/Os of that window.  A family all the same, so
 * that --probes turns it on and off, `iodig probe` says which counters
 * this machine has and why the others are missing, and its figures reach
 * the report, the trace file and `iodig diff` through the figures model.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "probes/family.h"
#include "probes/family_render.h"
#include "probes/figures.h"
#include "probes/probe.h"
#include "probes/selection.h"
#include "workload/counters.h"

#define MECH_PERF_EVENT "perf_event"

static const char *const counters_mechs[] = { MECH_PERF_EVENT };

/* Per I/O, under perf's names; task-clock in ns.  The key's middle is
 * counter_key()'s. */
#define COUNTER_FIGURE(id, key, name)						\
	[id] = FIGURE_KERNEL_DEF("kernel.counters." key "_per_io", "perf " name " per I/O", \
				 FIGURE_LOWER, 25)
static const struct figure_def counter_figures[CTR_NR] = {
	COUNTER_FIGURE(CTR_TASK_CLOCK, "task_clock_ns", "task-clock ns"),
	COUNTER_FIGURE(CTR_CONTEXT_SWITCHES, "context_switches", "context-switches"),
	COUNTER_FIGURE(CTR_CPU_MIGRATIONS, "cpu_migrations", "cpu-migrations"),
	COUNTER_FIGURE(CTR_PAGE_FAULTS, "page_faults", "page-faults"),
	COUNTER_FIGURE(CTR_MAJOR_FAULTS, "major_faults", "major-faults"),
	COUNTER_FIGURE(CTR_MINOR_FAULTS, "minor_faults", "minor-faults"),
	COUNTER_FIGURE(CTR_CYCLES_K, "cycles_k", "cycles:k"),
	COUNTER_FIGURE(CTR_INSTRUCTIONS_K, "instructions_k", "instructions:k"),
	COUNTER_FIGURE(CTR_CACHE_MISSES_K, "cache_misses_k", "cache-misses:k"),
	COUNTER_FIGURE(CTR_L1D_LOAD_MISSES, "l1d_load_misses", "L1-dcache-load-misses"),
};

struct counters_state {
	FAMILY_BASE;
	int32_t probe_err[CTR_NR];  /* load()'s trial open on itself */
};

/* Why a counter was not counted: one sentence, the errno's name in it. */
static void counter_why(enum counter_id id, int err, char *buf, size_t size)
{
	const char *name = strerrorname_np(-err);

	/* no PMU: the kernel has no hardware events of this type */
	if (counter_is_hardware(id) && (err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV))
		snprintf(buf, size, "no hardware PMU (perf_event_open: %s)", name ? name : "?");
	else
		snprintf(buf, size, "perf_event_open: %s (%s)", name ? name : "?", strerror(-err));
}

static int counters_load(void *state, size_t mech, struct errbuf *why)
{
	struct counters_state *s = state;
	int counted = 0;

	(void)mech;
	for (int i = 0; i < CTR_NR; i++) {
		int fd = counter_open_self((enum counter_id)i);

		s->probe_err[i] = fd < 0 ? fd : 0;
		if (fd >= 0) {
			close(fd);
			counted += !counter_is_hardware((enum counter_id)i);
		}
	}
	if (!counted)
		return err_set(why, -s->probe_err[CTR_TASK_CLOCK],
			       "no software counter can be opened (perf_event_open: %s)",
			       strerror(-s->probe_err[CTR_TASK_CLOCK]));
	return 0;
}

/* Calls @fn once per distinct reason among @err, with the counters it
 * stopped as a comma list. */
static void each_reason(const int32_t err[CTR_NR],
			void (*fn)(const char *names, const char *why, void *arg), void *arg)
{
	bool done[CTR_NR] = { false };

	for (int i = 0; i < CTR_NR; i++) {
		char names[256] = "", why[128];

		if (!err[i] || done[i])
			continue;
		counter_why((enum counter_id)i, err[i], why, sizeof(why));
		for (int k = i; k < CTR_NR; k++) {
			char other[128];
			size_t used = strlen(names);

			if (!err[k] || done[k])
				continue;
			counter_why((enum counter_id)k, err[k], other, sizeof(other));
			if (strcmp(other, why))
				continue;
			snprintf(names + used, sizeof(names) - used, "%s%s", used ? ", " : "",
				 counter_name((enum counter_id)k));
			done[k] = true;
		}
		fn(names, why, arg);
	}
}

static void add_reason(const char *names, const char *why, void *arg)
{
	struct probe_status *st = arg;

	mech_reason_add(st->reason, sizeof(st->reason), "%s: %s", names, why);
}

static void counters_note_status(void *state, int err, struct probe_status *st)
{
	const struct counters_state *s = state;

	if (!err)
		each_reason(s->probe_err, add_reason, st);
}

static int counters_collect(void *state, uint64_t workload_ios)
{
	(void)state;
	(void)workload_ios;
	return 0;
}

static void text_reason(const char *names, const char *why, void *arg)
{
	fprintf(arg, "    not counted: %s: %s\n", names, why);
}

static void counters_render_text(const void *state, FILE *out)
{
	const struct counters_state *s = state;
	const struct counter_values *c = &s->wl.counters;
	int shown = 0;

	fprintf(out, "  counters: mechanism=%s, per worker thread (%u)\n", s->mechanism,
		c->workers);
	if (!c->workers) {
		fprintf(out, "    no worker counted (none reached its I/O)\n");
		return;
	}
	for (int i = 0; i < CTR_NR; i++) {
		double per_io = figure_ratio((double)c->v[i], (double)s->wl.ios);

		if (c->err[i])
			continue;
		fprintf(out, "%s%s=", shown++ % 3 ? ", " : "    ", counter_name((enum counter_id)i));
		if (i == CTR_TASK_CLOCK)
			fprintf(out, "%.3f ms (%.0f ns/IO)", (double)c->v[i] / 1e6, per_io);
		else
			fprintf(out, "%llu (%.4g/IO)", (unsigned long long)c->v[i], per_io);
		if (shown % 3 == 0)
			fputc('\n', out);
	}
	if (shown % 3)
		fputc('\n', out);
	each_reason(c->err, text_reason, out);
}

static void counters_render_json(const void *state, struct json_object *kernel)
{
	const struct counters_state *s = state;
	const struct counter_values *c = &s->wl.counters;
	struct json_object *o = json_object_new_object();
	struct json_object *events = json_object_new_object();
	struct json_object *missing = json_object_new_object();

	json_object_object_add(o, "mechanism", json_object_new_string(s->mechanism));
	json_object_object_add(o, "workers", json_object_new_int64(c->workers));
	for (int i = 0; c->workers && i < CTR_NR; i++) {
		struct json_object *e;

		if (c->err[i])
			continue;
		e = json_object_new_object();
		json_object_object_add(e, "value", json_u64(c->v[i]));
		json_object_object_add(e, "per_io", json_object_new_double(
			figure_ratio((double)c->v[i], (double)s->wl.ios)));
		if (i == CTR_TASK_CLOCK)
			json_object_object_add(e, "unit", json_object_new_string("ns"));
		json_object_object_add(events, counter_name((enum counter_id)i), e);
	}
	for (int i = 0; i < CTR_NR; i++) {
		int err = c->workers ? c->err[i] : s->probe_err[i];
		char why[128];

		if (!err)
			continue;
		counter_why((enum counter_id)i, err, why, sizeof(why));
		json_object_object_add(missing, counter_name((enum counter_id)i),
				       json_object_new_string(why));
	}
	json_object_object_add(o, "events", events);
	json_object_object_add(o, "not_counted", missing);
	json_object_object_add(kernel, probe_json_name(&counters_probe), o);
}

static void counters_figures(const void *state, const struct probe_workload *wl,
			     struct figure_set *out)
{
	const struct counters_state *s = state;
	const struct counter_values *c = &s->wl.counters;

	for (int i = 0; c->workers && i < CTR_NR; i++)
		if (!c->err[i])
			figure_put(out, &counter_figures[i],
				   figure_ratio((double)c->v[i], (double)wl->ios));
}

FAMILY_DEFINE(counters, counters,
	      "the workload's kernel event counters (perf_event_open) per I/O",
	      .stays_attached = true, .no_bpf = true,
	      FAMILY_HOOKS(counters, note_status, figures));
