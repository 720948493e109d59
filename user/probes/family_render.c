// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <string.h>

#include <json-c/json.h>

#include "probes/family_render.h"
#include "workload/stats.h"

struct json_object *json_u64(uint64_t v)
{
	return json_object_new_int64(v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

void latency_unit(double ns, const char **unit, double *div)
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

double latency_text(FILE *out, const char *what, const struct hist *h, double mean_ns,
		    uint64_t max_ns)
{
	const char *unit;
	double div;

	latency_unit(mean_ns, &unit, &div);
	fprintf(out, "%s (%s): avg=%.2f, p50=%.2f, p99=%.2f, max=%.2f", what, unit,
		mean_ns / div, (double)hist_percentile(h, 50.0) / div,
		(double)hist_percentile(h, 99.0) / div, (double)max_ns / div);
	return div;
}

void json_add_percentiles(struct json_object *o, const struct hist *h)
{
	json_object_object_add(o, "p50", json_u64(hist_percentile(h, 50.0)));
	json_object_object_add(o, "p90", json_u64(hist_percentile(h, 90.0)));
	json_object_object_add(o, "p99", json_u64(hist_percentile(h, 99.0)));
}

void json_add_fields(struct json_object *o, const void *base, const struct json_field *fields,
		     size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		const char *at = (const char *)base + fields[i].offset;
		uint64_t u;
		double d;

		if (fields[i].is_double) {
			memcpy(&d, at, sizeof(d));
			json_object_object_add(o, fields[i].key, json_object_new_double(d));
		} else {
			memcpy(&u, at, sizeof(u));
			json_object_object_add(o, fields[i].key, json_u64(u));
		}
	}
}

void drops_text(FILE *out, const struct family_drop *drops, size_t nr)
{
	bool any = false;

	for (size_t i = 0; i < nr; i++) {
		if (!drops[i].n)
			continue;
		fprintf(out, "%s%s=%llu", any ? ", " : "    drops: ", drops[i].cause,
			(unsigned long long)drops[i].n);
		any = true;
	}
	if (any)
		fputc('\n', out);
}

struct json_object *drops_json(const struct family_drop *drops, size_t nr)
{
	struct json_object *o = json_object_new_object();

	for (size_t i = 0; i < nr; i++)
		json_object_object_add(o, drops[i].cause, json_u64(drops[i].n));
	return o;
}
