// SPDX-License-Identifier: GPL-2.0
/* --probe-toggle: the phases' bookkeeping and figures (see toggle.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "probes/toggle.h"
#include "base/ttest.h"

bool toggle_traced(uint64_t index)
{
	return ((index + 1) / 2) % 2 == 0;
}

bool toggle_after_switch(uint64_t index)
{
	return index % 2 == 1;
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

static double phase_rate(const struct toggle_phase *p)
{
	return p->ios && p->ns ? (double)p->ios / (double)p->ns : 0;
}

static void check_summarize(const double *logs, size_t n, struct toggle_check *c,
			    struct sample_summary *sum)
{
	sample_summarize(logs, n, sum);
	c->n = n;
	c->ratio = n ? exp(sum->mean) : 0;
	if (n >= 2) {
		c->ci_lo = exp(sum->mean - sum->ci95_half);
		c->ci_hi = exp(sum->mean + sum->ci95_half);
	}
}

/* The settle check (see struct toggle_result): phases 3, 5, 7 ... against
 * the phase after each, when both were measured. */
static void after_switch_checks(const struct probe_toggle *t, double *att, double *det,
				struct toggle_result *r)
{
	struct sample_summary sa, sd;
	size_t na = 0, nd = 0;

	for (size_t i = 0; i + 1 < t->nr; i++) {
		const struct toggle_phase *a = &t->phases[i], *b = &t->phases[i + 1];

		if (!toggle_after_switch(a->index) || a->index < 3 ||
		    b->index != a->index + 1 || !phase_rate(a) || !phase_rate(b))
			continue;
		if (toggle_traced(a->index))
			att[na++] = log(phase_rate(a) / phase_rate(b));
		else
			det[nd++] = log(phase_rate(a) / phase_rate(b));
	}
	check_summarize(att, na, &r->after_attach, &sa);
	check_summarize(det, nd, &r->after_detach, &sd);
	if (na < 2 || nd < 2)
		return;
	r->bias = exp((sa.mean - sd.mean) / 2);
	r->bias_ci_lo = exp((sa.mean - sd.mean) / 2 -
			    sqrt(sa.ci95_half * sa.ci95_half + sd.ci95_half * sd.ci95_half) / 2);
	r->bias_ci_hi = exp((sa.mean - sd.mean) / 2 +
			    sqrt(sa.ci95_half * sa.ci95_half + sd.ci95_half * sd.ci95_half) / 2);
}

void toggle_result(const struct probe_toggle *t, struct toggle_result *r)
{
	size_t most = t->nr / 2 + 1;
	double *logs = calloc(5 * most, sizeof(*logs));
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
		rate_tr[r->pairs] = phase_rate(tr);
		rate_un[r->pairs] = phase_rate(un);
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
	if (logs)
		after_switch_checks(t, logs + 3 * most, logs + 4 * most, r);
	free(logs);
}

static void render_ratio_ci(double ratio, double lo, double hi, FILE *out)
{
	fprintf(out, "%.3f", ratio);
	if (hi > 0)
		fprintf(out, " (%.3f-%.3f)", lo, hi);
}

static void render_check_text(const struct toggle_result *r, FILE *out)
{
	if (!r->after_attach.n || !r->after_detach.n)
		return;
	fprintf(out, "    settle check, first phase after a switch / the next: after attach ");
	render_ratio_ci(r->after_attach.ratio, r->after_attach.ci_lo, r->after_attach.ci_hi, out);
	fprintf(out, ", after detach ");
	render_ratio_ci(r->after_detach.ratio, r->after_detach.ci_lo, r->after_detach.ci_hi, out);
	if (!r->bias) {
		fputc('\n', out);
		return;
	}
	fprintf(out, "; their weight on the ratio ");
	render_ratio_ci(r->bias, r->bias_ci_lo, r->bias_ci_hi, out);
	fputc('\n', out);
	if (r->bias_ci_hi < 1 || r->bias_ci_lo > 1)
		fprintf(out, "    switching still disturbs the phases after it: the ratio is off by "
			"about %.1f%%; try a longer --probe-toggle-settle\n",
			(r->bias - 1) * 100);
}

static struct json_object *json_ci(double lo, double hi)
{
	struct json_object *ci;

	if (hi <= 0)
		return NULL;
	ci = json_object_new_array();
	json_object_array_add(ci, json_object_new_double(lo));
	json_object_array_add(ci, json_object_new_double(hi));
	return ci;
}

static struct json_object *json_check(const struct toggle_check *c)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "n", json_object_new_int64((int64_t)c->n));
	json_object_object_add(o, "ratio", c->n ? json_object_new_double(c->ratio) : NULL);
	json_object_object_add(o, "ratio_ci95", json_ci(c->ci_lo, c->ci_hi));
	return o;
}

static struct json_object *json_after_switch(const struct toggle_result *r)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "attach", json_check(&r->after_attach));
	json_object_object_add(o, "detach", json_check(&r->after_detach));
	json_object_object_add(o, "bias", r->bias ? json_object_new_double(r->bias) : NULL);
	json_object_object_add(o, "bias_ci95", json_ci(r->bias_ci_lo, r->bias_ci_hi));
	return o;
}

void toggle_render_text(const struct probe_toggle *t, FILE *out)
{
	struct toggle_result r;

	if (!t->phase_ms)
		return;
	toggle_result(t, &r);
	fprintf(out, "  probe toggle: %u ms phases, traced and untraced in turn (T U U T ...), "
		"%u ms to settle after each switch", t->phase_ms, t->settle_ms);
	if (!r.pairs) {
		fprintf(out, ": no pair of phases measured (the run is shorter than %u ms?)\n",
			4 * t->phase_ms + 2 * t->settle_ms);
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
	render_check_text(&r, out);
	if (t->fixed[0])
		fprintf(out, "    stayed attached throughout (cannot detach): %s\n", t->fixed);
	if (t->switch_err)
		fprintf(out, "    toggling failed: %s; the ratio may mix traced and untraced time\n",
			strerror(-t->switch_err));
}

void toggle_render_json(const struct probe_toggle *t, struct json_object *iodig)
{
	struct json_object *o;
	struct toggle_result r;

	if (!t->phase_ms || !iodig)
		return;
	toggle_result(t, &r);
	o = json_object_new_object();
	json_object_object_add(o, "phase_ms", json_object_new_int((int)t->phase_ms));
	json_object_object_add(o, "settle_ms", json_object_new_int((int)t->settle_ms));
	json_object_object_add(o, "phases", json_object_new_int64((int64_t)t->nr));
	json_object_object_add(o, "pairs", json_object_new_int64((int64_t)r.pairs));
	json_object_object_add(o, "iops_traced", json_object_new_double(r.iops_traced));
	json_object_object_add(o, "iops_untraced", json_object_new_double(r.iops_untraced));
	json_object_object_add(o, "ratio", r.pairs ? json_object_new_double(r.ratio) : NULL);
	json_object_object_add(o, "ratio_ci95", json_ci(r.ci_lo, r.ci_hi));
	json_object_object_add(o, "ratio_of_medians", r.pairs ?
			       json_object_new_double(r.ratio_of_medians) : NULL);
	json_object_object_add(o, "after_switch", json_after_switch(&r));
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
