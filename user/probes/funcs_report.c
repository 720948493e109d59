// SPDX-License-Identifier: GPL-2.0
/*
 * funcs family report: one table row per traced function, joined into the
 * "Kernel" section, and the "funcs" object of the JSON report.  Times are
 * exact (entry to exit), so the heading names the mechanism.
 */
#include <json-c/json.h>
#include <string.h>

#include "probes/figures.h"
#include "probes/funcs_table.h"
#include "probes/family.h"
#include "probes/family_render.h"

static double per(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static const char *fmt_ns(double ns, char *buf, size_t size)
{
	if (ns < 10000.0)
		snprintf(buf, size, "%.0fns", ns);
	else if (ns < 10000000.0)
		snprintf(buf, size, "%.1fus", ns / 1000.0);
	else
		snprintf(buf, size, "%.2fms", ns / 1000000.0);
	return buf;
}

/* Name of result class @r for a function of @kind, NULL when the kind
 * never produces it. */
static const char *result_name(enum funcs_kind kind, int r)
{
	switch (r) {
	case FR_OK:
		return kind == FK_DAX ? "mapped" : "ok";
	case FR_SHORT:
		return kind == FK_PAGES_RET || kind == FK_IOV_BYTES ? "short" : NULL;
	case FR_EAGAIN:
		return kind == FK_IOU_ISSUE ? "punted" : "eagain";
	case FR_ERROR:
		return kind == FK_TAG ? "no_tag" : "error";
	case FR_FALLBACK:
		return kind == FK_DAX ? "fallback" : NULL;
	case FR_OTHER:
		return "other";
	}
	return NULL;
}

static const char *variant_name(enum funcs_kind kind, int v)
{
	static const char *const dax[FV_NR] = { "pte", "pmd", "pud" };
	static const char *const iou[FV_NR] = { "nowait", "blocking", NULL };

	if (kind == FK_DAX)
		return dax[v];
	if (kind == FK_IOU_ISSUE)
		return iou[v];
	return NULL;
}

static bool has_pages(enum funcs_kind kind)
{
	return kind != FK_PLAIN && kind != FK_TAG && kind != FK_DAX && kind != FK_IOU_ISSUE;
}

/* The workload time a function's total is compared with, and its name. */
static uint64_t share_base(const struct probe_workload *wl, enum funcs_share sh,
			   const char **what)
{
	if (sh == SHARE_SLAT && wl->slat_ns && !wl->sync_engine) {
		*what = "slat";
		return wl->slat_ns;
	}
	*what = "clat";
	return wl->clat_ns;
}

static void text_results(FILE *out, const struct funcs_slot_view *v)
{
	enum funcs_kind kind = v->def->kind;
	bool any = false;

	for (int r = 0; r < FR_NR; r++) {
		const char *n = result_name(kind, r);

		/* "ok" is the rest; name only the others. */
		if (!n || r == FR_OK || !v->c->res[r])
			continue;
		fprintf(out, "%s%s=%llu", any ? " " : "", n, (unsigned long long)v->c->res[r]);
		any = true;
	}
	for (int x = 0; x < FV_NR; x++) {
		const char *n = variant_name(kind, x);

		if (!n || !v->c->variant[x])
			continue;
		fprintf(out, "%s%s=%llu", any ? " " : "", n, (unsigned long long)v->c->variant[x]);
		any = true;
	}
	if (v->c->lost)
		fprintf(out, "%slost=%llu", any ? " " : "", (unsigned long long)v->c->lost);
	else if (!any)
		fprintf(out, "-");
}

static void text_hctx(FILE *out, const struct funcs_global *g)
{
	bool first = true;

	for (int q = 0; q < FUNCS_MAX_HCTX; q++) {
		char b[32];

		if (!g->hctx[q].calls)
			continue;
		fprintf(out, "%s q%d%s: %llu calls, %llu slept, avg %s",
			first ? "      tags by hw queue:" : ";", q,
			q == FUNCS_MAX_HCTX - 1 ? "+" : "",
			(unsigned long long)g->hctx[q].calls,
			(unsigned long long)g->hctx[q].slept,
			fmt_ns(per(g->hctx[q].ns_sum, g->hctx[q].calls), b, sizeof(b)));
		first = false;
	}
	if (!first)
		fputc('\n', out);
}

/* The name of the function in @slot, "?" for a slot not bound. */
static const char *slot_name(const void *state, uint32_t slot)
{
	struct funcs_slot_view v;

	return funcs_state_slot(state, slot, &v) ? v.kname : "?";
}

/* The first stack found full: after it, that task's calls went untimed. */
static void text_overflow(const void *state, FILE *out, const struct funcs_overflow *o)
{
	char age[32];

	fprintf(out, "    first full stack: task %.16s (tid %u), outermost first:", o->comm,
		o->tid);
	for (int i = 0; i < FUNCS_MAX_DEPTH; i++)
		fprintf(out, "%s %s (entered %s before)", i ? "," : "", slot_name(state, o->slot[i]),
			fmt_ns((double)(o->ts - o->entered[i]), age, sizeof(age)));
	fputc('\n', out);
}

static struct json_object *json_overflow(const void *state, const struct funcs_overflow *o)
{
	struct json_object *j = json_object_new_object(), *frames = json_object_new_array();

	json_object_object_add(j, "task", json_object_new_string_len(o->comm,
								     (int)strnlen(o->comm, sizeof(o->comm))));
	json_object_object_add(j, "tid", json_object_new_int64(o->tid));
	for (int i = 0; i < FUNCS_MAX_DEPTH; i++) {
		struct json_object *f = json_object_new_object();

		json_object_object_add(f, "function",
				       json_object_new_string(slot_name(state, o->slot[i])));
		json_object_object_add(f, "entered_ns_before", json_u64(o->ts - o->entered[i]));
		json_object_array_add(frames, f);
	}
	json_object_object_add(j, "frames", frames);
	return j;
}

void funcs_render_text(const void *state, FILE *out)
{
	struct funcs_info_view info;
	size_t n = funcs_state_slots(state);
	bool any = false;

	funcs_state_info(state, &info);
	if (!info.mechanism)
		return;
	fprintf(out, "  funcs (exact: %s): per function, entry to exit, the workload's "
		     "threads and its disk's completions\n", info.mechanism);
	fprintf(out, "    %-28s %9s %9s %8s %8s %8s %12s %7s  %s\n", "function", "calls/IO",
		"pages/call", "avg", "p50", "p99", "share", "slept", "results");
	for (size_t i = 0; i < n; i++) {
		struct funcs_slot_view v;
		char a[32], p50[32], p99[32], share[32], pages[16];
		const char *what;
		uint64_t base;

		if (!funcs_state_slot(state, i, &v) || !v.attached || !v.c->calls)
			continue;
		any = true;
		base = share_base(info.wl, v.def->share, &what);
		if (base)
			snprintf(share, sizeof(share), "%.1f%% %s",
				 100.0 * per(v.c->ns_sum, base), what);
		else
			snprintf(share, sizeof(share), "n/a");
		if (has_pages(v.def->kind))
			snprintf(pages, sizeof(pages), "%.2f", per(v.c->pages, v.c->calls));
		else
			snprintf(pages, sizeof(pages), "-");
		fprintf(out, "    %-28s %9.3f %9s %8s %8s %8s %12s %7llu  ", v.kname,
			per(v.c->calls, info.wl->ios), pages,
			fmt_ns(per(v.c->ns_sum, v.c->calls), a, sizeof(a)),
			fmt_ns((double)hist_percentile(v.h, 50.0), p50, sizeof(p50)),
			fmt_ns((double)hist_percentile(v.h, 99.0), p99, sizeof(p99)),
			share, (unsigned long long)v.c->slept);
		text_results(out, &v);
		fputc('\n', out);
		if (v.def->kind == FK_TAG)
			text_hctx(out, info.g);
	}
	if (!any)
		fprintf(out, "    no calls of the traced functions seen\n");
	if (info.absent && info.absent[0])
		fprintf(out, "    not in this kernel: %s\n", info.absent);
	if (info.failed && info.failed[0])
		fprintf(out, "    would not attach: %s\n", info.failed);
	family_drops_text(state, out);
	if (info.overflow)
		text_overflow(state, out, info.overflow);
}

static struct json_object *json_function(const struct funcs_slot_view *v,
					 const struct probe_workload *wl)
{
	struct json_object *o = json_object_new_object();
	struct json_object *res = json_object_new_object();
	const char *what;
	uint64_t base = share_base(wl, v->def->share, &what);

	json_object_object_add(o, "kernel_name", json_object_new_string(v->kname));
	json_object_object_add(o, "group",
			       json_object_new_string(funcs_group_names[v->def->group]));
	json_object_object_add(o, "calls", json_u64(v->c->calls));
	json_object_object_add(o, "calls_per_io",
			       json_object_new_double(per(v->c->calls, wl->ios)));
	if (has_pages(v->def->kind)) {
		json_object_object_add(o, "pages", json_u64(v->c->pages));
		json_object_object_add(o, "pages_per_call",
				       json_object_new_double(per(v->c->pages, v->c->calls)));
	}
	json_object_object_add(o, "total_ns", json_u64(v->c->ns_sum));
	json_object_object_add(o, "mean_ns",
			       json_object_new_double(per(v->c->ns_sum, v->c->calls)));
	json_object_object_add(o, "p50_ns", json_u64(hist_percentile(v->h, 50.0)));
	json_object_object_add(o, "p90_ns", json_u64(hist_percentile(v->h, 90.0)));
	json_object_object_add(o, "p99_ns", json_u64(hist_percentile(v->h, 99.0)));
	json_object_object_add(o, "max_ns", json_u64(v->c->ns_max));
	json_object_object_add(o, "share", json_object_new_double(per(v->c->ns_sum, base)));
	json_object_object_add(o, "share_of", json_object_new_string(what));
	json_object_object_add(o, "slept", json_u64(v->c->slept));
	json_object_object_add(o, "preempted", json_u64(v->c->preempted));
	for (int r = 0; r < FR_NR; r++) {
		const char *n = result_name(v->def->kind, r);

		if (n)
			json_object_object_add(res, n, json_u64(v->c->res[r]));
	}
	json_object_object_add(o, "results", res);
	if (variant_name(v->def->kind, 0)) {
		struct json_object *var = json_object_new_object();

		for (int x = 0; x < FV_NR; x++)
			if (variant_name(v->def->kind, x))
				json_object_object_add(var, variant_name(v->def->kind, x),
						       json_u64(v->c->variant[x]));
		json_object_object_add(o, v->def->kind == FK_DAX ? "sizes" : "modes", var);
	}
	json_object_object_add(o, "lost", json_u64(v->c->lost));
	return o;
}

static struct json_object *json_list(const char *csv)
{
	struct json_object *a = json_object_new_array();
	const char *p = csv;

	while (p && *p) {
		size_t len = strcspn(p, ",");

		json_object_array_add(a, json_object_new_string_len(p, (int)len));
		p += len;
		while (*p == ',' || *p == ' ')
			p++;
	}
	return a;
}

void funcs_render_json(const void *state, struct json_object *kernel)
{
	struct json_object *o, *fns, *hctx;
	struct funcs_info_view info;
	size_t n = funcs_state_slots(state);

	funcs_state_info(state, &info);
	if (!info.mechanism || !kernel)
		return;
	o = json_object_new_object();
	fns = json_object_new_object();
	hctx = json_object_new_array();
	json_object_object_add(o, "mechanism", json_object_new_string(info.mechanism));
	json_object_object_add(o, "exact", json_object_new_boolean(true));
	for (size_t i = 0; i < n; i++) {
		struct funcs_slot_view v;

		if (funcs_state_slot(state, i, &v) && v.attached)
			json_object_object_add(fns, v.def->role, json_function(&v, info.wl));
	}
	json_object_object_add(o, "functions", fns);
	for (int q = 0; q < FUNCS_MAX_HCTX; q++) {
		struct json_object *h;

		if (!info.g->hctx[q].calls)
			continue;
		h = json_object_new_object();
		json_object_object_add(h, "queue", json_object_new_int(q));
		json_object_object_add(h, "calls", json_u64(info.g->hctx[q].calls));
		json_object_object_add(h, "slept", json_u64(info.g->hctx[q].slept));
		json_object_object_add(h, "total_ns", json_u64(info.g->hctx[q].ns_sum));
		json_object_array_add(hctx, h);
	}
	json_object_object_add(o, "tags_by_hw_queue", hctx);
	json_object_object_add(o, "absent", json_list(info.absent));
	json_object_object_add(o, "failed", json_list(info.failed));
	json_object_object_add(o, "drops", family_drops_json(state));
	if (info.overflow)
		json_object_object_add(o, "first_full_stack", json_overflow(state, info.overflow));
	json_object_object_add(kernel, probe_json_name(&funcs_probe), o);
}

/* Figures: each timed function's calls and entry-to-exit time per I/O,
 * by role, so a function renamed between kernels stays one row. */
static const struct figure_def funcs_fn_figures[2] =
	FIGURE_FUNCTION_PER_IO_DEFS("exact", "exact", "calls/IO", "time/IO", 5);

void funcs_figures(const void *state, const struct probe_workload *wl,
			  struct figure_set *out)
{
	struct funcs_slot_view v;

	for (size_t i = 0; i < funcs_state_slots(state); i++)
		if (funcs_state_slot(state, i, &v) && v.attached && v.c->calls)
			figure_put_fn_per_io(out, funcs_fn_figures, v.def->role, v.c->calls,
					     v.c->ns_sum, wl->ios);
}
