// SPDX-License-Identifier: GPL-2.0
/*
 * The diff model as JSON for scripts: the same story as the text (the
 * headline, the ranked kernel rows with their shares, the folded count,
 * iodig's probes) and every row with each file's values and test.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include <json-c/json.h>

#include "analysis/diff.h"
#include "analysis/tracefile.h"

static struct json_object *jnum(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static const char *const kind_names[] = {
	[ROW_WORKLOAD] = "workload", [ROW_KERNEL] = "kernel", [ROW_FUNCTION] = "function",
	[ROW_PROBES] = "iodig_probes",
};

static struct json_object *json_cell(const struct diff_cell *c, const char *tag, bool base)
{
	struct json_object *v = json_object_new_object();

	json_object_object_add(v, "file", json_object_new_string(tag));
	json_object_object_add(v, "present", json_object_new_boolean(c->present));
	if (c->present) {
		json_object_object_add(v, "n", json_object_new_int((int)c->s.n));
		json_object_object_add(v, "mean", jnum(c->s.mean));
		json_object_object_add(v, "stdev", jnum(c->s.stdev));
		json_object_object_add(v, "ci95_half", jnum(c->s.ci95_half));
	}
	if (base || c->sig == SIG_NONE)
		return v;
	json_object_object_add(v, "change", jnum(c->change));
	json_object_object_add(v, "change_pct", jnum(c->change_pct));
	json_object_object_add(v, "verdict", json_object_new_string(diff_sig_name(c->sig)));
	if (!isnan(c->samples))
		json_object_object_add(v, "samples", jnum(c->samples));
	if (!isnan(c->sample_p))
		json_object_object_add(v, "sampling_p", jnum(c->sample_p));
	if (c->w.valid) {
		json_object_object_add(v, "change_ci95_half", jnum(c->w.ci95_half));
		json_object_object_add(v, "test", json_object_new_string(diff_test_name(c->test)));
		json_object_object_add(v, "p", jnum(c->p));
		json_object_object_add(v, "q", jnum(c->q));
		json_object_object_add(v, "t", jnum(c->w.t));
		json_object_object_add(v, "df", jnum(c->w.df));
	}
	return v;
}

static struct json_object *json_row(const struct diff *d, const struct diff_row *row)
{
	struct json_object *o = json_object_new_object(), *vals = json_object_new_array();

	json_object_object_add(o, "section", json_object_new_string(row->section));
	json_object_object_add(o, "figure", json_object_new_string(row->label));
	json_object_object_add(o, "key", json_object_new_string(row->key));
	json_object_object_add(o, "kind", json_object_new_string(kind_names[row->kind]));
	json_object_object_add(o, "better", json_object_new_string(figure_better_name(row->better)));
	json_object_object_add(o, "unit", json_object_new_string(row->unit));
	if (row->note[0])
		json_object_object_add(o, "note", json_object_new_string(row->note));
	if (!isnan(row->time_delta))
		json_object_object_add(o, "time_change_ns_per_io", jnum(row->time_delta));
	if (!isnan(row->explains_pct))
		json_object_object_add(o, "explains_pct_of_lat_change", jnum(row->explains_pct));
	if (row->context)
		json_object_object_add(o, "context", json_object_new_string(row->context));
	if (row->sampling_noise)
		json_object_object_add(o, "within_sampling_noise", json_object_new_boolean(true));
	for (size_t i = 0; i < d->nr_files; i++)
		json_object_array_add(vals, json_cell(&row->cells[i], d->tags[i], i == 0));
	json_object_object_add(o, "values", vals);
	return o;
}

static struct json_object *json_rows(const struct diff *d, const size_t *idx, size_t n)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(arr, json_row(d, &d->rows[idx[i]]));
	return arr;
}

static struct json_object *json_strings(char *const *v, size_t n)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; i < n; i++)
		json_object_array_add(arr, json_object_new_string(v[i]));
	return arr;
}

static struct json_object *json_files(const struct diff *d)
{
	struct json_object *files = json_object_new_array();

	for (size_t i = 0; i < d->nr_files; i++) {
		struct json_object *f = json_object_new_object();
		char rel[128];

		json_object_object_add(f, "tag", json_object_new_string(d->tags[i]));
		json_object_object_add(f, "path", json_object_new_string(d->tf[i]->name));
		json_object_object_add(f, "repeats", json_object_new_int((int)d->tf[i]->nr_repeats));
		json_object_object_add(f, "kernel_release", json_object_new_string(
			tracefile_env_str(d->tf[i], "kernel.release", rel, sizeof(rel))));
		json_object_array_add(files, f);
	}
	return files;
}

static struct json_object *json_statistics(const struct diff *d)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "sample", json_object_new_string("one value per repeat"));
	json_object_object_add(o, "means", json_object_new_string("Welch's two-sided t-test"));
	json_object_object_add(o, "percentiles", json_object_new_string(
		"two-sided Mann-Whitney U test (exact without ties)"));
	json_object_object_add(o, "multiple_testing", json_object_new_string(
		"Benjamini-Hochberg over every tested row of a column"));
	json_object_object_add(o, "tested_rows", json_object_new_int((int)d->nr_tested));
	json_object_object_add(o, "alpha", json_object_new_double(d->alpha));
	json_object_object_add(o, "min_change_pct", json_object_new_double(d->min_change));
	return o;
}

/* The story: headline, ranked kernel rows (changed first), the count of
 * the folded ones, iodig's probes. */
static struct json_object *json_story(const struct diff *d)
{
	struct json_object *o = json_object_new_object();

	json_object_object_add(o, "headline", json_rows(d, d->headline, d->nr_headline));
	if (d->lat_row >= 0)
		json_object_object_add(o, "lat_change_ns", jnum(d->rows[d->lat_row].cells[1].change));
	json_object_object_add(o, "kernel", json_rows(d, d->story, d->nr_story_shown));
	json_object_object_add(o, "folded", json_rows(d, d->story + d->nr_story_shown,
						     d->nr_story - d->nr_story_shown));
	if (d->probes_row >= 0)
		json_object_object_add(o, "iodig_probes", json_row(d, &d->rows[d->probes_row]));
	return o;
}

int diff_render_json(const struct diff *d, FILE *out)
{
	struct json_object *root = json_object_new_object(), *arr;
	const char *text;
	int ret = 0;

	if (!root)
		return -ENOMEM;
	json_object_object_add(root, "statistics", json_statistics(d));
	json_object_object_add(root, "files", json_files(d));
	if (d->nr_files >= 2)
		json_object_object_add(root, "story", json_story(d));
	json_object_object_add(root, "warnings", json_strings(d->warnings, d->nr_warnings));
	json_object_object_add(root, "kernel_differences",
			       json_strings(d->kernel_notes, d->nr_kernel_notes));
	arr = json_object_new_array();
	for (size_t r = 0; r < d->nr_rows; r++)
		json_object_array_add(arr, json_row(d, &d->rows[r]));
	json_object_object_add(root, "rows", arr);
	text = json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
					      JSON_C_TO_STRING_NOSLASHESCAPE);
	if (!text || fputs(text, out) == EOF || fputc('\n', out) == EOF)
		ret = -EIO;
	json_object_put(root);
	return ret;
}
