// SPDX-License-Identifier: GPL-2.0
/*
 * fio 3.33's steady-state report (stat.c's show_ss_normal and the
 * "steadystate" object of its JSON), from a window (workload/steady.h).
 */
#include <stdint.h>
#include <stdio.h>

#include <json-c/json.h>

#include "report/report_steady.h"
#include "report/units.h"

void report_steady_text(FILE *out, const struct steady_state *s, unsigned int kb_base,
			int sig_figs)
{
	const bool i2p = (kb_base & (kb_base - 1)) == 0;
	uint64_t bw = steady_bw_mean(s) / kb_base;
	static const char *const names[] = { "iops", "bw", "lat" };
	char bw_s[NUM2STR_LEN], bw_alt[NUM2STR_LEN], iops_s[NUM2STR_LEN];
	char lat_s[NUM2STR_LEN] = "";

	/* fio's lat figure keeps nsec: its usec/msec rules need a stdev */
	if (s->o.metric == STEADY_LAT)
		fio_num2str(lat_s, sizeof(lat_s), steady_lat_mean(s), 4, 1, false, N2S_NONE);
	fprintf(out, "  steadystate  : attained=%s, bw=%s (%s), iops=%s%s%s%s, %s%s=%.3f%s\n",
		s->attained ? "yes" : "no",
		fio_num2str(bw_s, sizeof(bw_s), bw, sig_figs, kb_base, i2p, N2S_BYTEPERSEC),
		fio_num2str(bw_alt, sizeof(bw_alt), bw, sig_figs, kb_base, !i2p, N2S_BYTEPERSEC),
		fio_num2str(iops_s, sizeof(iops_s), steady_iops_mean(s), sig_figs, 1, false,
			    N2S_NONE),
		lat_s[0] ? ", lat=" : "", lat_s, lat_s[0] ? "nsec" : "", names[s->o.metric],
		s->o.slope ? " slope" : " mean dev", s->criterion, s->o.pct ? "%" : "");
}

/* Adds @val under @key; counts a failure (and drops @val) in @bad. */
static void put(struct json_object *o, const char *key, struct json_object *val, int *bad)
{
	if (!val || json_object_object_add(o, key, val)) {
		json_object_put(val);
		(*bad)++;
	}
}

/* fio prints floats with "%f". */
static struct json_object *fio_double(double v)
{
	char s[64];

	snprintf(s, sizeof(s), "%f", v);
	return json_object_new_double_s(v, s);
}

/* The window's samples of @at, oldest first. */
static struct json_object *samples(const struct steady_state *s,
				   uint64_t (*at)(const struct steady_state *, unsigned int))
{
	struct json_object *a = json_object_new_array();

	for (unsigned int k = 0; a && k < s->n; k++)
		if (json_object_array_add(a, json_object_new_int64((int64_t)at(s, k)))) {
			json_object_put(a);
			return NULL;
		}
	return a;
}

/* fio lists lat (after 3.33) only for a lat criterion. */
static struct json_object *window_data(const struct steady_state *s, int *bad)
{
	struct json_object *data = json_object_new_object();

	if (!data) {
		(*bad)++;
		return NULL;
	}
	put(data, "bw_mean", json_object_new_int64((int64_t)steady_bw_mean(s)), bad);
	put(data, "iops_mean", json_object_new_int64((int64_t)steady_iops_mean(s)), bad);
	if (s->o.metric == STEADY_LAT) {
		put(data, "lat_mean", json_object_new_int64((int64_t)steady_lat_mean(s)), bad);
		put(data, "lat_ns", samples(s, steady_lat_at), bad);
	}
	put(data, "iops", samples(s, steady_iops_at), bad);
	put(data, "bw", samples(s, steady_bw_at), bad);
	return data;
}

struct json_object *report_steady_json(const struct steady_state *s)
{
	struct json_object *o = json_object_new_object();
	char buf[64];
	int bad = !o;

	if (bad)
		return NULL;
	steady_describe(&s->o, buf, sizeof(buf));
	put(o, "ss", json_object_new_string(buf), &bad);
	put(o, "duration", json_object_new_int64((int64_t)(s->o.dur_ns / 1000000000ull)), &bad);
	put(o, "attained", json_object_new_int(s->attained), &bad);
	/* fio narrows the criterion to float before printing it */
	snprintf(buf, sizeof(buf), "%f%s", (double)(float)s->criterion, s->o.pct ? "%" : "");
	put(o, "criterion", json_object_new_string(buf), &bad);
	put(o, "max_deviation", fio_double(s->deviation), &bad);
	put(o, "slope", fio_double(s->slope), &bad);
	put(o, "data", window_data(s, &bad), &bad);
	if (bad) {
		json_object_put(o);
		return NULL;
	}
	return o;
}
