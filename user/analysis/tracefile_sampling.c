// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled slat breakdown of every repeat (trace file 1.4): the counts
 * a self row of `iodig diff` is computed from, kept per repeat in
 * iodig.repeats.runs[].sampling so that each repeat's own time of a
 * function is its own sample, not the last repeat's share applied to all.
 * Files before 1.4 have only iodig.kernel.sampling, the last repeat's,
 * which is read (leniently, as before) as that.  Format in
 * docs/trace-file.md.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/mem.h"
#include "probes/figures.h"
#include "run/repeat.h"
#include "analysis/tracefile.h"

static bool get_count(struct json_object *v, double *out)
{
	if (!v || !(json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double)))
		return false;
	*out = json_object_get_double(v);
	return isfinite(*out) && *out >= 0;
}

/* ---- writing ---- */

/* Copies @key of @from into @to, sharing the value. */
static void share_member(struct json_object *to, struct json_object *from, const char *key)
{
	struct json_object *v = tracefile_jget(from, key);

	if (v)
		json_object_object_add(to, key, json_object_get(v));
}

/* {function, samples, self_samples} of each function the family listed. */
static struct json_object *counts_json(struct json_object *breakdown)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; arr && i < json_object_array_length(breakdown); i++) {
		struct json_object *e = json_object_array_get_idx(breakdown, i);
		struct json_object *o = json_object_new_object();

		share_member(o, e, "function");
		share_member(o, e, "samples");
		share_member(o, e, "self_samples");
		json_object_array_add(arr, o);
	}
	return arr;
}

struct json_object *tracefile_sampling_json(const struct repeat_result *res, unsigned int run)
{
	struct json_object *s = tracefile_jget(res->kernels ? res->kernels[run] : NULL, "sampling");
	struct json_object *breakdown = tracefile_jget(s, "slat_breakdown"), *o;

	if (!breakdown || !json_object_is_type(breakdown, json_type_array))
		return NULL;
	o = json_object_new_object();
	share_member(o, s, "basis_ns_per_io");
	share_member(o, s, "submission_stacked");
	share_member(o, s, "sampled_submission_ns_per_io");
	json_object_object_add(o, "slat_breakdown", counts_json(breakdown));
	json_object_object_add(o, "on_cpu_submission",
			       tracefile_stacks_json(&res->figures[run], FIGURE_STACK_ON_CPU));
	return o;
}

/* ---- reading ---- */

static void sampling_free(struct tf_sampling *s)
{
	FREE_EACH(s->fns, s->nr_fns, name);
	FREE_EACH(s->oncpu, s->nr_oncpu, stack);
	memset(s, 0, sizeof(*s));
}

void tracefile_sampling_free(struct tracefile *tf)
{
	for (size_t i = 0; tf->sampling && i < tf->nr_repeats; i++)
		sampling_free(&tf->sampling[i]);
	free(tf->sampling);
	sampling_free(&tf->sampling_last);
}

/* The functions' counts of @arr into @s; false when one is malformed. */
static bool parse_fns(struct tf_sampling *s, struct json_object *arr, bool *nomem)
{
	size_t n = json_object_array_length(arr);

	s->fns = calloc(n ? n : 1, sizeof(*s->fns));
	if (!s->fns)
		return !(*nomem = true);
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(arr, i), *fn = tracefile_jget(e, "function");
		struct tf_sampled_fn *f = &s->fns[i];

		if (!fn || !json_object_is_type(fn, json_type_string) ||
		    !get_count(tracefile_jget(e, "samples"), &f->samples))
			return false;
		/* before the self counts, a file's functions had none listed */
		if (tracefile_jget(e, "self_samples") && !get_count(tracefile_jget(e, "self_samples"), &f->self_samples))
			return false;
		if (!(f->name = strdup(json_object_get_string(fn))))
			return !(*nomem = true);
		s->nr_fns++;
	}
	return true;
}

/* One sampling section @o into @s, with @stacks (its on-CPU stacks);
 * false when it lacks a field or one is malformed. */
static bool parse_one(struct tracefile *tf, struct tf_sampling *s, struct json_object *o,
		      struct json_object *stacks, const char *where, bool *nomem)
{
	struct json_object *arr = tracefile_jget(o, "slat_breakdown");
	struct errbuf ignored = { "" };
	int ret;

	if (!get_count(tracefile_jget(o, "basis_ns_per_io"), &s->basis_ns_per_io) ||
	    !get_count(tracefile_jget(o, "submission_stacked"), &s->submission_stacked) ||
	    !arr || !json_object_is_type(arr, json_type_array))
		return false;
	if (tracefile_jget(o, "sampled_submission_ns_per_io") &&
	    !get_count(tracefile_jget(o, "sampled_submission_ns_per_io"), &s->sampled_ns_per_io))
		return false;
	if (!parse_fns(s, arr, nomem))
		return false;
	ret = tracefile_parse_stacks(tf, stacks, where, &s->oncpu, &s->nr_oncpu, &ignored);
	*nomem = ret == -ENOMEM;
	return !ret;
}

/* 1.4: each run's own, where the sampling family ran in it. */
static int parse_runs(struct tracefile *tf, struct json_object *iodig, struct errbuf *err)
{
	struct json_object *runs = tracefile_jget(tracefile_jget(iodig, "repeats"), "runs");
	char where[96];
	bool nomem = false;

	tf->sampling = calloc(tf->nr_repeats ? tf->nr_repeats : 1, sizeof(*tf->sampling));
	if (!tf->sampling)
		return err_set(err, ENOMEM, "out of memory reading %s", tf->name);
	for (size_t i = 0; i < tf->nr_repeats; i++) {
		struct json_object *o = tracefile_jget(json_object_array_get_idx(runs, i), "sampling");
		struct tf_sampling *s = &tf->sampling[i];

		if (!o)
			continue;
		snprintf(where, sizeof(where), "iodig.repeats.runs[%zu].sampling", i);
		s->valid = json_object_is_type(o, json_type_object) &&
			   parse_one(tf, s, o, tracefile_jget(o, "on_cpu_submission"), where, &nomem);
		if (nomem)
			return err_set(err, ENOMEM, "out of memory reading %s", tf->name);
		if (!s->valid)
			return err_set(err, EINVAL, "%s: %s lacks basis_ns_per_io, submission_stacked or "
				       "slat_breakdown, or one of them (or a function's samples, "
				       "self_samples, on_cpu_submission) is malformed", tf->name, where);
	}
	return 0;
}

int tracefile_parse_sampling(struct tracefile *tf, struct json_object *iodig, struct errbuf *err)
{
	struct json_object *last = tracefile_jget(tracefile_jget(iodig, "kernel"), "sampling");
	bool nomem = false;

	/* the last repeat's, as every version had it: no self rows when
	 * it is missing or odd, never an error */
	if (last)
		tf->sampling_last.valid = parse_one(tf, &tf->sampling_last, last,
						    tracefile_jget(tracefile_jget(iodig, "stacks"), "on_cpu_submission"),
						    "iodig.stacks.on_cpu_submission", &nomem);
	if (!tf->sampling_last.valid)
		sampling_free(&tf->sampling_last);
	if (nomem)
		return err_set(err, ENOMEM, "out of memory reading %s", tf->name);
	if (tf->major > 1 || tf->minor >= 4)
		return parse_runs(tf, iodig, err);
	return 0;
}

const struct tf_sampling *tracefile_sampling(const struct tracefile *tf, size_t run)
{
	if (!tf->sampling || run >= tf->nr_repeats || !tf->sampling[run].valid)
		return NULL;
	return &tf->sampling[run];
}
