// SPDX-License-Identifier: GPL-2.0
/* --probe-toggle's bookkeeping: the T U U T order, which phases pair up,
 * and the ratio and its interval from known phase rates. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "tests/lib/check.h"
#include "probes/toggle.h"

/* Records phase @index at @iops for 100 ms. */
static void phase(struct probe_toggle *t, uint64_t index, double iops)
{
	CHECK(toggle_record(t, index, (uint64_t)(iops / 10), 100000000ull) == 0);
}

static void test_order(void)
{
	const char want[] = "TUUTTUUTTU";

	for (uint64_t i = 0; i < sizeof(want) - 1; i++)
		CHECK_MSG(toggle_traced(i) == (want[i] == 'T'), "phase %llu",
			  (unsigned long long)i);
}

/* Every pair at exactly 0.95: ratio 0.95, a zero-width interval, and
 * pair 0 (phases 0 and 1, the workers starting) left out. */
static void test_exact_ratio(void)
{
	struct probe_toggle t = { .phase_ms = 100 };
	struct toggle_result r;

	phase(&t, 0, 10000);  /* pair 0: would give 0.1 */
	phase(&t, 1, 100000);
	for (uint64_t i = 2; i < 42; i++)
		phase(&t, i, toggle_traced(i) ? 95000 : 100000);
	toggle_result(&t, &r);
	CHECK(r.pairs == 20);
	CHECK(fabs(r.ratio - 0.95) < 1e-9);
	CHECK(fabs(r.ratio_of_medians - 0.95) < 1e-9);
	CHECK(fabs(r.iops_traced - 95000) < 1);
	CHECK(fabs(r.iops_untraced - 100000) < 1);
	CHECK(fabs(r.ci_lo - 0.95) < 1e-9 && fabs(r.ci_hi - 0.95) < 1e-9);
	toggle_free(&t);
}

/* Phase @index of a job that runs at 90k IOPS traced, 100k untraced. */
static void slowed(struct probe_toggle *t, uint64_t index)
{
	phase(t, index, toggle_traced(index) ? 90000 : 100000);
}

/* A phase that was not measured (a signal, the end of a group) breaks
 * its pair only; a phase with no I/O is not a pair either. */
static void test_broken_pairs(void)
{
	struct probe_toggle t = { .phase_ms = 100 };
	struct toggle_result r;

	slowed(&t, 2);   /* pair 1 whole */
	slowed(&t, 3);
	slowed(&t, 4);   /* pair 2 without phase 5 */
	slowed(&t, 7);   /* pair 3 without phase 6 */
	slowed(&t, 8);   /* pair 4 whole */
	slowed(&t, 9);
	CHECK(toggle_record(&t, 10, 0, 100000000ull) == 0); /* pair 5: no I/O */
	slowed(&t, 11);
	toggle_result(&t, &r);
	CHECK_MSG(r.pairs == 2, "%zu pairs", r.pairs);
	CHECK(fabs(r.ratio - 0.9) < 1e-9);
	toggle_free(&t);
}

/* Pairs alternating 0.9 and 1.0 (geometric mean sqrt(0.9)): the interval
 * holds it and is the t interval of the log ratios. */
static void test_interval(void)
{
	struct probe_toggle t = { .phase_ms = 50 };
	struct toggle_result r;
	struct json_object *o = json_object_new_object(), *pt, *v;

	phase(&t, 0, 1);
	phase(&t, 1, 1);
	for (uint64_t k = 1; k <= 10; k++) {
		double tr = k % 2 ? 90000 : 100000;

		phase(&t, 2 * k, toggle_traced(2 * k) ? tr : 100000);
		phase(&t, 2 * k + 1, toggle_traced(2 * k + 1) ? tr : 100000);
	}
	toggle_result(&t, &r);
	CHECK(r.pairs == 10);
	CHECK(fabs(r.ratio - sqrt(0.9)) < 1e-9);
	CHECK(r.ci_lo < r.ratio && r.ratio < r.ci_hi);
	/* sd of the logs = |ln 0.9| / 2 * sqrt(10/9); t(0.975, 9) = 2.262 */
	CHECK_MSG(fabs(log(r.ci_hi / r.ratio) -
		       2.262 * fabs(log(0.9)) / 2 * sqrt(10.0 / 9) / sqrt(10)) < 1e-3,
		  "half width %f", log(r.ci_hi / r.ratio));
	toggle_render_json(&t, o);
	CHECK(json_object_object_get_ex(o, "probe_toggle", &pt));
	CHECK(json_object_object_get_ex(pt, "pairs", &v) && json_object_get_int(v) == 10);
	CHECK(json_object_object_get_ex(pt, "ratio_ci95", &v) &&
	      json_object_array_length(v) == 2);
	json_object_put(o);
	toggle_free(&t);
}

/* A job at 90k traced, 100k untraced whose first phase after an attach
 * runs 4% slow and after a detach 1% slow: the settle check sees both,
 * and the ratio carries sqrt(0.96 / 0.99) of them, as it says. */
static void test_after_switch(void)
{
	struct probe_toggle t = { .phase_ms = 50, .settle_ms = 0 };
	struct toggle_result r;
	struct json_object *o = json_object_new_object(), *pt, *as, *v;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	for (uint64_t i = 0; i < 402; i++) {
		double iops = toggle_traced(i) ? 90000 : 100000;

		if (toggle_after_switch(i))
			iops *= toggle_traced(i) ? 0.96 : 0.99;
		/* a little noise, or the intervals have no width */
		phase(&t, i, iops * (1 + 0.001 * (double)(i % 7)));
	}
	CHECK(!toggle_after_switch(0) && toggle_after_switch(1) && !toggle_after_switch(2));
	toggle_result(&t, &r);
	/* fresh phases 3, 7 ... 399 traced, 5, 9 ... 397 untraced */
	CHECK_MSG(r.after_attach.n == 100 && r.after_detach.n == 99, "%zu %zu",
		  r.after_attach.n, r.after_detach.n);
	CHECK_MSG(fabs(r.after_attach.ratio - 0.96) < 0.003, "%f", r.after_attach.ratio);
	CHECK_MSG(fabs(r.after_detach.ratio - 0.99) < 0.003, "%f", r.after_detach.ratio);
	CHECK(r.after_attach.ci_lo < r.after_attach.ratio &&
	      r.after_attach.ratio < r.after_attach.ci_hi && r.after_attach.ci_hi < 0.97);
	CHECK_MSG(fabs(r.bias - sqrt(0.96 / 0.99)) < 0.003, "bias %f", r.bias);
	CHECK(r.bias_ci_hi < 1);
	CHECK_MSG(fabs(r.ratio / r.bias - 0.9) < 0.003, "ratio %f bias %f", r.ratio, r.bias);
	toggle_render_text(&t, out);
	fclose(out);
	CHECK_MSG(text && strstr(text, "after attach 0.96") && strstr(text, "after detach 0.99") &&
		  strstr(text, "try a longer --probe-toggle-settle"), "%s", text);
	toggle_render_json(&t, o);
	CHECK(json_object_object_get_ex(o, "probe_toggle", &pt));
	CHECK(json_object_object_get_ex(pt, "settle_ms", &v) && json_object_get_int(v) == 0);
	CHECK(json_object_object_get_ex(pt, "after_switch", &as));
	CHECK(json_object_object_get_ex(as, "bias_ci95", &v) && json_object_array_length(v) == 2);
	CHECK(json_object_object_get_ex(as, "attach", &v) &&
	      json_object_object_get_ex(v, "n", &v) && json_object_get_int(v) == 100);
	json_object_put(o);
	free(text);
	toggle_free(&t);
}

/* Without an after-effect the check reads 1 and gives no advice. */
static void test_no_after_effect(void)
{
	struct probe_toggle t = { .phase_ms = 50, .settle_ms = 25 };
	struct toggle_result r;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	for (uint64_t i = 0; i < 202; i++)
		phase(&t, i, (toggle_traced(i) ? 95000 : 100000) * (1 + 0.002 * (double)(i % 5)));
	toggle_result(&t, &r);
	CHECK_MSG(fabs(r.after_attach.ratio - 1) < 0.01 && fabs(r.after_detach.ratio - 1) < 0.01,
		  "%f %f", r.after_attach.ratio, r.after_detach.ratio);
	CHECK(r.bias_ci_lo <= 1 && 1 <= r.bias_ci_hi);
	toggle_render_text(&t, out);
	fclose(out);
	CHECK_MSG(text && strstr(text, "25 ms to settle after each switch") &&
		  !strstr(text, "try a longer"), "%s", text);
	free(text);
	toggle_free(&t);
}

int main(void)
{
	test_order();
	test_exact_ratio();
	test_broken_pairs();
	test_interval();
	test_after_switch();
	test_no_after_effect();
	return CHECK_DONE();
}
