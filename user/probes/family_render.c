// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>

#include <json-c/json.h>

#include "probes/family_render.h"

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
