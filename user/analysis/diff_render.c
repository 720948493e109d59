// SPDX-License-Identifier: GPL-2.0
/*
 * Renders the diff model as a terminal table, as Markdown to paste into a
 * mail or review, and as JSON for scripts.  All three print the same rows,
 * the same verdicts and the same warnings.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "analysis/diff.h"
#include "analysis/tracefile.h"

#define TEST_NAME "Welch's two-sided t-test on the repeats' values"

void diff_fmt_value(char *buf, size_t size, double v, const char *unit)
{
	double a = fabs(v);

	if (!strcmp(unit, "ns") || !strcmp(unit, "ns/IO")) {
		const char *sfx = !strcmp(unit, "ns/IO") ? "/IO" : "";

		if (a >= 1e9)
			snprintf(buf, size, "%.3g s%s", v / 1e9, sfx);
		else if (a >= 1e6)
			snprintf(buf, size, "%.3g ms%s", v / 1e6, sfx);
		else if (a >= 1e3)
			snprintf(buf, size, "%.3g us%s", v / 1e3, sfx);
		else
			snprintf(buf, size, "%.3g ns%s", v, sfx);
	} else if (!strcmp(unit, "KiB/s")) {
		if (a >= 1048576.0)
			snprintf(buf, size, "%.3g GiB/s", v / 1048576.0);
		else if (a >= 1024.0)
			snprintf(buf, size, "%.3g MiB/s", v / 1024.0);
		else
			snprintf(buf, size, "%.3g KiB/s", v);
	} else if (!strcmp(unit, "%")) {
		snprintf(buf, size, "%.1f%%", v);
	} else if (a >= 1e6) {
		snprintf(buf, size, "%.3gM%s%s", v / 1e6, unit[0] ? " " : "", unit);
	} else if (a >= 1e4) {
		snprintf(buf, size, "%.3gk%s%s", v / 1e3, unit[0] ? " " : "", unit);
	} else {
		snprintf(buf, size, "%.3g%s%s", v, unit[0] ? " " : "", unit);
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

static void fmt_change(char *buf, size_t size, const struct diff_cell *c, const char *unit)
{
	char v[64];

	if (!c->present || c->sig == SIG_NONE) {
		snprintf(buf, size, "-");
		return;
	}
	diff_fmt_value(v, sizeof(v), c->change, unit);
	if (isnan(c->change_pct) && c->change == 0.0)
		snprintf(buf, size, "0 (same)");
	else if (isnan(c->change_pct))
		snprintf(buf, size, "%s%s (from 0)", c->change >= 0 ? "+" : "", v);
	else
		snprintf(buf, size, "%s%s (%+.1f%%)", c->change >= 0 ? "+" : "", v, c->change_pct);
}

static void fmt_verdict(char *buf, size_t size, const struct diff_cell *c, const char *note,
			bool md)
{
	switch (c->sig) {
	case SIG_CHANGED:
		snprintf(buf, size, md ? "**changed** (p=%.2g)" : "CHANGED p=%.2g", c->w.p);
		break;
	case SIG_NOISE:
		snprintf(buf, size, "noise (p=%.2g)", c->w.p);
		break;
	case SIG_SINGLE:
		snprintf(buf, size, "single run: no significance");
		break;
	case SIG_NONE:
		snprintf(buf, size, "%s", note && note[0] ? note : "-");
		return;
	}
	if (note && note[0]) {
		size_t len = strlen(buf);

		snprintf(buf + len, size - len, "; %s", note);
	}
}

static void header_lines(const struct diff *d, FILE *out, bool md)
{
	for (size_t i = 0; i < d->nr_files; i++) {
		char rel[128], dev[128];

		tracefile_env_str(d->tf[i], "kernel.release", rel, sizeof(rel));
		dev[0] = 0;
		{
			struct json_object *devs = NULL, *d0, *name = NULL;

			if (json_object_object_get_ex(d->tf[i]->env, "devices", &devs) &&
			    json_object_is_type(devs, json_type_array) &&
			    (d0 = json_object_array_get_idx(devs, 0)) &&
			    json_object_object_get_ex(d0, "name", &name))
				snprintf(dev, sizeof(dev), "%s", json_object_get_string(name));
		}
		fprintf(out, md ? "- **%s**: `%s` — %zu repeat%s, kernel %s, device %s\n" :
			"  %s: %s  (%zu repeat%s, kernel %s, device %s)\n",
			d->tags[i], d->tf[i]->name, d->tf[i]->nr_repeats,
			d->tf[i]->nr_repeats == 1 ? "" : "s", rel[0] ? rel : "?", dev[0] ? dev : "?");
	}
	fprintf(out, md ? "\nSignificance: %s, alpha = %g (two-sided); a single run gives no significance.\n" :
		"Significance: %s, alpha = %g; single runs give none.\n", TEST_NAME, d->alpha);
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

int diff_render_text(const struct diff *d, FILE *out)
{
	const char *section = NULL;

	fprintf(out, "iodig diff (each file against A)\n");
	header_lines(d, out, false);
	note_lines(d, out, false);
	for (size_t r = 0; r < d->nr_rows; r++) {
		const struct diff_row *row = &d->rows[r];

		if (!section || strcmp(section, row->section)) {
			section = row->section;
			fprintf(out, "\n%-44s", section);
			for (size_t i = 0; i < d->nr_files; i++)
				fprintf(out, " %18s", d->tags[i]);
			for (size_t i = 1; i < d->nr_files; i++)
				fprintf(out, "  %-22s %s", d->nr_files > 2 ? d->tags[i] : "change", "verdict");
			fputc('\n', out);
		}
		fprintf(out, "  %-42.80s", row->label);
		for (size_t i = 0; i < d->nr_files; i++) {
			char v[96];

			fmt_cell(v, sizeof(v), &row->cells[i], row->unit);
			fprintf(out, " %18s", v);
		}
		for (size_t i = 1; i < d->nr_files; i++) {
			char ch[96], verdict[256];

			fmt_change(ch, sizeof(ch), &row->cells[i], row->unit);
			fmt_verdict(verdict, sizeof(verdict), &row->cells[i], i == 1 ? row->note : NULL, false);
			fprintf(out, "  %-22s %s", ch, verdict);
		}
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}

/* Markdown cells must not contain a bare '|'. */
static void md_cell(FILE *out, const char *s)
{
	fputs(" ", out);
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else
			fputc(*s, out);
	}
	fputs(" |", out);
}

int diff_render_md(const struct diff *d, FILE *out)
{
	const char *section = NULL;

	fprintf(out, "### iodig diff\n\n");
	header_lines(d, out, true);
	note_lines(d, out, true);
	for (size_t r = 0; r < d->nr_rows; r++) {
		const struct diff_row *row = &d->rows[r];

		if (!section || strcmp(section, row->section)) {
			section = row->section;
			fprintf(out, "\n| %s |", section);
			for (size_t i = 0; i < d->nr_files; i++)
				fprintf(out, " %s |", d->tags[i]);
			for (size_t i = 1; i < d->nr_files; i++)
				fprintf(out, " %s vs A | significance |", d->tags[i]);
			fprintf(out, "\n|---|");
			for (size_t i = 0; i < d->nr_files; i++)
				fprintf(out, "---:|");
			for (size_t i = 1; i < d->nr_files; i++)
				fprintf(out, "---:|---|");
			fputc('\n', out);
		}
		fputc('|', out);
		md_cell(out, row->label);
		for (size_t i = 0; i < d->nr_files; i++) {
			char v[96];

			fmt_cell(v, sizeof(v), &row->cells[i], row->unit);
			md_cell(out, v);
		}
		for (size_t i = 1; i < d->nr_files; i++) {
			char ch[96], verdict[256];

			fmt_change(ch, sizeof(ch), &row->cells[i], row->unit);
			fmt_verdict(verdict, sizeof(verdict), &row->cells[i], i == 1 ? row->note : NULL, true);
			md_cell(out, ch);
			md_cell(out, verdict);
		}
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}

static struct json_object *jnum(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static const char *sig_name(enum diff_sig s)
{
	return s == SIG_CHANGED ? "changed" : s == SIG_NOISE ? "noise" :
	       s == SIG_SINGLE ? "single run: no significance" : "n/a";
}

static struct json_object *json_row(const struct diff *d, const struct diff_row *row)
{
	struct json_object *o = json_object_new_object(), *vals = json_object_new_array();

	json_object_object_add(o, "section", json_object_new_string(row->section));
	json_object_object_add(o, "figure", json_object_new_string(row->label));
	json_object_object_add(o, "unit", json_object_new_string(row->unit));
	if (row->note[0])
		json_object_object_add(o, "note", json_object_new_string(row->note));
	for (size_t i = 0; i < d->nr_files; i++) {
		const struct diff_cell *c = &row->cells[i];
		struct json_object *v = json_object_new_object();

		json_object_object_add(v, "file", json_object_new_string(d->tags[i]));
		json_object_object_add(v, "present", json_object_new_boolean(c->present));
		if (c->present) {
			json_object_object_add(v, "n", json_object_new_int((int)c->s.n));
			json_object_object_add(v, "mean", jnum(c->s.mean));
			json_object_object_add(v, "stdev", jnum(c->s.stdev));
			json_object_object_add(v, "ci95_half", jnum(c->s.ci95_half));
		}
		if (i && c->sig != SIG_NONE) {
			json_object_object_add(v, "change", jnum(c->change));
			json_object_object_add(v, "change_pct", jnum(c->change_pct));
			json_object_object_add(v, "verdict", json_object_new_string(sig_name(c->sig)));
			if (c->w.valid) {
				json_object_object_add(v, "t", jnum(c->w.t));
				json_object_object_add(v, "df", jnum(c->w.df));
				json_object_object_add(v, "p", jnum(c->w.p));
			}
		}
		json_object_array_add(vals, v);
	}
	json_object_object_add(o, "values", vals);
	return o;
}

int diff_render_json(const struct diff *d, FILE *out)
{
	struct json_object *root = json_object_new_object(), *files, *arr;
	const char *text;
	int ret = 0;

	if (!root)
		return -ENOMEM;
	json_object_object_add(root, "test", json_object_new_string(TEST_NAME));
	json_object_object_add(root, "alpha", json_object_new_double(d->alpha));
	files = json_object_new_array();
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
	json_object_object_add(root, "files", files);
	arr = json_object_new_array();
	for (size_t i = 0; i < d->nr_warnings; i++)
		json_object_array_add(arr, json_object_new_string(d->warnings[i]));
	json_object_object_add(root, "warnings", arr);
	arr = json_object_new_array();
	for (size_t i = 0; i < d->nr_kernel_notes; i++)
		json_object_array_add(arr, json_object_new_string(d->kernel_notes[i]));
	json_object_object_add(root, "kernel_differences", arr);
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
