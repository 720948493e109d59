// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled submission rows, read as far as their samples allow.
 * `slat (sampled) F` is inclusive: a sample counts for every frame on its
 * stack, so the rows of one call chain overlap and their changes add up
 * to far more than the whole.  Each gets a self row, F's own samples (F
 * the leaf, outside iodig's probes), which partition the sampled time and
 * can explain a change.  And each sampled cell gets the count of samples
 * its mean rests on and the Poisson p of its change against A's: a count
 * has noise even in a single run, and 0 samples against 4 is no change.
 * Statistics in docs/statistics.md.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "analysis/diff.h"
#include "analysis/tracefile.h"
#include "base/poisson.h"

/* What a file's sampling section says: the ns per I/O one submission
 * sample stands for, and the per-function counts of its last repeat. */
struct samp_file {
	double per_sample;
	double on_cpu;      /* sampled on-CPU time over the basis, at most 1 */
	struct json_object *breakdown;
};

static bool samp_file_read(const struct tracefile *tf, struct samp_file *s)
{
	struct json_object *o = tf->root, *basis = NULL, *stacked = NULL, *sampled = NULL;
	static const char *const path[] = { "iodig", "kernel", "sampling" };

	for (size_t i = 0; o && i < sizeof(path) / sizeof(path[0]); i++)
		if (!json_object_object_get_ex(o, path[i], &o))
			o = NULL;
	s->per_sample = NAN;
	s->breakdown = NULL;
	if (!o || !json_object_object_get_ex(o, "basis_ns_per_io", &basis) ||
	    !json_object_object_get_ex(o, "submission_stacked", &stacked) ||
	    !json_object_object_get_ex(o, "slat_breakdown", &s->breakdown) ||
	    json_object_get_double(basis) <= 0 || json_object_get_double(stacked) <= 0)
		return false;
	s->per_sample = json_object_get_double(basis) / json_object_get_double(stacked);
	s->on_cpu = 1.0;
	if (json_object_object_get_ex(o, "sampled_submission_ns_per_io", &sampled) &&
	    json_object_get_double(sampled) > 0)
		s->on_cpu = fmin(1.0, json_object_get_double(sampled) / json_object_get_double(basis));
	return true;
}

/* @fn's inclusive and own samples in the breakdown; false when absent. */
static bool breakdown_counts(const struct samp_file *s, const char *fn, double *incl,
			     double *self)
{
	for (size_t i = 0; i < json_object_array_length(s->breakdown); i++) {
		struct json_object *e = json_object_array_get_idx(s->breakdown, i), *v;

		if (!json_object_object_get_ex(e, "function", &v) ||
		    strcmp(json_object_get_string(v), fn))
			continue;
		*incl = json_object_object_get_ex(e, "samples", &v) ? json_object_get_double(v) : 0;
		*self = json_object_object_get_ex(e, "self_samples", &v) ? json_object_get_double(v) : 0;
		return *incl > 0;
	}
	return false;
}

/* Samples whose leaf is @fn and whose stack passes through iodig's
 * probes (a clock read or map lookup of a BPF program): the tracer's
 * time, not @fn's.  From the stacks the file lists, its heaviest. */
static double probe_leaf_samples(const struct tracefile *tf, const char *fn)
{
	double n = 0;

	for (size_t i = 0; i < tf->nr_oncpu; i++) {
		const char *st = tf->oncpu[i].stack, *leaf = strrchr(st, ';');
		char frame[256];
		bool probed = false;

		if (!leaf || strcmp(leaf + 1, fn))
			continue;
		for (const char *p = st; p < leaf && !probed; p += strcspn(p, ";") + 1) {
			snprintf(frame, sizeof(frame), "%.*s", (int)strcspn(p, ";"), p);
			probed = diff_is_probe_fn(frame);
		}
		n += probed ? tf->oncpu[i].count : 0;
	}
	return n;
}

/* The function row @r stands for in file @f: its own name, or in a later
 * file of a same-role pair ("a → b") the successor's. */
static void cell_fn(const struct diff *d, const struct diff_row *r, size_t f, char *name,
		    size_t size)
{
	char role[32], measure[32];
	const char *arrow = strstr(r->note, " → ");

	if (figure_split_fn(r->key, role, sizeof(role), name, size, measure, sizeof(measure)))
		name[0] = 0;
	if (f && arrow && !tracefile_metric(d->tf[f], r->key))
		snprintf(name, size, "%s", arrow + strlen(" → "));
}

static bool is_sampled_time(const struct diff_row *r)
{
	const char *measure = "|ns_per_io";
	size_t len = strlen(r->key);

	return r->group < 0 && r->kind == ROW_FUNCTION && len > strlen(measure) &&
	       !strcmp(r->key + len - strlen(measure), measure) &&
	       (!strncmp(r->key, "fn|slat|", 8) || !strncmp(r->key, "fn|slat_self|", 13));
}

/* The share of @fn's inclusive samples that are its own in file @f; 0
 * when the file does not list it.  Applied to a slat that holds time the
 * submitting call slept (a tag wait), which cpu-clock never samples, the
 * share is of the on-CPU part only: else that sleep would swell every
 * function's own time. */
static double own_ratio(const struct diff *d, size_t f, const char *fn)
{
	struct samp_file s;
	double incl, self;

	if (!samp_file_read(d->tf[f], &s) || !breakdown_counts(&s, fn, &incl, &self))
		return 0.0;
	self -= probe_leaf_samples(d->tf[f], fn);
	return self > 0 ? self / incl * s.on_cpu : 0.0;
}

/* The own share of @in's function in file @f (see own_ratio). */
static double cell_ratio(const struct diff *d, const struct diff_row *in, size_t f)
{
	char name[256];

	cell_fn(d, in, f, name, sizeof(name));
	return own_ratio(d, f, name);
}

/* Row @r, new, as the self row of inclusive row @in: each repeat's
 * inclusive time times the function's own share in its file. */
static void fill_self_row(struct diff *d, struct diff_row *r, const struct diff_row *in,
			  size_t repeats)
{
	char name[256];

	cell_fn(d, in, 0, name, sizeof(name));
	snprintf(r->key, sizeof(r->key), "fn|slat_self|%s|ns_per_io", name);
	snprintf(r->label, sizeof(r->label), "slat (sampled, self)%s",
		 in->label + strcspn(in->label, ")") + 1);
	snprintf(r->note, sizeof(r->note), "%s", in->note);
	r->kind = ROW_FUNCTION;
	r->better = in->better;
	for (size_t f = 0; f < d->nr_files; f++) {
		const struct diff_cell *ic = &in->cells[f];
		struct diff_cell *c = &r->cells[f];
		double ratio = cell_ratio(d, in, f);

		c->sig = SIG_NONE;
		if (!(c->present = ic->present))
			continue;
		c->v = r->own + f * repeats;
		for (size_t i = 0; i < ic->s.n && i < repeats; i++)
			r->own[f * repeats + i] = ic->v[i] * ratio;
		sample_summarize(c->v, ic->s.n, &c->s);
	}
}

/* The self row of inclusive row @src, unless its function has under 1 ns
 * per I/O of its own in every file.  0 or -ENOMEM. */
static int add_self_row(struct diff *d, size_t src)
{
	char section[sizeof(d->rows[0].section)];
	double most = 0;
	size_t repeats = 1;
	struct diff_row *r;

	for (size_t f = 0; f < d->nr_files; f++) {
		if (d->rows[src].cells[f].present)
			most = fmax(most, cell_ratio(d, &d->rows[src], f) *
					  d->rows[src].cells[f].s.mean);
		if (d->tf[f]->nr_repeats > repeats)
			repeats = d->tf[f]->nr_repeats;
	}
	if (most < 1.0)
		return 0;
	/* a copy: diff_row_new may move the rows */
	snprintf(section, sizeof(section), "%s", d->rows[src].section);
	r = diff_row_new(d, section, "", "ns/IO");
	if (!r || !(r->own = calloc(d->nr_files * repeats, sizeof(double))))
		return -ENOMEM;
	fill_self_row(d, r, &d->rows[src], repeats);
	return 0;
}

int diff_add_self_rows(struct diff *d)
{
	size_t n = d->nr_rows;
	int ret = 0;

	for (size_t i = 0; !ret && i < n; i++)
		if (is_sampled_time(&d->rows[i]) && !strncmp(d->rows[i].key, "fn|slat|", 8))
			ret = add_self_row(d, i);
	return ret;
}

void diff_count_samples(struct diff *d)
{
	for (size_t i = 0; i < d->nr_rows; i++) {
		struct diff_row *r = &d->rows[i];
		struct samp_file s0, s;
		double k0;

		for (size_t f = 0; f < d->nr_files; f++)
			r->cells[f].samples = r->cells[f].sample_p = NAN;
		if (!is_sampled_time(r) || !r->cells[0].present ||
		    !samp_file_read(d->tf[0], &s0))
			continue;
		k0 = round((double)r->cells[0].s.n * r->cells[0].s.mean / s0.per_sample);
		r->cells[0].samples = k0;
		for (size_t f = 1; f < d->nr_files; f++) {
			struct diff_cell *c = &r->cells[f];

			if (!c->present || !samp_file_read(d->tf[f], &s))
				continue;
			c->samples = round((double)c->s.n * c->s.mean / s.per_sample);
			/* equal ns per I/O expect samples in proportion to
			 * repeats / ns per sample */
			c->sample_p = poisson_rates_p((uint64_t)k0, (double)r->cells[0].s.n / s0.per_sample,
						      (uint64_t)c->samples, (double)c->s.n / s.per_sample);
		}
	}
}

/* A self row's repeats all carry one own share per file (the last
 * repeat's), so the repeats' spread leaves out the share's own sampling
 * noise: it is called changed only when its samples' Poisson test agrees. */
void diff_judge_self_rows(struct diff *d)
{
	for (size_t i = 0; i < d->nr_rows; i++) {
		struct diff_row *r = &d->rows[i];

		if (strncmp(r->key, "fn|slat_self|", 13))
			continue;
		for (size_t f = 1; f < d->nr_files; f++)
			if (r->cells[f].sig == SIG_CHANGED && !(r->cells[f].sample_p < d->alpha))
				r->cells[f].sig = SIG_NOISE;
	}
}
