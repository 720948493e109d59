// SPDX-License-Identifier: GPL-2.0
/*
 * The sampled submission rows, read as far as their samples allow.
 * `slat (sampled) F` is inclusive: a sample counts for every frame on its
 * stack, so the rows of one call chain overlap and their changes add up
 * to far more than the whole.  Each gets a self row, F's own samples (F
 * the leaf, outside iodig's probes), which partition the sampled time and
 * can explain a change; each repeat's self time is its own (trace file
 * 1.4 keeps every repeat's counts).  And each sampled cell gets the count of samples
 * its mean rests on and the Poisson p of its change against A's: a count
 * has noise even in a single run, and 0 samples against 4 is no change.
 * Statistics in docs/statistics.md.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diff.h"
#include "analysis/tracefile.h"
#include "base/poisson.h"

/* The ns per I/O one submission sample of @s stands for; NAN: unknown. */
static double per_sample(const struct tf_sampling *s)
{
	return s && s->basis_ns_per_io > 0 && s->submission_stacked > 0 ?
	       s->basis_ns_per_io / s->submission_stacked : NAN;
}

/* The sampled on-CPU time over the basis, at most 1: applied to a slat
 * that holds time the submitting call slept (a tag wait), which
 * cpu-clock never samples, a share is of the on-CPU part only: else that
 * sleep would swell every function's own time. */
static double on_cpu(const struct tf_sampling *s)
{
	return s->sampled_ns_per_io > 0 ? fmin(1.0, s->sampled_ns_per_io / s->basis_ns_per_io) : 1.0;
}

static const struct tf_sampled_fn *find_fn(const struct tf_sampling *s, const char *fn)
{
	for (size_t i = 0; i < s->nr_fns; i++)
		if (!strcmp(s->fns[i].name, fn))
			return &s->fns[i];
	return NULL;
}

/* Samples whose leaf is @fn and whose stack passes through iodig's
 * probes (a clock read or map lookup of a BPF program): the tracer's
 * time, not @fn's.  From the stacks @s lists, its heaviest. */
static double probe_leaf_samples(const struct tf_sampling *s, const char *fn)
{
	double n = 0;

	for (size_t i = 0; i < s->nr_oncpu; i++) {
		const char *st = s->oncpu[i].stack, *leaf = strrchr(st, ';');
		char frame[256];
		bool probed = false;

		if (!leaf || strcmp(leaf + 1, fn))
			continue;
		for (const char *p = st; p < leaf && !probed; p += strcspn(p, ";") + 1) {
			snprintf(frame, sizeof(frame), "%.*s", (int)strcspn(p, ";"), p);
			probed = diff_is_probe_fn(frame);
		}
		n += probed ? s->oncpu[i].count : 0;
	}
	return n;
}

/* @fn's own samples in @s, outside iodig's probes; 0 when not listed. */
static double own_samples(const struct tf_sampling *s, const char *fn)
{
	const struct tf_sampled_fn *f = find_fn(s, fn);
	double self = f ? f->self_samples - probe_leaf_samples(s, fn) : 0.0;

	return self > 0 ? self : 0.0;
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

/*
 * The self row's value of @fn in each repeat of file @f into @v (their
 * count).  A file that keeps every repeat's breakdown (1.4) gives each
 * repeat its own: its own samples at the ns per I/O one stands for, so
 * the repeats' spread holds the samples' noise.  An older file has the
 * last repeat's only: its share of the function's inclusive samples is
 * applied to each repeat's inclusive time @in.
 */
static size_t self_values(const struct diff *d, size_t f, const char *fn,
			  const struct diff_cell *in, double *v)
{
	const struct tracefile *tf = d->tf[f];
	const struct tf_sampling *last = tf->sampling_last.valid ? &tf->sampling_last : NULL;
	const struct tf_sampled_fn *lf = last ? find_fn(last, fn) : NULL;
	bool each = tf->nr_repeats > 0;
	double ratio;

	for (size_t i = 0; i < tf->nr_repeats; i++)
		each &= tracefile_sampling(tf, i) && !isnan(per_sample(tracefile_sampling(tf, i)));
	if (each) {
		for (size_t i = 0; i < tf->nr_repeats; i++) {
			const struct tf_sampling *s = tracefile_sampling(tf, i);

			v[i] = own_samples(s, fn) * per_sample(s) * on_cpu(s);
		}
		return tf->nr_repeats;
	}
	ratio = lf && lf->samples > 0 && !isnan(per_sample(last)) ?
		own_samples(last, fn) / lf->samples * on_cpu(last) : 0.0;
	for (size_t i = 0; i < in->s.n; i++)
		v[i] = in->v[i] * ratio;
	return in->s.n;
}

/* Row @r, new, as the self row of inclusive row @in, its values in
 * @vals, which it takes (file f's from f * @repeats on, @n[f] of them). */
static void fill_self_row(struct diff *d, struct diff_row *r, const struct diff_row *in,
			  double *vals, const size_t *n, size_t repeats)
{
	char name[256];

	cell_fn(d, in, 0, name, sizeof(name));
	snprintf(r->key, sizeof(r->key), "fn|slat_self|%s|ns_per_io", name);
	snprintf(r->label, sizeof(r->label), "slat (sampled, self)%s",
		 in->label + strcspn(in->label, ")") + 1);
	snprintf(r->note, sizeof(r->note), "%s", in->note);
	r->kind = ROW_FUNCTION;
	r->better = in->better;
	r->own = vals;
	for (size_t f = 0; f < d->nr_files; f++) {
		struct diff_cell *c = &r->cells[f];

		c->sig = SIG_NONE;
		if (!(c->present = in->cells[f].present))
			continue;
		c->v = vals + f * repeats;
		sample_summarize(c->v, n[f], &c->s);
	}
}

/* The self row of inclusive row @src, unless its function has under 1 ns
 * per I/O of its own in every file.  0 or -ENOMEM. */
static int add_self_row(struct diff *d, size_t src)
{
	char section[sizeof(d->rows[0].section)], name[256];
	double most = 0, *vals;
	size_t repeats = 1, *n;
	struct sample_summary s;
	struct diff_row *r;
	int ret = 0;

	for (size_t f = 0; f < d->nr_files; f++)
		repeats = d->tf[f]->nr_repeats > repeats ? d->tf[f]->nr_repeats : repeats;
	vals = calloc(d->nr_files * repeats, sizeof(double));
	n = calloc(d->nr_files, sizeof(*n));
	if (!vals || !n) {
		ret = -ENOMEM;
		goto cleanup;
	}
	for (size_t f = 0; f < d->nr_files; f++) {
		const struct diff_cell *in = &d->rows[src].cells[f];

		if (!in->present)
			continue;
		cell_fn(d, &d->rows[src], f, name, sizeof(name));
		n[f] = self_values(d, f, name, in, vals + f * repeats);
		sample_summarize(vals + f * repeats, n[f], &s);
		most = fmax(most, s.mean);
	}
	if (most < 1.0)
		goto cleanup;
	/* a copy: diff_row_new may move the rows */
	snprintf(section, sizeof(section), "%s", d->rows[src].section);
	r = diff_row_new(d, section, "", "ns/IO");
	if (!r) {
		ret = -ENOMEM;
		goto cleanup;
	}
	fill_self_row(d, r, &d->rows[src], vals, n, repeats);
	vals = NULL;
cleanup:
	free(vals);
	free(n);
	return ret;
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

/* The samples cell @c's values rest on in file @tf, each repeat's time
 * over the ns per I/O one of its samples stands for, and the exposure (the
 * samples 1 ns per I/O would give); false when unknown. */
static bool cell_samples(const struct tracefile *tf, const struct diff_cell *c, double *samples,
			 double *exposure)
{
	*samples = *exposure = 0;
	for (size_t i = 0; i < c->s.n; i++) {
		const struct tf_sampling *s = tracefile_sampling(tf, i);
		double ps = per_sample(s ? s : tf->sampling_last.valid ? &tf->sampling_last : NULL);

		if (isnan(ps))
			return false;
		*samples += c->v[i] / ps;
		*exposure += 1.0 / ps;
	}
	*samples = round(*samples);
	return c->present && c->s.n > 0;
}

void diff_count_samples(struct diff *d)
{
	for (size_t i = 0; i < d->nr_rows; i++) {
		struct diff_row *r = &d->rows[i];
		double k0, e0, k, e;

		for (size_t f = 0; f < d->nr_files; f++)
			r->cells[f].samples = r->cells[f].sample_p = NAN;
		if (!is_sampled_time(r) || !cell_samples(d->tf[0], &r->cells[0], &k0, &e0))
			continue;
		r->cells[0].samples = k0;
		for (size_t f = 1; f < d->nr_files; f++) {
			struct diff_cell *c = &r->cells[f];

			if (!cell_samples(d->tf[f], c, &k, &e))
				continue;
			c->samples = k;
			/* equal ns per I/O expect samples in proportion to
			 * the exposures */
			c->sample_p = poisson_rates_p((uint64_t)k0, e0, (uint64_t)k, e);
		}
	}
}

/* Welch's t over a self row's repeats sees the samples' noise only where
 * each repeat has its own breakdown (1.4); an older file applies one share
 * (the last repeat's) to every repeat.  Either way the samples' Poisson
 * test is a second opinion: a self row is called changed only when it
 * agrees. */
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
