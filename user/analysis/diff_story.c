// SPDX-License-Identifier: GPL-2.0
/*
 * The story of a diff, B against A: the headline figures, then the
 * kernel's rows ranked by their share of the change in time per I/O.
 * A row measured in ns per I/O (a submission function's own sampled
 * time, an exact function time, a blocking function's off-CPU time, the
 * time requests spent punted to io-wq) stands for its own change; a count
 * (switches, punts, tag waits) is ranked beside the time row it explains;
 * counts with no time of their own (faults, requests per I/O) follow, by
 * their relative change.  Then the sampled rows whose change is within
 * their samples' Poisson noise, then the context: rows whose time holds
 * other rows' (inclusive sampled times, whole system calls), shown with
 * their change but no share of Δlat.  Per row kind: docs/comparing.md.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "analysis/diff.h"

/* The totals, then each direction's where the run went both ways. */
static const char *const headline_keys[] = {
	"iops", "bw_kib", "lat_mean_ns", "lat_p99_ns",
	"read.iops", "read.bw_kib", "read.lat_mean_ns", "read.lat_p99_ns",
	"write.iops", "write.bw_kib", "write.lat_mean_ns", "write.lat_p99_ns",
};

/* A count row and the row that holds its time (function rows pair
 * calls_per_io with ns_per_io by name). */
static const char *const time_of[][2] = {
	{ "kernel.punt_ratio", "kernel.punt_ns_per_io" },
	{ "kernel.iowq_switches_per_io", "kernel.punt_ns_per_io" },
	{ "kernel.tag_waits_per_io", "fn|sched|blk_mq_get_tag|ns_per_io" },
};

long diff_find_row(const struct diff *d, const char *name)
{
	for (size_t r = 0; r < d->nr_rows; r++)
		if (d->rows[r].group < 0 && d->rows[r].kind != ROW_PROBES &&
		    (!strcmp(d->rows[r].key, name) || !strcasecmp(d->rows[r].label, name)))
			return (long)r;
	return -1;
}

/* The row holding @r's time: itself for a time row, its pair for a
 * count; -1 when it has none. */
static long time_row(const struct diff *d, const struct diff_row *r)
{
	char key[sizeof(r->key)];
	size_t len = strlen(r->key);
	const char *calls = "|calls_per_io";

	if (!strcmp(r->unit, "ns/IO"))
		return (long)(r - d->rows);
	for (size_t i = 0; i < sizeof(time_of) / sizeof(time_of[0]); i++)
		if (!strcmp(r->key, time_of[i][0]))
			return diff_find_row(d, time_of[i][1]);
	if (len > strlen(calls) && !strcmp(r->key + len - strlen(calls), calls)) {
		snprintf(key, sizeof(key), "%.*s|ns_per_io", (int)(len - strlen(calls)), r->key);
		return diff_find_row(d, key);
	}
	return -1;
}

/* Whether an exact (fentry/kprobe) time row measures @fn, under its own
 * name or as the successor of a same-role pair. */
static bool has_exact_row(const struct diff *d, const char *fn)
{
	char role[32], name[256], measure[32];
	const char *arrow;

	for (size_t i = 0; i < d->nr_rows; i++) {
		const struct diff_row *r = &d->rows[i];

		if (r->group >= 0 || figure_split_fn(r->key, role, sizeof(role), name, sizeof(name),
						     measure, sizeof(measure)) ||
		    strcmp(role, "exact") || strcmp(measure, "ns_per_io"))
			continue;
		arrow = strstr(r->note, " → ");
		if (!strcmp(name, fn) || (arrow && !strcmp(arrow + strlen(" → "), fn)))
			return true;
	}
	return false;
}

/*
 * Why a time row is context rather than an explanation: its time holds
 * other rows' time, so its change repeats theirs.  A sampled row is
 * inclusive (a sample counts for every frame on its stack); a system
 * call's time holds every function it runs; a function's own samples are
 * context where the funcs family timed it exactly.  NULL: it explains.
 */
static const char *context_of(const struct diff *d, const struct diff_row *r)
{
	char role[32], name[256], measure[32];

	if (r->kind != ROW_FUNCTION ||
	    figure_split_fn(r->key, role, sizeof(role), name, sizeof(name), measure, sizeof(measure)))
		return NULL;
	if (!strcmp(role, "slat"))
		return "context: inclusive, holds its callees' samples";
	if (!strcmp(role, "syscall"))
		return "context: the whole system call";
	if (!strcmp(role, "slat_self") && (has_exact_row(d, name) ||
	    (strstr(r->note, " → ") && has_exact_row(d, strstr(r->note, " → ") + strlen(" → ")))))
		return "context: timed exactly in its exact row";
	return NULL;
}

struct ranked {
	size_t row;
	bool changed;
	bool context;              /* after the rows that explain */
	bool noise;                /* sampled, within its samples' noise: after the measured rows */
	double weight;             /* |Δ time per I/O| of its time row, -1: none */
	bool is_count;             /* after its time row */
	double rel;                /* |change %|, for rows without time */
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	if (a->changed != b->changed)
		return a->changed ? -1 : 1;
	if (a->context != b->context)
		return a->context ? 1 : -1;
	if (a->noise != b->noise)
		return a->noise ? 1 : -1;
	if (a->weight != b->weight)
		return a->weight > b->weight ? -1 : 1;
	if (a->is_count != b->is_count)
		return a->is_count ? 1 : -1;
	if (a->rel != b->rel)
		return a->rel > b->rel ? -1 : 1;
	return (a->row > b->row) - (a->row < b->row);
}

static bool compared(const struct diff_row *r)
{
	return r->cells[0].present && r->cells[1].present;
}

/* The row's rank entry; its time and share of @dlat (NAN: no share). */
static struct ranked rank_row(struct diff *d, size_t i, double dlat)
{
	struct diff_row *r = &d->rows[i];
	long t = time_row(d, r);
	struct ranked k = { .row = i, .weight = -1.0, .rel = 0.0 };

	k.changed = r->cells[1].sig == SIG_CHANGED;
	k.is_count = t >= 0 && (size_t)t != i;
	r->time_row = k.is_count ? t : -1;
	if (compared(r) && !isnan(r->cells[1].change_pct))
		k.rel = fabs(r->cells[1].change_pct);
	else if (compared(r) && r->cells[1].change != 0.0)
		k.rel = INFINITY;
	if (t >= 0) {
		const struct diff_row *tr = &d->rows[t];

		r->context = context_of(d, tr);
		k.context = r->context != NULL;
		k.noise = tr->cells[1].sample_p >= d->alpha;
		r->sampling_noise = (size_t)t == i && k.noise;
		if (compared(tr))
			k.weight = fabs(tr->cells[1].change);
	}
	if ((size_t)t == i && compared(r)) {
		r->time_delta = r->cells[1].change;
		if (!isnan(dlat) && !k.context)
			r->explains_pct = 100.0 * r->time_delta / dlat;
	}
	return k;
}

static bool in_story(const struct diff_row *r)
{
	return r->group < 0 && (r->kind == ROW_KERNEL || r->kind == ROW_FUNCTION);
}

int diff_tell(struct diff *d)
{
	struct ranked *rk;
	double dlat = NAN;
	size_t n = 0;

	d->lat_row = diff_find_row(d, "lat_mean_ns");
	d->slat_row = diff_find_row(d, "slat_mean_ns");
	d->headline = calloc(sizeof(headline_keys) / sizeof(headline_keys[0]), sizeof(size_t));
	d->story = calloc(d->nr_rows ? d->nr_rows : 1, sizeof(size_t));
	rk = calloc(d->nr_rows ? d->nr_rows : 1, sizeof(*rk));
	if (!d->headline || !d->story || !rk) {
		free(rk);
		return -ENOMEM;
	}
	for (size_t i = 0; i < sizeof(headline_keys) / sizeof(headline_keys[0]); i++) {
		long r = diff_find_row(d, headline_keys[i]);

		if (r >= 0) {
			d->rows[r].headline = true;
			d->headline[d->nr_headline++] = (size_t)r;
		}
	}
	if (d->nr_files < 2) {
		free(rk);
		return 0;
	}
	if (d->lat_row >= 0 && d->rows[d->lat_row].cells[1].sig == SIG_CHANGED)
		dlat = d->rows[d->lat_row].cells[1].change;
	for (size_t i = 0; i < d->nr_rows; i++)
		if (in_story(&d->rows[i]))
			rk[n++] = rank_row(d, i, dlat);
	qsort(rk, n, sizeof(*rk), cmp_ranked);
	if (d->probes_row >= 0)
		rank_row(d, (size_t)d->probes_row, dlat);
	for (size_t i = 0; i < n; i++) {
		d->story[d->nr_story++] = rk[i].row;
		d->nr_story_shown += rk[i].changed;
	}
	free(rk);
	return 0;
}
