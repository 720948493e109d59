// SPDX-License-Identifier: GPL-2.0
/*
 * The diff model: one row per figure, one cell per trace file, each cell
 * compared with the first file (the baseline).  Significance is Welch's
 * two-sided t-test on the repeats' values, only when both sides have at
 * least two; a single run gives no estimate of noise, so none is guessed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json-c/json.h>

#include "analysis/diff.h"
#include "analysis/pictures.h"
#include "analysis/tracefile.h"

int diff_parse_format(const char *s, enum diff_format *out, struct errbuf *err)
{
	if (!strcmp(s, "text"))
		*out = DIFF_TEXT;
	else if (!strcmp(s, "json"))
		*out = DIFF_JSON;
	else if (!strcmp(s, "md") || !strcmp(s, "markdown"))
		*out = DIFF_MD;
	else
		return err_set(err, EINVAL, "option --format: '%s' is not one of text, json, md", s);
	return 0;
}

int diff_parse_min_change(const char *s, double *out, struct errbuf *err)
{
	char *end;
	double v = strtod(s, &end);

	if (end != s && *end == '%')
		end++;
	if (end == s || *end || !(v >= 0.0 && v <= 1000.0))
		return err_set(err, EINVAL, "option --min-change: '%s' is not a percentage from 0 to 1000 (2 or 2%%)", s);
	*out = v;
	return 0;
}

/* Splits "METRIC[:PCT]"; the percentage NAN when not given. */
static int split_fail_on(const char *s, char *metric, size_t size, double *pct,
			 struct errbuf *err)
{
	const char *colon = strrchr(s, ':');
	size_t len = colon ? (size_t)(colon - s) : strlen(s);

	*pct = NAN;
	if (!len || len >= size)
		return err_set(err, EINVAL, "option --fail-on: '%s' names no metric (iops, lat_p99_ns:5, \"lat p99:5%%\")", s);
	snprintf(metric, size, "%.*s", (int)len, s);
	if (colon)
		return diff_parse_min_change(colon + 1, pct, err) ?
		       err_set(err, EINVAL, "option --fail-on: '%s' is not a percentage in '%s'",
			       colon + 1, s) : 0;
	return 0;
}

int diff_parse_fail_on(const char *s, struct errbuf *err)
{
	char metric[256];
	double pct;

	return split_fail_on(s, metric, sizeof(metric), &pct, err);
}

/* --fail-on: whether B is significantly worse than A on the metric, by
 * at least the percentage (default --min-change). */
static int check_fail_on(const struct diff *d, const char *spec, double min_change,
			 struct diff_outcome *out, struct errbuf *err)
{
	char metric[256], change[48];
	const struct diff_cell *c;
	const struct diff_row *r;
	double pct;
	long i;
	bool worse;
	int ret = split_fail_on(spec, metric, sizeof(metric), &pct, err);

	if (ret)
		return ret;
	i = diff_find_row(d, metric);
	if (i < 0)
		return err_set(err, ENOENT, "option --fail-on: no figure '%s' in %s and %s (keys such as iops, lat_p99_ns, kernel.punt_ratio, or a row's label)",
			       metric, d->tf[0]->name, d->tf[1]->name);
	r = &d->rows[i];
	c = &r->cells[1];
	if (isnan(pct))
		pct = min_change;
	worse = r->better == FIGURE_HIGHER ? c->change < 0 : r->better == FIGURE_LOWER ?
		c->change > 0 : c->change != 0;
	out->worse = c->sig == SIG_CHANGED && worse &&
		     (isnan(c->change_pct) || fabs(c->change_pct) >= pct);
	/* a change from 0 has no percentage */
	if (isnan(c->change_pct))
		snprintf(change, sizeof(change), "from 0 to %.3g", c->s.mean);
	else
		snprintf(change, sizeof(change), "%+.1f%%", c->change_pct);
	snprintf(out->why, sizeof(out->why), "%s: B %s A: %s (%s, q=%.2g; limit %g%%)",
		 r->label, out->worse ? "is worse than" : "is not significantly worse than",
		 change, diff_sig_name(c->sig), c->q, pct);
	return 0;
}

static void add_note(char ***list, size_t *nr, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add_note(char ***list, size_t *nr, const char *fmt, ...)
{
	char **p = realloc(*list, (*nr + 1) * sizeof(char *));
	va_list ap;
	char *s = NULL;

	if (!p)
		return;
	*list = p;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) >= 0)
		p[(*nr)++] = s;
	va_end(ap);
}

void diff_free(struct diff *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->nr_files; i++)
		tracefile_free(d->tf[i]);
	for (size_t i = 0; i < d->nr_rows; i++) {
		free(d->rows[i].cells);
		free(d->rows[i].own);
	}
	free(d->headline);
	free(d->story);
	for (size_t i = 0; i < d->nr_warnings; i++)
		free(d->warnings[i]);
	for (size_t i = 0; i < d->nr_kernel_notes; i++)
		free(d->kernel_notes[i]);
	free(d->warnings);
	free(d->kernel_notes);
	free(d->rows);
	free(d->tf);
	free(d->tags);
	free(d);
}

/* ---- environment ---- */

static void env_compare(struct diff *d, size_t i, const char *path, const char *what)
{
	char a[1024], b[1024];

	tracefile_env_str(d->tf[0], path, a, sizeof(a));
	tracefile_env_str(d->tf[i], path, b, sizeof(b));
	if (strcmp(a, b))
		add_note(&d->warnings, &d->nr_warnings, "%s differs: %s %s, %s %s (%s vs %s)",
			 what, d->tags[0], d->tf[0]->name, d->tags[i], d->tf[i]->name, a, b);
}

/* The clocksource (from 1.4) prices every timestamp the kernel and
 * iodig's probes take: a slow one (hpet in a VM) swells every path that
 * reads the clock.  Files without it say nothing. */
static void clocksource_compare(struct diff *d, size_t i)
{
	char a[64], b[64];

	tracefile_env_str(d->tf[0], "kernel.clocksource", a, sizeof(a));
	tracefile_env_str(d->tf[i], "kernel.clocksource", b, sizeof(b));
	if (a[0] && b[0] && strcmp(a, b))
		add_note(&d->warnings, &d->nr_warnings, "clocksource differs: %s reads the clock "
			 "from %s, %s from %s; every clock read (the kernel's timestamps, the "
			 "probes' timing) costs differently", d->tags[0], a, d->tags[i], b);
}

static struct json_object *first_device(const struct tracefile *tf)
{
	struct json_object *devs = NULL;

	if (!json_object_object_get_ex(tf->env, "devices", &devs) ||
	    !json_object_is_type(devs, json_type_array))
		return NULL;
	return json_object_array_get_idx(devs, 0);
}

static void dev_attr(struct json_object *dev, const char *attr, char *buf, size_t size)
{
	struct json_object *v = NULL;

	if (dev)
		json_object_object_get_ex(dev, attr, &v);
	snprintf(buf, size, "%s", v ? json_object_get_string(v) : "none");
}

/* "loop" for loop3, "zram" for zram0: iodig's scratch loop device gets a
 * new number each run, which is no difference worth a warning. */
static bool same_device_kind(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (!strcmp(a, b))
		return true;
	while (la && a[la - 1] >= '0' && a[la - 1] <= '9')
		la--;
	while (lb && b[lb - 1] >= '0' && b[lb - 1] <= '9')
		lb--;
	return la == lb && !strncmp(a, b, la) && (!strncmp(a, "loop", 4) || !strncmp(a, "ram", 3));
}

static void devices_compare(struct diff *d, size_t i)
{
	static const char *const attrs[] = {
		"scheduler", "nr_requests", "logical_block_size", "rotational",
		"write_cache", "nowait", "max_sectors_kb", "model",
	};
	struct json_object *da = first_device(d->tf[0]), *db = first_device(d->tf[i]);
	char a[256], b[256];

	dev_attr(da, "name", a, sizeof(a));
	dev_attr(db, "name", b, sizeof(b));
	if (!same_device_kind(a, b))
		add_note(&d->warnings, &d->nr_warnings, "different target device: %s ran on %s, %s on %s",
			 d->tags[0], a, d->tags[i], b);
	for (size_t k = 0; k < sizeof(attrs) / sizeof(attrs[0]); k++) {
		dev_attr(da, attrs[k], a, sizeof(a));
		dev_attr(db, attrs[k], b, sizeof(b));
		if (strcmp(a, b))
			add_note(&d->warnings, &d->nr_warnings, "queue setting differs: %s is %s in %s, %s in %s",
				 attrs[k], a, d->tags[0], b, d->tags[i]);
	}
}

/* The options that differ between the jobs, "rw: randread vs randwrite". */
static void jobs_compare(struct diff *d, size_t i)
{
	struct json_object *ja = NULL, *jb = NULL;
	char buf[1024] = "";
	size_t off = 0, na, nb;

	json_object_object_get_ex(d->tf[0]->env, "jobs", &ja);
	json_object_object_get_ex(d->tf[i]->env, "jobs", &jb);
	na = ja && json_object_is_type(ja, json_type_array) ? json_object_array_length(ja) : 0;
	nb = jb && json_object_is_type(jb, json_type_array) ? json_object_array_length(jb) : 0;
	if (na != nb) {
		add_note(&d->warnings, &d->nr_warnings, "the job differs: %s has %zu jobs, %s has %zu",
			 d->tags[0], na, d->tags[i], nb);
		return;
	}
	for (size_t j = 0; j < na; j++) {
		struct json_object *oa = json_object_array_get_idx(ja, j);
		struct json_object *ob = json_object_array_get_idx(jb, j);

		if (!json_object_is_type(oa, json_type_object) || !json_object_is_type(ob, json_type_object))
			continue;
		json_object_object_foreach(oa, key, va) {
			struct json_object *vb = NULL;
			const char *sa = json_object_get_string(va), *sb;

			json_object_object_get_ex(ob, key, &vb);
			sb = vb ? json_object_get_string(vb) : "(unset)";
			if (strcmp(sa, sb) && off < sizeof(buf))
				off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%s: %s vs %s",
							off ? ", " : "", key, sa, sb);
		}
		json_object_object_foreach(ob, key2, vb2) {
			if (!json_object_object_get_ex(oa, key2, NULL) && off < sizeof(buf))
				off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%s: (unset) vs %s",
							off ? ", " : "", key2, json_object_get_string(vb2));
		}
	}
	if (off)
		add_note(&d->warnings, &d->nr_warnings, "the job differs (%s vs %s): %s",
			 d->tags[0], d->tags[i], buf);
}

/* Kernel config options that differ, as "CONFIG_X: y → n". */
static void config_compare(struct diff *d, size_t i)
{
	struct json_object *ca = NULL, *cb = NULL;
	char a[128], b[128];

	json_object_object_get_ex(json_object_object_get(json_object_object_get(d->tf[0]->env, "kernel"),
							 "config"), "options", &ca);
	json_object_object_get_ex(json_object_object_get(json_object_object_get(d->tf[i]->env, "kernel"),
							 "config"), "options", &cb);
	if (!ca || !cb || !json_object_is_type(ca, json_type_object) ||
	    !json_object_is_type(cb, json_type_object))
		return;
	json_object_object_foreach(ca, key, va) {
		struct json_object *vb = NULL;

		json_object_object_get_ex(cb, key, &vb);
		snprintf(a, sizeof(a), "%s", json_object_get_string(va));
		snprintf(b, sizeof(b), "%s", vb ? json_object_get_string(vb) : "(absent)");
		if (strcmp(a, b))
			add_note(&d->kernel_notes, &d->nr_kernel_notes, "%s: %s=%s, %s=%s",
				 key, d->tags[0], a, d->tags[i], b);
	}
	json_object_object_foreach(cb, key2, vb2) {
		if (!json_object_object_get_ex(ca, key2, NULL))
			add_note(&d->kernel_notes, &d->nr_kernel_notes, "%s: %s=(absent), %s=%s",
				 key2, d->tags[0], d->tags[i], json_object_get_string(vb2));
	}
}

static void kernel_compare(struct diff *d, size_t i)
{
	char ra[256], rb[256], va[256], vb[256], ha[80], hb[80];

	tracefile_env_str(d->tf[0], "kernel.release", ra, sizeof(ra));
	tracefile_env_str(d->tf[i], "kernel.release", rb, sizeof(rb));
	tracefile_env_str(d->tf[0], "kernel.version", va, sizeof(va));
	tracefile_env_str(d->tf[i], "kernel.version", vb, sizeof(vb));
	tracefile_env_str(d->tf[0], "kernel.config.sha256", ha, sizeof(ha));
	tracefile_env_str(d->tf[i], "kernel.config.sha256", hb, sizeof(hb));
	if (strcmp(ra, rb) || strcmp(va, vb))
		add_note(&d->kernel_notes, &d->nr_kernel_notes, "kernel: %s runs %s (%s), %s runs %s (%s)",
			 d->tags[0], ra, va, d->tags[i], rb, vb);
	else if (i == 1)
		add_note(&d->kernel_notes, &d->nr_kernel_notes, "kernel: the same in %s and %s: %s (%s)",
			 d->tags[0], d->tags[i], ra, va);
	if (strcmp(ha, hb)) {
		add_note(&d->kernel_notes, &d->nr_kernel_notes, "kernel config digest: %s %.12s, %s %.12s",
			 d->tags[0], ha, d->tags[i], hb);
		config_compare(d, i);
	}
}

static void env_all(struct diff *d)
{
	for (size_t i = 1; i < d->nr_files; i++) {
		if (d->tf[0]->major != d->tf[i]->major || d->tf[0]->minor != d->tf[i]->minor)
			add_note(&d->warnings, &d->nr_warnings,
				 "trace versions differ: %s is %d.%d, %s is %d.%d; fields only one has are left out",
				 d->tf[0]->name, d->tf[0]->major, d->tf[0]->minor,
				 d->tf[i]->name, d->tf[i]->major, d->tf[i]->minor);
		devices_compare(d, i);
		env_compare(d, i, "cpu.online", "CPU count");
		env_compare(d, i, "cpu.model", "CPU model");
		env_compare(d, i, "memory.total_kib", "memory");
		jobs_compare(d, i);
		env_compare(d, i, "cmdline", "boot command line");
		clocksource_compare(d, i);
		env_compare(d, i, "probes", "probe mechanisms");
		kernel_compare(d, i);
	}
}

int diff_build(struct tracefile **tf, size_t n, const struct diff_opts *o,
	       struct diff **out, struct errbuf *err)
{
	struct diff *d = calloc(1, sizeof(*d));
	int ret = 0;

	*out = NULL;
	if (!d)
		return err_set(err, ENOMEM, "out of memory comparing trace files");
	d->nr_files = n;
	d->alpha = o->alpha;
	d->min_change = o->min_change;
	d->all = o->all;
	d->probes_row = d->lat_row = d->slat_row = -1;
	d->tf = calloc(n, sizeof(*d->tf));
	d->tags = calloc(n, sizeof(*d->tags));
	if (!d->tf || !d->tags) {
		diff_free(d);
		return err_set(err, ENOMEM, "out of memory comparing trace files");
	}
	for (size_t i = 0; i < n; i++) {
		d->tf[i] = tf[i];
		tf[i] = NULL;
		if (i < 26)
			snprintf(d->tags[i], sizeof(d->tags[i]), "%c", (char)('A' + i));
		else
			snprintf(d->tags[i], sizeof(d->tags[i]), "%zu", i + 1);
	}
	ret = diff_add_rows(d);
	if (!ret)
		ret = diff_add_self_rows(d);
	if (!ret)
		ret = diff_add_probes_row(d);
	if (!ret)
		ret = diff_judge(d);
	if (!ret) {
		diff_count_samples(d);
		diff_judge_self_rows(d);
		ret = diff_tell(d);
	}
	if (ret) {
		diff_free(d);
		return err_set(err, -ret, "out of memory comparing trace files");
	}
	env_all(d);
	*out = d;
	return 0;
}

/* The same file twice compares a run with itself: refuse it by inode. */
static int check_distinct(const char *const *paths, size_t n, struct errbuf *err)
{
	struct stat *st = calloc(n, sizeof(*st));

	if (!st)
		return err_set(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		if (stat(paths[i], &st[i])) {
			int e = errno;

			free(st);
			return err_set(err, e, "%s: cannot open: %s", paths[i], strerror(e));
		}
		for (size_t j = 0; j < i; j++) {
			if (st[i].st_dev == st[j].st_dev && st[i].st_ino == st[j].st_ino) {
				free(st);
				return err_set(err, EINVAL, "%s is given twice (as file %zu and %zu); a run compared with itself shows nothing",
					       paths[i], j + 1, i + 1);
			}
		}
	}
	free(st);
	return 0;
}

int diff_loaded(struct tracefile **tf, size_t n, const struct diff_opts *o,
		FILE *out, FILE *warn, struct diff_outcome *outcome, struct errbuf *err)
{
	struct diff *d = NULL;
	int ret = diff_build(tf, n, o, &d, err);

	if (ret)
		return ret;
	for (size_t i = 0; warn && i < d->nr_warnings; i++)
		fprintf(warn, "iodig: warning: %s\n", d->warnings[i]);
	if (o->fail_on && outcome)
		ret = check_fail_on(d, o->fail_on, o->min_change, outcome, err);
	if (ret)
		goto cleanup;
	if (o->format == DIFF_JSON)
		ret = diff_render_json(d, out);
	else if (o->format == DIFF_MD)
		ret = diff_render_md(d, out);
	else
		ret = diff_render_text(d, out);
	if (ret) {
		ret = err_set(err, -ret, "writing the comparison failed: %s", strerror(-ret));
		goto cleanup;
	}
	if (o->svg_dir)
		ret = pictures_write_diff((const struct tracefile *const *)d->tf, d->nr_files,
				     o->svg_dir, o->steady, err);
cleanup:
	diff_free(d);
	return ret;
}

int diff_files(const char *const *paths, size_t n, const struct diff_opts *o,
	       FILE *out, FILE *warn, struct diff_outcome *outcome, struct errbuf *err)
{
	struct tracefile **tf = calloc(n, sizeof(*tf));
	int ret;

	if (!tf)
		return err_set(err, ENOMEM, "out of memory");
	ret = check_distinct(paths, n, err);
	for (size_t i = 0; !ret && i < n; i++)
		ret = tracefile_load(paths[i], &tf[i], err);
	if (!ret)
		ret = diff_loaded(tf, n, o, out, warn, outcome, err);
	for (size_t i = 0; i < n; i++)
		tracefile_free(tf[i]);
	free(tf);
	return ret;
}
