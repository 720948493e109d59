// SPDX-License-Identifier: GPL-2.0
/*
 * Renders the diff model as a terminal table and as Markdown to paste into
 * a mail or review (JSON for scripts: diff_render_json.c).  All print the
 * same story: the headline, the kernel rows ranked by their share of the
 * change, a count of the rows folded away (all of them with --all), iodig's
 * own probes apart, then the warnings and the kernel difference.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "base/scale.h"
#include "analysis/diff.h"
#include "analysis/tracefile.h"


static const struct scale_step scale_kib_rate[] = {
	{ 1048576.0, 1048576.0, "GiB/s" },
	{ 1024.0, 1024.0, "MiB/s" },
	{ 0, 1, "KiB/s" },
};

/* Counts keep four digits before they turn to k. */
static const struct scale_step scale_count[] = {
	{ 1e6, 1e6, "M" },
	{ 1e4, 1e3, "k" },
	{ 0, 1, "" },
};

void diff_fmt_value(char *buf, size_t size, double v, const char *unit)
{
	double a = fabs(v);
	const struct scale_step *s;

	if (!strcmp(unit, "ns") || !strcmp(unit, "ns/IO")) {
		s = scale_find(scale_ns, a);
		snprintf(buf, size, "%.3g %s%s", v / s->div, s->name,
			 !strcmp(unit, "ns/IO") ? "/IO" : "");
	} else if (!strcmp(unit, "KiB/s")) {
		s = scale_find(scale_kib_rate, a);
		snprintf(buf, size, "%.3g %s", v / s->div, s->name);
	} else if (!strcmp(unit, "%")) {
		snprintf(buf, size, "%.1f%%", v);
	} else {
		s = scale_find(scale_count, a);
		snprintf(buf, size, "%.3g%s%s%s", v / s->div, s->name,
			 unit[0] ? " " : "", unit);
	}
}

/* "12.3 us ±1.2%" (relative stdev of the repeats) or "-" when absent. */
static void fmt_cell(char *buf, size_t size, const struct diff_cell *c, const char *unit)
{
	char v[64];

	if (!c->present) {
		snprintf(buf, size, "-");
		return;
	}
	diff_fmt_value(v, sizeof(v), c->s.mean, unit);
	if (c->s.n >= 2 && c->s.mean != 0.0)
		snprintf(buf, size, "%s ±%.1f%%", v, 100.0 * c->s.stdev / fabs(c->s.mean));
	else
		snprintf(buf, size, "%s", v);
}

/* "+1.2 us (+5.0%) ±0.3 us": the change, and its 95% CI with repeats. */
static void fmt_change(char *buf, size_t size, const struct diff_cell *c, const char *unit)
{
	char v[64], ci[64] = "";

	if (!c->present || c->sig == SIG_NONE) {
		snprintf(buf, size, "-");
		return;
	}
	diff_fmt_value(v, sizeof(v), c->change, unit);
	if (c->w.valid && c->w.ci95_half > 0.0) {
		ci[0] = ' ';
		ci[1] = 0;
		strcat(ci, "±");
		diff_fmt_value(ci + strlen(ci), sizeof(ci) - strlen(ci), c->w.ci95_half, unit);
	}
	if (isnan(c->change_pct) && c->change == 0.0)
		snprintf(buf, size, "0 (same)");
	else if (isnan(c->change_pct))
		snprintf(buf, size, "%s%s (from 0)%s", c->change >= 0 ? "+" : "", v, ci);
	else
		snprintf(buf, size, "%s%s (%+.1f%%)%s", c->change >= 0 ? "+" : "", v, c->change_pct, ci);
}

const char *diff_test_name(enum diff_test t)
{
	return t == DIFF_TEST_WELCH ? "Welch t" : t == DIFF_TEST_MWU_EXACT ? "Mann-Whitney U exact" :
	       t == DIFF_TEST_MWU_NORMAL ? "Mann-Whitney U normal" : "none";
}

const char *diff_sig_name(enum diff_sig s)
{
	return s == SIG_CHANGED ? "changed" : s == SIG_NOISE ? "noise" :
	       s == SIG_SMALL ? "below --min-change" :
	       s == SIG_SINGLE ? "single run: no significance" : "n/a";
}

static void fmt_verdict(char *buf, size_t size, const struct diff_cell *c, const char *note,
			bool md)
{
	size_t len;

	switch (c->sig) {
	case SIG_CHANGED:
	case SIG_NOISE:
	case SIG_SMALL:
		snprintf(buf, size, "%s (%s p=%.2g q=%.2g)",
			 c->sig != SIG_CHANGED ? diff_sig_name(c->sig) : md ? "**changed**" : "CHANGED",
			 diff_test_name(c->test), c->p, c->q);
		break;
	case SIG_SINGLE:
		snprintf(buf, size, "single run: no significance");
		break;
	case SIG_NONE:
		snprintf(buf, size, "%s", note && note[0] ? note : "-");
		return;
	}
	len = strlen(buf);
	if (note && note[0])
		snprintf(buf + len, size - len, "; %s", note);
}

/* A sampled row's counts: "12 vs 0 samples, Poisson p=0.011", and
 * whether that is within the samples' noise. */
static void fmt_samples(char *buf, size_t size, const struct diff_row *r)
{
	const struct diff_cell *a = &r->cells[0], *b = &r->cells[1];

	buf[0] = 0;
	if (isnan(b->sample_p))
		return;
	snprintf(buf, size, "; %s%.0f vs %.0f samples, Poisson p=%.2g%s",
		 r->sampling_noise ? "within sampling noise (" : "", a->samples, b->samples,
		 b->sample_p, r->sampling_noise ? ")" : "");
}

/* "~85% of Δlat", or the time with no share; for a count whose time is
 * another row's, that row's; a context row says why it is one; a sampled
 * row adds its sample counts.  Or "". */
static void fmt_explains(char *buf, size_t size, const struct diff *d, const struct diff_row *r)
{
	const struct diff_row *t = r->time_row >= 0 ? &d->rows[r->time_row] : r;
	const char *prefix = t != r ? "time row: " : "";
	char v[64], extra[128];
	size_t len;

	if (!isnan(t->explains_pct)) {
		snprintf(buf, size, "%s~%.0f%% of Δlat", prefix, t->explains_pct);
	} else if (!isnan(t->time_delta) && (t != r || t->time_delta != 0.0)) {
		diff_fmt_value(v, sizeof(v), t->time_delta, "ns/IO");
		snprintf(buf, size, "%s%s%s", prefix, t->time_delta > 0 ? "+" : "", v);
	} else {
		buf[0] = 0;
		return;
	}
	len = strlen(buf);
	if (t->context)
		snprintf(buf + len, size - len, "; %s", t->context);
	len = strlen(buf);
	fmt_samples(extra, sizeof(extra), t);
	if (t == r)
		snprintf(buf + len, size - len, "%s", extra);
}

/* Text or Markdown: one table's cells, in the same order for both. */
struct table_out {
	FILE *out;
	bool md;
	bool explains;             /* the story's last column */
};

static void put_cell(const struct table_out *t, const char *s, int width, bool first)
{
	if (!t->md) {
		fprintf(t->out, first ? "  %-*.80s" : " %*s", width, s);
		return;
	}
	fputs(first ? "| " : " ", t->out);
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", t->out);
		else
			fputc(*s, t->out);
	}
	fputs(" |", t->out);
}

static void table_head(const struct diff *d, const struct table_out *t, const char *title)
{
	if (t->md) {
		fprintf(t->out, "\n| %s |", title);
		for (size_t i = 0; i < d->nr_files; i++)
			fprintf(t->out, " %s |", d->tags[i]);
		for (size_t i = 1; i < d->nr_files; i++)
			fprintf(t->out, " %s vs A (95%% CI) | verdict |", d->tags[i]);
		fprintf(t->out, "%s\n|---|", t->explains ? " explains |" : "");
		for (size_t i = 0; i < d->nr_files; i++)
			fputs("---:|", t->out);
		for (size_t i = 1; i < d->nr_files; i++)
			fputs("---:|---|", t->out);
		fputs(t->explains ? "---:|\n" : "\n", t->out);
		return;
	}
	fprintf(t->out, "\n%-44s", title);
	for (size_t i = 0; i < d->nr_files; i++)
		fprintf(t->out, " %18s", d->tags[i]);
	for (size_t i = 1; i < d->nr_files; i++)
		fprintf(t->out, "  %-36s %-44s", d->nr_files > 2 ? d->tags[i] : "change (95% CI)",
			"verdict");
	fprintf(t->out, "%s\n", t->explains ? " explains" : "");
}

static void table_row(const struct diff *d, const struct table_out *t, const struct diff_row *row)
{
	char v[96], verdict[256];

	put_cell(t, row->label, 42, true);
	for (size_t i = 0; i < d->nr_files; i++) {
		fmt_cell(v, sizeof(v), &row->cells[i], row->unit);
		put_cell(t, v, 18, false);
	}
	for (size_t i = 1; i < d->nr_files; i++) {
		fmt_change(v, sizeof(v), &row->cells[i], row->unit);
		fmt_verdict(verdict, sizeof(verdict), &row->cells[i], i == 1 ? row->note : NULL, t->md);
		if (t->md) {
			put_cell(t, v, 0, false);
			put_cell(t, verdict, 0, false);
		} else {
			fprintf(t->out, "  %-36s %-44s", v, verdict);
		}
	}
	if (t->explains) {
		fmt_explains(v, sizeof(v), d, row);
		put_cell(t, v, 0, false);
	}
	fputc('\n', t->out);
}

static void header_lines(const struct diff *d, FILE *out, bool md)
{
	for (size_t i = 0; i < d->nr_files; i++) {
		char rel[128], dev[128];

		tracefile_env_str(d->tf[i], "kernel.release", rel, sizeof(rel));
		tracefile_env_str(d->tf[i], "devices.0.name", dev, sizeof(dev));
		fprintf(out, md ? "- **%s**: `%s` — %zu repeat%s, kernel %s, device %s\n" :
			"  %s: %s  (%zu repeat%s, kernel %s, device %s)\n",
			d->tags[i], d->tf[i]->name, d->tf[i]->nr_repeats,
			d->tf[i]->nr_repeats == 1 ? "" : "s", rel[0] ? rel : "?", dev[0] ? dev : "?");
	}
	fprintf(out, "%sEach repeat is one sample: means by Welch's t, percentiles by the Mann-Whitney U "
		"test; Benjamini-Hochberg over the %zu tested rows: changed when q < %g and the "
		"change is at least %g%%; single runs give no significance.\n",
		md ? "\n" : "", d->nr_tested, d->alpha, d->min_change);
}

/* The warnings, then the kernel notes, as text or Markdown lists. */
static void note_lines(const struct diff *d, FILE *out, bool md)
{
	if (d->nr_warnings) {
		fputs(md ? "\n**Warnings** (the comparison may not be fair):\n\n" :
		      "\nWarnings (the comparison may not be fair):\n", out);
		for (size_t i = 0; i < d->nr_warnings; i++)
			fprintf(out, "%s%s\n", md ? "- " : "  ! ", d->warnings[i]);
	}
	fputs(md ? "\n**Kernel:**\n\n" : "\nKernel:\n", out);
	for (size_t i = 0; i < d->nr_kernel_notes; i++)
		fprintf(out, "%s%s\n", md ? "- " : "  ", d->kernel_notes[i]);
}

/* "What changed in the kernel, by share of Δ lat avg (+1.2 us)". */
static void story_title(const struct diff *d, char *buf, size_t size)
{
	char v[64];
	const struct diff_cell *c;

	if (d->lat_row < 0) {
		snprintf(buf, size, "Kernel rows, by change (no lat avg to share)");
		return;
	}
	c = &d->rows[d->lat_row].cells[1];
	diff_fmt_value(v, sizeof(v), c->change, "ns");
	snprintf(buf, size, "Kernel, by share of Δ lat avg (%s%s%s)", c->change >= 0 ? "+" : "", v,
		 c->sig == SIG_CHANGED ? "" : ", not significant");
}

/* Every row by section, as before the story: --all, or more than two
 * files. */
static void all_rows(const struct diff *d, const struct table_out *t)
{
	const char *section = NULL;

	fprintf(t->out, t->md ? "\n#### Every figure\n" : "\nEvery figure:\n");
	for (size_t r = 0; r < d->nr_rows; r++) {
		const struct diff_row *row = &d->rows[r];

		if (!section || strcmp(section, row->section)) {
			section = row->section;
			table_head(d, t, section);
		}
		table_row(d, t, row);
	}
}

static int render(const struct diff *d, FILE *out, bool md)
{
	struct table_out t = { out, md, false };
	char title[160];
	size_t shown = d->all ? d->nr_story : d->nr_story_shown;

	fprintf(out, md ? "### iodig diff\n\n" : "iodig diff (each file against A)\n");
	header_lines(d, out, md);
	table_head(d, &t, "Headline");
	for (size_t i = 0; i < d->nr_headline; i++)
		table_row(d, &t, &d->rows[d->headline[i]]);
	if (d->nr_story) {
		t.explains = true;
		story_title(d, title, sizeof(title));
		table_head(d, &t, title);
		for (size_t i = 0; i < shown; i++)
			table_row(d, &t, &d->rows[d->story[i]]);
		if (shown < d->nr_story)
			fprintf(out, md ? "\n%zu kernel rows with no significant change are folded "
				"(`--all` shows them).\n" : "  (%zu kernel rows with no significant "
				"change folded; --all shows them)\n", d->nr_story - shown);
	}
	if (d->probes_row >= 0) {
		table_head(d, &t, "iodig's probes (not the kernel's I/O path)");
		table_row(d, &t, &d->rows[d->probes_row]);
	}
	note_lines(d, out, md);
	t.explains = false;
	if (d->all)
		all_rows(d, &t);
	return ferror(out) ? -EIO : 0;
}

int diff_render_text(const struct diff *d, FILE *out)
{
	return render(d, out, false);
}

int diff_render_md(const struct diff *d, FILE *out)
{
	return render(d, out, true);
}
