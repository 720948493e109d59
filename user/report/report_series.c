// SPDX-License-Identifier: GPL-2.0
/* iodig.series: the interval series in JSON, one array per field. */
#include <math.h>
#include <string.h>

#include <json-c/json.h>

#include "report/report.h"

/* Field @f of every point; a double is written to the whole ns, which is
 * finer than the histogram it comes from. */
static struct json_object *field_array(const struct series *s, const struct series_field *f)
{
	struct json_object *arr = json_object_new_array_ext((int)s->n);

	for (size_t i = 0; arr && i < s->n; i++) {
		const char *p = (const char *)&s->pts[i] + f->offset;
		int64_t v;

		if (f->real)
			v = (int64_t)llround(*(const double *)p);
		else
			v = (int64_t)*(const uint64_t *)p;
		if (json_object_array_add(arr, json_object_new_int64(v))) {
			json_object_put(arr);
			return NULL;
		}
	}
	return arr;
}

static struct json_object *one_series(const struct series *s)
{
	struct json_object *o = json_object_new_object();
	bool ok = o != NULL;

	ok = ok && !json_object_object_add(o, "job", json_object_new_string(s->job));
	ok = ok && !json_object_object_add(o, "ddir", json_object_new_string(ddir_name(s->ddir)));
	ok = ok && !json_object_object_add(o, "interval_ns",
					   json_object_new_int64((int64_t)s->interval_ns));
	ok = ok && !json_object_object_add(o, "ramp_ns", json_object_new_int64((int64_t)s->ramp_ns));
	for (size_t k = 0; ok && k < SERIES_NR_FIELDS; k++) {
		struct json_object *arr = field_array(s, &series_fields[k]);

		ok = arr && !json_object_object_add(o, series_fields[k].name, arr);
	}
	if (!ok) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

struct json_object *report_series_json(const struct series_set *set)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; arr && set && i < set->n; i++) {
		struct json_object *o = one_series(&set->s[i]);

		if (!o || json_object_array_add(arr, o)) {
			json_object_put(o);
			json_object_put(arr);
			return NULL;
		}
	}
	return arr;
}
