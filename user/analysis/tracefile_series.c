// SPDX-License-Identifier: GPL-2.0
/*
 * Reading the series back into the model the run filled
 * (workload/series.h).  From 1.3 every repeat's are in
 * iodig.repeats.runs[].series (iodig.series repeats the last one's, for
 * 1.2 readers); a 1.2 file has the last repeat's only, in iodig.series;
 * files before 1.2 have none: the set stays empty.  Every field is
 * checked, as everywhere in a trace file's reader.
 */
#include <errno.h>
#include <string.h>

#include <json-c/json.h>

#include "analysis/tracefile.h"

static bool get_u64(struct json_object *v, uint64_t *out)
{
	int64_t x;

	if (!v || !json_object_is_type(v, json_type_int))
		return false;
	x = json_object_get_int64(v);
	*out = (uint64_t)x;
	return x >= 0;
}

/* Field @f of every point of @s from the array @arr of @n numbers. */
static bool parse_field(struct series *s, const struct series_field *f, struct json_object *arr)
{
	if (!arr || !json_object_is_type(arr, json_type_array) ||
	    json_object_array_length(arr) != s->n)
		return false;
	for (size_t i = 0; i < s->n; i++) {
		char *p = (char *)&s->pts[i] + f->offset;
		uint64_t v;

		if (!get_u64(json_object_array_get_idx(arr, i), &v))
			return false;
		if (f->real)
			*(double *)p = (double)v;
		else
			*(uint64_t *)p = v;
	}
	return true;
}

/* Series @k of the array at @where (for messages), of repeat @repeat. */
static int parse_one(struct tracefile *tf, struct json_object *o, const char *where, size_t k,
		     unsigned int repeat, struct errbuf *err)
{
	struct json_object *job = tracefile_jget(o, "job"), *dir = tracefile_jget(o, "ddir");
	struct json_object *ends = tracefile_jget(o, "end_ns");
	struct series *s = series_set_add(&tf->series);
	const char *d = dir && json_object_is_type(dir, json_type_string) ?
			json_object_get_string(dir) : "";

	if (!s)
		return err_set(err, ENOMEM, "out of memory reading %s", tf->name);
	s->repeat = repeat;
	if (!job || !json_object_is_type(job, json_type_string) ||
	    (strcmp(d, "read") && strcmp(d, "write") && strcmp(d, "trim")) ||
	    !get_u64(tracefile_jget(o, "interval_ns"), &s->interval_ns) || !s->interval_ns ||
	    !get_u64(tracefile_jget(o, "ramp_ns"), &s->ramp_ns) ||
	    !ends || !json_object_is_type(ends, json_type_array))
		return err_set(err, EINVAL, "%s: %s[%zu] lacks job, ddir (read, write or trim), "
			       "interval_ns, ramp_ns or end_ns", tf->name, where, k);
	snprintf(s->job, sizeof(s->job), "%s", json_object_get_string(job));
	s->ddir = !strcmp(d, "read") ? DDIR_READ : !strcmp(d, "write") ? DDIR_WRITE :
		  DDIR_TRIM;
	s->n = s->cap = json_object_array_length(ends);
	s->pts = calloc(s->n ? s->n : 1, sizeof(*s->pts));
	if (!s->pts)
		return err_set(err, ENOMEM, "out of memory reading %s", tf->name);
	for (size_t f = 0; f < SERIES_NR_FIELDS; f++)
		if (!parse_field(s, &series_fields[f], tracefile_jget(o, series_fields[f].name)))
			return err_set(err, EINVAL, "%s: %s[%zu].%s is not an array of %zu "
				       "whole numbers >= 0", tf->name, where, k, series_fields[f].name, s->n);
	for (size_t i = 0; i < s->n; i++)
		if (!s->pts[i].dur_ns || s->pts[i].dur_ns > s->pts[i].end_ns ||
		    (i && s->pts[i].end_ns - s->pts[i].dur_ns < s->pts[i - 1].end_ns))
			return err_set(err, EINVAL, "%s: %s[%zu]: interval %zu is empty or "
				       "overlaps the one before", tf->name, where, k, i);
	return 0;
}

/* The array @arr at @where (absent: none) as repeat @repeat's series. */
static int parse_list(struct tracefile *tf, struct json_object *arr, const char *where,
		      unsigned int repeat, struct errbuf *err)
{
	int ret = 0;

	if (!arr)
		return 0;
	if (!json_object_is_type(arr, json_type_array))
		return err_set(err, EINVAL, "%s: %s is not an array", tf->name, where);
	for (size_t k = 0; k < json_object_array_length(arr) && !ret; k++)
		ret = parse_one(tf, json_object_array_get_idx(arr, k), where, k, repeat, err);
	return ret;
}

/* 1.3: each of the runs has its series (parse_repeats checked the runs). */
static int parse_runs(struct tracefile *tf, struct json_object *iodig, struct errbuf *err)
{
	struct json_object *runs = tracefile_jget(tracefile_jget(iodig, "repeats"), "runs");
	char where[64];
	int ret = 0;

	for (size_t i = 0; i < tf->nr_repeats && !ret; i++) {
		struct json_object *arr = tracefile_jget(json_object_array_get_idx(runs, i), "series");

		snprintf(where, sizeof(where), "iodig.repeats.runs[%zu].series", i);
		if (!arr)
			return err_set(err, EINVAL, "%s: %s is missing (trace file 1.%d keeps "
				       "every repeat's series)", tf->name, where, tf->minor);
		ret = parse_list(tf, arr, where, (unsigned int)i, err);
	}
	return ret;
}

int tracefile_parse_series(struct tracefile *tf, struct json_object *iodig, struct errbuf *err)
{
	if (tf->major > 1 || tf->minor >= 3)
		return parse_runs(tf, iodig, err);
	return parse_list(tf, tracefile_jget(iodig, "series"), "iodig.series",
			  tf->nr_repeats ? (unsigned int)(tf->nr_repeats - 1) : 0, err);
}
