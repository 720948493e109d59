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
#include "probes/figures.h"

/* Kernel functions that took over another's role in some release, so a
 * diff across that release pairs them instead of listing two orphans. */
static const char *const same_role[][2] = {
	{ "get_user_pages_fast", "pin_user_pages_fast" },
	{ "get_user_pages_fast_only", "pin_user_pages_fast" },
	{ "iov_iter_get_pages2", "iov_iter_extract_pages" },
	{ "iov_iter_get_pages", "iov_iter_get_pages2" },
	{ "blk_mq_get_request", "__blk_mq_alloc_requests" },
	{ "__blk_mq_alloc_request", "__blk_mq_alloc_requests" },
	{ "io_wq_submit_work", "io_wq_submit_work" },
	{ "generic_make_request", "submit_bio_noacct" },
	{ "blk_queue_enter", "bio_queue_enter" },
};

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
	for (size_t i = 0; i < d->nr_rows; i++)
		free(d->rows[i].cells);
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

static struct diff_row *row_new(struct diff *d, const char *section, const char *label,
				const char *unit)
{
	struct diff_row *r;

	if (d->nr_rows == d->cap_rows) {
		size_t cap = d->cap_rows ? d->cap_rows * 2 : 64;
		struct diff_row *p = realloc(d->rows, cap * sizeof(*p));

		if (!p)
			return NULL;
		d->rows = p;
		d->cap_rows = cap;
	}
	r = &d->rows[d->nr_rows];
	memset(r, 0, sizeof(*r));
	r->cells = calloc(d->nr_files, sizeof(*r->cells));
	if (!r->cells)
		return NULL;
	snprintf(r->section, sizeof(r->section), "%s", section);
	snprintf(r->label, sizeof(r->label), "%s", label);
	snprintf(r->unit, sizeof(r->unit), "%s", unit);
	d->nr_rows++;
	return r;
}

static void cell_fill(struct diff_cell *c, const struct tf_metric *m)
{
	c->present = m && m->n;
	if (c->present)
		sample_summarize(m->v, m->n, &c->s);
	c->sig = SIG_NONE;
}

/* Changes and significance of every cell against the baseline. */
static void row_compare(struct diff *d, struct diff_row *r)
{
	const struct diff_cell *base = &r->cells[0];

	for (size_t i = 1; i < d->nr_files; i++) {
		struct diff_cell *c = &r->cells[i];

		if (!c->present || !base->present)
			continue;
		c->change = c->s.mean - base->s.mean;
		c->change_pct = base->s.mean != 0.0 ? 100.0 * c->change / fabs(base->s.mean) : NAN;
		welch_test(&base->s, &c->s, &c->w);
		if (!c->w.valid)
			c->sig = SIG_SINGLE;
		else
			c->sig = c->w.p < d->alpha ? SIG_CHANGED : SIG_NOISE;
	}
}

static int add_metric_row(struct diff *d, const char *section, const char *key,
			  const char *label, const char *unit)
{
	struct diff_row *r;
	bool any = false;

	for (size_t i = 0; i < d->nr_files; i++)
		any |= tracefile_metric(d->tf[i], key) != NULL;
	if (!any)
		return 0;
	r = row_new(d, section, label, unit);
	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < d->nr_files; i++)
		cell_fill(&r->cells[i], tracefile_metric(d->tf[i], key));
	row_compare(d, r);
	return 0;
}

/* ---- definitions ---- */

/* How to show each figure: the definitions every file carries, A's first,
 * then those only later files have; rows follow this order. */
struct catalog {
	const struct figure_def **v;
	size_t n;
};

static int catalog_build(const struct diff *d, struct catalog *c)
{
	size_t cap = 0;

	for (size_t f = 0; f < d->nr_files; f++)
		cap += d->tf[f]->nr_defs;
	c->n = 0;
	c->v = calloc(cap ? cap : 1, sizeof(*c->v));
	if (!c->v)
		return -ENOMEM;
	for (size_t f = 0; f < d->nr_files; f++) {
		for (size_t i = 0; i < d->tf[f]->nr_defs; i++) {
			const struct figure_def *def = &d->tf[f]->defs[i];
			size_t j = 0;

			while (j < c->n && strcmp(c->v[j]->key, def->key))
				j++;
			if (j == c->n)
				c->v[c->n++] = def;
		}
	}
	return 0;
}

/* The catalog's entry for @key, by the first file that defines it; its
 * index goes into @order (c->n when no file does). */
static const struct figure_def *catalog_find(const struct diff *d, const struct catalog *c,
					     const char *key, size_t *order)
{
	const struct figure_def *def = NULL;

	for (size_t f = 0; !def && f < d->nr_files; f++)
		def = tracefile_def(d->tf[f], key);
	for (*order = 0; def && *order < c->n; (*order)++)
		if (!strcmp(c->v[*order]->key, def->key))
			break;
	return def;
}

/* "group 1 (gup-20jobs)": the group and, from A's fio "jobs", its jobs. */
static void group_title(const struct diff *d, int group, char *buf, size_t size)
{
	struct json_object *jobs = NULL;
	size_t off = (size_t)snprintf(buf, size, "group %d", group), n = 0;

	json_object_object_get_ex(d->tf[0]->root, "jobs", &jobs);
	for (size_t i = 0; jobs && i < json_object_array_length(jobs) && off < size; i++) {
		struct json_object *j = json_object_array_get_idx(jobs, i), *id = NULL, *name = NULL;

		if (!json_object_object_get_ex(j, "groupid", &id) ||
		    !json_object_object_get_ex(j, "jobname", &name) ||
		    !json_object_is_type(id, json_type_int) || json_object_get_int(id) != group ||
		    !json_object_is_type(name, json_type_string))
			continue;
		off += (size_t)snprintf(buf + off, size - off, "%s%s", n++ ? ", " : " (",
					json_object_get_string(name));
	}
	if (n && off < size)
		snprintf(buf + off, size - off, ")");
}

/* A row's key and section in group @group (-1: the whole run's). */
static void in_group(const struct diff *d, char *key, size_t key_size, char *section,
		     size_t section_size, const char *base, const char *what, int group)
{
	char title[96];

	if (group < 0) {
		snprintf(key, key_size, "%s", base);
		snprintf(section, section_size, "%s", what);
	} else {
		group_title(d, group, title, sizeof(title));
		snprintf(key, key_size, "g%d/%s", group, base);
		snprintf(section, section_size, "%s %s", title, what);
	}
}

static int add_figure_rows(struct diff *d, const struct catalog *c, enum figure_kind kind,
			   const char *what, int group)
{
	char key[256], section[128];
	int ret = 0;

	for (size_t i = 0; !ret && i < c->n; i++) {
		if (c->v[i]->kind != kind)
			continue;
		in_group(d, key, sizeof(key), section, sizeof(section), c->v[i]->key, what, group);
		ret = add_metric_row(d, section, key, c->v[i]->label, c->v[i]->unit);
	}
	return ret;
}

/* ---- function rows ---- */

struct fn_key {
	char role[32], name[256], measure[32];
	const char *key;
	const struct figure_def *def; /* NULL: no file defines its row */
	size_t order;              /* its definition's place in the catalog */
	double weight;             /* largest mean over the files, for order */
	bool used;
};

static int cmp_fn(const void *pa, const void *pb)
{
	const struct fn_key *a = pa, *b = pb;
	int r;

	if (a->order != b->order)
		return a->order < b->order ? -1 : 1;
	if ((r = strcmp(a->measure, b->measure)))
		return r;
	return a->weight < b->weight ? 1 : a->weight > b->weight ? -1 : strcmp(a->name, b->name);
}

static bool pair_same_role(const char *a, const char *b)
{
	for (size_t i = 0; i < sizeof(same_role) / sizeof(same_role[0]); i++)
		if ((!strcmp(a, same_role[i][0]) && !strcmp(b, same_role[i][1])) ||
		    (!strcmp(a, same_role[i][1]) && !strcmp(b, same_role[i][0])))
			return true;
	return false;
}

/* A row's label: "blocks in NAME off-CPU time/IO"; a row no file
 * defines shows its key's own words. */
static void fn_label(char *buf, size_t size, const struct fn_key *k, const char *name)
{
	snprintf(buf, size, "%s %s %s", k->def ? k->def->label : k->role, name,
		 k->def ? k->def->measure : k->measure);
}

static const char *fn_unit(const struct fn_key *k)
{
	return k->def ? k->def->unit : k->measure;
}

/* Rows too small to matter in every file stay out of the table: under
 * 1 ns for a time, under 0.001 for a count. */
static double row_floor(const char *unit)
{
	return !strncmp(unit, "ns", 2) ? 1.0 : 0.001;
}

/* "only in A", "only in A, C" for a row some files lack. */
static void presence_note(const struct diff *d, const struct diff_row *r, char *buf, size_t size)
{
	size_t have = 0, off;

	for (size_t i = 0; i < d->nr_files; i++)
		have += r->cells[i].present;
	buf[0] = 0;
	if (have == d->nr_files)
		return;
	off = (size_t)snprintf(buf, size, "only in");
	for (size_t i = 0, k = 0; i < d->nr_files && off < size; i++)
		if (r->cells[i].present)
			off += (size_t)snprintf(buf + off, size - off, "%s %s", k++ ? "," : "", d->tags[i]);
}

/* Collects the distinct function keys of all files, heaviest first. */
static int collect_fn_keys(struct diff *d, const struct catalog *c, int group,
			   struct fn_key **out, size_t *nr)
{
	size_t cap = 0, n = 0;
	struct fn_key *keys = NULL;

	for (size_t f = 0; f < d->nr_files; f++) {
		for (size_t m = 0; m < d->tf[f]->nr_metrics; m++) {
			const struct tf_metric *met = &d->tf[f]->metrics[m];
			const char *base;
			struct fn_key k = { 0 };
			struct sample_summary s;
			int in;
			size_t j;

			base = figure_base_key(met->key, &in);
			if (in != group || figure_split_fn(base, k.role, sizeof(k.role), k.name,
							   sizeof(k.name), k.measure, sizeof(k.measure)))
				continue;
			k.key = met->key;
			sample_summarize(met->v, met->n, &s);
			for (j = 0; j < n && strcmp(keys[j].key, met->key); j++)
				;
			if (j < n) {
				if (s.mean > keys[j].weight)
					keys[j].weight = s.mean;
				continue;
			}
			if (n == cap) {
				struct fn_key *p = realloc(keys, (cap = cap ? cap * 2 : 64) * sizeof(*p));

				if (!p) {
					free(keys);
					return -ENOMEM;
				}
				keys = p;
			}
			k.weight = s.mean;
			k.def = catalog_find(d, c, met->key, &k.order);
			keys[n++] = k;
		}
	}
	if (n)
		qsort(keys, n, sizeof(*keys), cmp_fn);
	*out = keys;
	*nr = n;
	return 0;
}

static int add_function_rows(struct diff *d, const struct catalog *c, int group)
{
	struct fn_key *keys = NULL;
	char section[128], unused[8];
	size_t nr = 0;
	int ret = collect_fn_keys(d, c, group, &keys, &nr);

	in_group(d, unused, sizeof(unused), section, sizeof(section), "", "functions", group);
	for (size_t i = 0; !ret && i < nr; i++) {
		struct fn_key *k = &keys[i];
		struct diff_row *r;
		char label[192];

		if (k->used)
			continue;
		if (k->weight < row_floor(fn_unit(k)))
			continue;
		k->used = true;
		fn_label(label, sizeof(label), k, k->name);
		r = row_new(d, section, label, fn_unit(k));
		if (!r) {
			ret = -ENOMEM;
			break;
		}
		for (size_t f = 0; f < d->nr_files; f++)
			cell_fill(&r->cells[f], tracefile_metric(d->tf[f], k->key));
		/* a function gone from later files: look for its same-role successor */
		for (size_t j = 0; j < nr && d->nr_files >= 2; j++) {
			struct fn_key *o = &keys[j];
			const struct tf_metric *in_b;

			if (o->used || strcmp(o->role, k->role) || strcmp(o->measure, k->measure) ||
			    !pair_same_role(k->name, o->name))
				continue;
			in_b = tracefile_metric(d->tf[1], o->key);
			if (!r->cells[0].present || r->cells[1].present || !in_b ||
			    tracefile_metric(d->tf[0], o->key))
				continue;
			o->used = true;
			for (size_t f = 1; f < d->nr_files; f++)
				if (!r->cells[f].present)
					cell_fill(&r->cells[f], tracefile_metric(d->tf[f], o->key));
			snprintf(label, sizeof(label), "%s → %s", k->name, o->name);
			fn_label(r->label, sizeof(r->label), k, label);
			snprintf(r->note, sizeof(r->note), "%s → %s", k->name, o->name);
			break;
		}
		if (!r->note[0])
			presence_note(d, r, r->note, sizeof(r->note));
		row_compare(d, r);
	}
	free(keys);
	return ret;
}

/* ---- job groups ---- */

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* The job groups whose figures ("g<ID>/...") any file has, ascending. */
static int group_ids(const struct diff *d, int **out, size_t *nr)
{
	size_t cap = 0, n = 0;
	int *ids = NULL;

	for (size_t f = 0; f < d->nr_files; f++) {
		for (size_t m = 0; m < d->tf[f]->nr_metrics; m++) {
			size_t j = 0;
			int g;

			figure_base_key(d->tf[f]->metrics[m].key, &g);
			while (j < n && ids[j] != g)
				j++;
			if (g < 0 || j < n)
				continue;
			if (n == cap) {
				int *p = realloc(ids, (cap = cap ? cap * 2 : 8) * sizeof(*p));

				if (!p) {
					free(ids);
					return -ENOMEM;
				}
				ids = p;
			}
			ids[n++] = g;
		}
	}
	if (n)
		qsort(ids, n, sizeof(*ids), cmp_int);
	*out = ids;
	*nr = n;
	return 0;
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
		env_compare(d, i, "probes", "probe mechanisms");
		kernel_compare(d, i);
	}
}

int diff_build(struct tracefile **tf, size_t n, double alpha, struct diff **out,
	       struct errbuf *err)
{
	struct diff *d = calloc(1, sizeof(*d));
	struct catalog cat = { 0 };
	int *groups = NULL;
	size_t nr_groups = 0;
	int ret = 0;

	*out = NULL;
	if (!d)
		return err_set(err, ENOMEM, "out of memory comparing trace files");
	d->nr_files = n;
	d->alpha = alpha;
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
	ret = catalog_build(d, &cat);
	if (!ret)
		ret = group_ids(d, &groups, &nr_groups);
	/* the whole run's rows, then each job group's */
	for (size_t g = 0; !ret && g <= nr_groups; g++) {
		int group = g ? groups[g - 1] : -1;

		ret = add_figure_rows(d, &cat, FIGURE_WORKLOAD, "workload", group);
		if (!ret)
			ret = add_figure_rows(d, &cat, FIGURE_KERNEL, "kernel", group);
		if (!ret)
			ret = add_function_rows(d, &cat, group);
	}
	free(groups);
	free(cat.v);
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

int diff_files(const char *const *paths, size_t n, const struct diff_opts *o,
	       FILE *out, FILE *warn, struct errbuf *err)
{
	struct tracefile **tf = calloc(n, sizeof(*tf));
	struct diff *d = NULL;
	int ret;

	if (!tf)
		return err_set(err, ENOMEM, "out of memory");
	ret = check_distinct(paths, n, err);
	for (size_t i = 0; !ret && i < n; i++)
		ret = tracefile_load(paths[i], &tf[i], err);
	if (!ret)
		ret = diff_build(tf, n, o->alpha, &d, err);
	if (ret)
		goto cleanup;
	for (size_t i = 0; warn && i < d->nr_warnings; i++)
		fprintf(warn, "iodig: warning: %s\n", d->warnings[i]);
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
				     o->svg_dir, err);
cleanup:
	for (size_t i = 0; i < n; i++)
		tracefile_free(tf[i]);
	free(tf);
	diff_free(d);
	return ret;
}
