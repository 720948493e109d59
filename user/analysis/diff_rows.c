// SPDX-License-Identifier: GPL-2.0
/*
 * The diff model's rows: one per figure, labelled from the definitions
 * the trace files carry (A's first), the whole run's figures and then
 * each job group's; function rows ordered by their definition, heaviest
 * first, a function gone from later files paired with its same-role
 * successor.  Each cell is compared with the baseline's.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/grow.h"
#include "analysis/diff.h"
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

struct diff_row *diff_row_new(struct diff *d, const char *section, const char *label,
			      const char *unit)
{
	struct diff_row *r;

	r = grow_for_one(d->rows, &d->cap_rows, d->nr_rows, sizeof(*r), 64);
	if (!r)
		return NULL;
	d->rows = r;
	r = &d->rows[d->nr_rows];
	memset(r, 0, sizeof(*r));
	r->cells = calloc(d->nr_files, sizeof(*r->cells));
	if (!r->cells)
		return NULL;
	snprintf(r->section, sizeof(r->section), "%s", section);
	snprintf(r->label, sizeof(r->label), "%s", label);
	snprintf(r->unit, sizeof(r->unit), "%s", unit);
	r->group = -1;
	r->time_delta = r->explains_pct = NAN;
	r->time_row = -1;
	d->nr_rows++;
	return r;
}

/* What the story needs to know of a row: its key, kind and direction. */
static void row_describe(struct diff_row *r, const char *key, enum diff_row_kind kind,
			 const struct figure_def *def, int group)
{
	snprintf(r->key, sizeof(r->key), "%s", key);
	r->kind = kind;
	r->better = def ? def->better : FIGURE_NO_DIRECTION;
	r->group = group;
}

static void cell_fill(struct diff_cell *c, const struct tf_metric *m)
{
	c->present = m && m->n;
	if (c->present) {
		c->v = m->v;
		sample_summarize(m->v, m->n, &c->s);
	}
	c->sig = SIG_NONE;
}

static int add_metric_row(struct diff *d, const char *section, const char *key,
			  const struct figure_def *def, int group)
{
	struct diff_row *r;
	bool any = false;

	for (size_t i = 0; i < d->nr_files; i++)
		any |= tracefile_metric(d->tf[i], key) != NULL;
	if (!any)
		return 0;
	r = diff_row_new(d, section, def->label, def->unit);
	if (!r)
		return -ENOMEM;
	row_describe(r, key, def->kind == FIGURE_WORKLOAD ? ROW_WORKLOAD : ROW_KERNEL, def, group);
	for (size_t i = 0; i < d->nr_files; i++)
		cell_fill(&r->cells[i], tracefile_metric(d->tf[i], key));
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
		ret = add_metric_row(d, section, key, c->v[i], group);
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
			struct fn_key k = { 0 }, *p;
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
			p = grow_for_one(keys, &cap, n, sizeof(*p), 64);
			if (!p) {
				free(keys);
				return -ENOMEM;
			}
			keys = p;
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

/* Whether file @f has any figure of function role @role in @group. */
static bool has_role(const struct tracefile *tf, const char *role, int group)
{
	char prefix[48];
	int in;

	snprintf(prefix, sizeof(prefix), "fn|%s|", role);
	for (size_t m = 0; m < tf->nr_metrics; m++)
		if (!strncmp(figure_base_key(tf->metrics[m].key, &in), prefix, strlen(prefix)) &&
		    in == group)
			return true;
	return false;
}

/* A function missing from a file whose family ran there was not seen in
 * it: 0 in every repeat, so a function only one side calls is compared
 * (io-wq's functions against a device that never punts).  0 or -ENOMEM. */
static int absent_reads_zero(struct diff *d, struct diff_row *r, const char *role)
{
	size_t most = 0;

	for (size_t f = 0; f < d->nr_files; f++)
		if (d->tf[f]->nr_repeats > most)
			most = d->tf[f]->nr_repeats;
	for (size_t f = 0; f < d->nr_files; f++) {
		struct diff_cell *c = &r->cells[f];

		if (c->present || !has_role(d->tf[f], role, r->group) || !d->tf[f]->nr_repeats)
			continue;
		if (!r->own && !(r->own = calloc(most, sizeof(double))))
			return -ENOMEM;
		c->present = true;
		c->v = r->own;
		sample_summarize(r->own, d->tf[f]->nr_repeats, &c->s);
	}
	return 0;
}

/* @k is only in the later files and an unused row only in the first is
 * its same-role predecessor: that row takes @k in, whichever of the two
 * ranks first. */
static bool has_predecessor(const struct diff *d, const struct fn_key *keys, size_t nr,
			    const struct fn_key *k)
{
	if (d->nr_files < 2 || tracefile_metric(d->tf[0], k->key) ||
	    !tracefile_metric(d->tf[1], k->key))
		return false;
	for (size_t j = 0; j < nr; j++) {
		const struct fn_key *o = &keys[j];

		if (o != k && !o->used && !strcmp(o->role, k->role) &&
		    !strcmp(o->measure, k->measure) && pair_same_role(o->name, k->name) &&
		    o->weight >= row_floor(fn_unit(o)) && !diff_is_probe_fn(o->name) &&
		    tracefile_metric(d->tf[0], o->key) && !tracefile_metric(d->tf[1], o->key))
			return true;
	}
	return false;
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
		if (k->weight < row_floor(fn_unit(k)) || diff_is_probe_fn(k->name) ||
		    has_predecessor(d, keys, nr, k))
			continue;
		k->used = true;
		fn_label(label, sizeof(label), k, k->name);
		r = diff_row_new(d, section, label, fn_unit(k));
		if (!r) {
			ret = -ENOMEM;
			break;
		}
		row_describe(r, k->key, ROW_FUNCTION, k->def, group);
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
		if (absent_reads_zero(d, r, k->role))
			ret = -ENOMEM;
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

/* The job groups whose figures ("g<ID>/...") any file has, ascending:
 * every figure's group, sorted, each kept once. */
static int group_ids(const struct diff *d, int **out, size_t *nr)
{
	size_t total = 0, n = 0, kept = 0;
	int *ids;

	for (size_t f = 0; f < d->nr_files; f++)
		total += d->tf[f]->nr_metrics;
	ids = calloc(total ? total : 1, sizeof(*ids));
	if (!ids)
		return -ENOMEM;
	for (size_t f = 0; f < d->nr_files; f++) {
		for (size_t m = 0; m < d->tf[f]->nr_metrics; m++) {
			figure_base_key(d->tf[f]->metrics[m].key, &ids[n]);
			n += ids[n] >= 0; /* a whole-run figure has none */
		}
	}
	qsort(ids, n, sizeof(*ids), cmp_int);
	for (size_t i = 0; i < n; i++)
		if (!kept || ids[kept - 1] != ids[i])
			ids[kept++] = ids[i];
	*out = ids;
	*nr = kept;
	return 0;
}
int diff_add_rows(struct diff *d)
{
	struct catalog cat = { 0 };
	int *groups = NULL;
	size_t nr_groups = 0;
	int ret = catalog_build(d, &cat);

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
	return ret;
}
