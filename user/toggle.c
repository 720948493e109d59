// SPDX-License-Identifier: GPL-2.0
/* --probe-toggle: the phases' bookkeeping and figures (see toggle.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "toggle.h"
#include "ttest.h"

bool toggle_traced(uint64_t index)
{
	return ((index + 1) / 2) % 2 == 0;
}

int toggle_record(struct probe_toggle *t, uint64_t index, uint64_t ios, uint64_t ns)
{
	if (t->nr == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 256;
		struct toggle_phase *p = realloc(t->phases, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		t->phases = p;
		t->cap = cap;
	}
	t->phases[t->nr++] = (struct toggle_phase){ .index = index, .ios = ios, .ns = ns };
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void toggle_result(const struct probe_toggle *t, struct toggle_result *r)
{
	size_t most = t->nr / 2 + 1;
	double *logs = calloc(3 * most, sizeof(*logs));
	double *rate_tr = logs + most, *rate_un = logs + 2 * most;
	uint64_t ios[2] = { 0, 0 }, ns[2] = { 0, 0 };
	struct sample_summary sum;

	*r = (struct toggle_result){ 0 };
	for (size_t i = 0; logs && i + 1 < t->nr; i++) {
		const struct toggle_phase *a = &t->phases[i], *b = &t->phases[i + 1];
		const struct toggle_phase *tr, *un;

		if (a->index % 2 || b->index != a->index + 1 || a->index < 2)
			continue;
		tr = toggle_traced(a->index) ? a : b;
		un = tr == a ? b : a;
		if (!tr->ios || !un->ios || !tr->ns || !un->ns)
			continue;
		rate_tr[r->pairs] = (double)tr->ios / (double)tr->ns;
		rate_un[r->pairs] = (double)un->ios / (double)un->ns;
		logs[r->pairs] = log(rate_tr[r->pairs] / rate_un[r->pairs]);
		r->pairs++;
		ios[0] += tr->ios;
		ns[0] += tr->ns;
		ios[1] += un->ios;
		ns[1] += un->ns;
	}
	if (r->pairs) {
		sample_summarize(logs, r->pairs, &sum);
		r->iops_traced = (double)ios[0] * 1e9 / (double)ns[0];
		r->iops_untraced = (double)ios[1] * 1e9 / (double)ns[1];
		r->ratio = exp(sum.mean);
		r->ratio_of_medians = median(rate_tr, r->pairs) / median(rate_un, r->pairs);
		if (r->pairs >= 2) {
			r->ci_lo = exp(sum.mean - sum.ci95_half);
			r->ci_hi = exp(sum.mean + sum.ci95_half);
		}
	}
	free(logs);
}

void toggle_render_text(const struct probe_toggle *t, FILE *out)
{
	struct toggle_result r;

	if (!t->phase_ms)
		return;
	toggle_result(t, &r);
	fprintf(out, "  probe toggle: %u ms phases, traced and untraced in turn (T U U T ...)",
		t->phase_ms);
	if (!r.pairs) {
		fprintf(out, ": no pair of phases measured (the run is shorter than %u ms?)\n",
			4 * t->phase_ms);
		return;
	}
	fprintf(out, ", %zu pairs\n", r.pairs);
	fprintf(out, "    IOPS traced %.0f, untraced %.0f: ratio %.3f", r.iops_traced,
		r.iops_untraced, r.ratio);
	if (r.ci_hi > 0)
		fprintf(out, " (95%% CI %.3f-%.3f)", r.ci_lo, r.ci_hi);
	fprintf(out, ", of medians %.3f", r.ratio_of_medians);
	fprintf(out, "\n    switching took %.2f ms on average, outside the phases; the kernel "
		"figures above cover the traced phases only\n",
		t->switches ? (double)t->switch_ns / 1e6 / (double)t->switches : 0.0);
	if (t->fixed[0])
		fprintf(out, "    stayed attached throughout (cannot detach): %s\n", t->fixed);
	if (t->switch_err)
		fprintf(out, "    toggling failed: %s; the ratio may mix traced and untraced time\n",
			strerror(-t->switch_err));
}

void toggle_render_json(const struct probe_toggle *t, struct json_object *iodig)
{
	struct json_object *o, *ci;
	struct toggle_result r;

	if (!t->phase_ms || !iodig)
		return;
	toggle_result(t, &r);
	o = json_object_new_object();
	json_object_object_add(o, "phase_ms", json_object_new_int((int)t->phase_ms));
	json_object_object_add(o, "phases", json_object_new_int64((int64_t)t->nr));
	json_object_object_add(o, "pairs", json_object_new_int64((int64_t)r.pairs));
	json_object_object_add(o, "iops_traced", json_object_new_double(r.iops_traced));
	json_object_object_add(o, "iops_untraced", json_object_new_double(r.iops_untraced));
	json_object_object_add(o, "ratio", r.pairs ? json_object_new_double(r.ratio) : NULL);
	ci = NULL;
	if (r.ci_hi > 0) {
		ci = json_object_new_array();
		json_object_array_add(ci, json_object_new_double(r.ci_lo));
		json_object_array_add(ci, json_object_new_double(r.ci_hi));
	}
	json_object_object_add(o, "ratio_ci95", ci);
	json_object_object_add(o, "ratio_of_medians", r.pairs ?
			       json_object_new_double(r.ratio_of_medians) : NULL);
	json_object_object_add(o, "switches", json_object_new_int64((int64_t)t->switches));
	json_object_object_add(o, "switch_ns", json_object_new_int64((int64_t)t->switch_ns));
	json_object_object_add(o, "always_attached", json_object_new_string(t->fixed));
	json_object_object_add(o, "switch_error", t->switch_err ?
			       json_object_new_string(strerror(-t->switch_err)) : NULL);
	json_object_object_add(iodig, "probe_toggle", o);
}

void toggle_free(struct probe_toggle *t)
{
	free(t->phases);
	t->phases = NULL;
	t->nr = t->cap = 0;
}
