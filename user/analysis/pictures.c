// SPDX-License-Identifier: GPL-2.0
/* The pictures of a run and of a diff, drawn from their trace files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/job.h"

#include "analysis/pictures.h"
#include "analysis/tracefile.h"
#include "svg/svg.h"


/* A chart's lines being gathered: at most PICTURES_MAX_LINES. */
struct lines {
	struct ts_line l[PICTURES_MAX_LINES];
	char names[PICTURES_MAX_LINES][192];
	size_t n;
	size_t colors;             /* given out so far, one per last repeat's line */
	bool steady;
};

static unsigned int last_repeat(const struct tracefile *tf)
{
	unsigned int last = 0;

	for (size_t i = 0; i < tf->series.n; i++)
		if (tf->series.s[i].repeat > last)
			last = tf->series.s[i].repeat;
	return last;
}

static struct ts_line *add_line(struct lines *ls, const struct series *s)
{
	struct ts_line *l = &ls->l[ls->n++];

	memset(l, 0, sizeof(*l));
	l->s = s;
	l->steady_from = ls->steady ? series_steady_start(s) : 0;
	return l;
}

/* The last repeat's line of @s's job and direction among @ls's lines from
 * @first on (this file's), NULL when that repeat has none. */
static struct ts_line *last_of(struct lines *ls, size_t first, const struct series *s)
{
	for (size_t i = first; i < ls->n; i++)
		if (!ls->l[i].thin && ls->l[i].s->ddir == s->ddir && !strcmp(ls->l[i].s->job, s->job))
			return &ls->l[i];
	return NULL;
}

/* The series of @tf as lines: the last repeat's named "[PREFIX ]job read"
 * and a colour each, then every earlier repeat's, thin, in the colour of
 * its job's and direction's last one (as many as there is room for). */
static void series_lines(const struct tracefile *tf, const char *prefix, struct lines *ls)
{
	unsigned int last = last_repeat(tf);
	size_t first = ls->n;

	for (size_t i = 0; i < tf->series.n && ls->n < PICTURES_MAX_LINES; i++) {
		const struct series *s = &tf->series.s[i];
		struct ts_line *l;

		if (s->repeat != last)
			continue;
		snprintf(ls->names[ls->n], sizeof(ls->names[ls->n]), "%s%s%s %s", prefix,
			 *prefix ? " " : "", s->job, ddir_name(s->ddir));
		l = add_line(ls, s);
		l->name = ls->names[ls->n - 1];
		l->color = ls->colors++;
	}
	for (size_t i = 0; i < tf->series.n && ls->n < PICTURES_MAX_LINES; i++) {
		const struct series *s = &tf->series.s[i];
		struct ts_line *mine = s->repeat != last ? last_of(ls, first, s) : NULL, *l;

		if (!mine)
			continue;
		mine->nr_thin++;
		l = add_line(ls, s);
		l->name = mine->name;
		l->color = mine->color;
		l->thin = true;
	}
}

/* DIR/timeseries.svg of @n files, "A", "B", ... when more than one;
 * nothing for files without series (before trace file 1.2). */
static int write_timeseries(const struct tracefile *const *tf, size_t n, const char *dir,
			    bool steady, struct errbuf *err)
{
	struct lines *ls = calloc(1, sizeof(*ls));
	char prefix[8], title[256];
	int ret = 0;

	if (!ls)
		return err_set(err, ENOMEM, "out of memory drawing %s/timeseries.svg", dir);
	ls->steady = steady;
	for (size_t i = 0; i < n; i++) {
		snprintf(prefix, sizeof(prefix), "%s", n > 1 ? (char[]){ (char)('A' + i % 26), 0 } : "");
		series_lines(tf[i], prefix, ls);
	}
	snprintf(title, sizeof(title), "Latency over time%s%s", n > 1 ? ", overlaid from the start of measurement" : "",
		 steady ? " (--steady)" : "");
	if (ls->n)
		ret = svg_write_timeseries(dir, title, ls->l, ls->n, err);
	free(ls);
	return ret;
}

int pictures_write_run(const struct tracefile *tf, const char *dir, bool steady, struct errbuf *err)
{
	const struct hist *h[1] = { tf->clat };
	const char *names[1] = { tf->name };
	int ret;

	ret = svg_write_flame(dir, "oncpu.svg", "On-CPU in submission", "perf_event samples of the submitting calls",
			  tf->oncpu, tf->nr_oncpu, NULL, 0, err);
	if (!ret)
		ret = svg_write_flame(dir, "offcpu.svg", "Off-CPU: context switches", "switches of the workload by blocking stack",
				  tf->offcpu, tf->nr_offcpu, NULL, 0, err);
	if (!ret)
		ret = svg_write_latency(dir, h, names, 1, err);
	if (!ret)
		ret = write_timeseries(&tf, 1, dir, steady, err);
	return ret;
}

int pictures_write_diff(const struct tracefile *const *tf, size_t n, const char *dir,
			bool steady, struct errbuf *err)
{
	const struct hist *h[8];
	const char *names[8];
	char sub[600];
	int ret;

	if (n < 2)
		return err_set(err, EINVAL, "option --svg: a diff needs two trace files");
	snprintf(sub, sizeof(sub), "width: B (%s); red: grew, blue: shrank against A (%s)",
		 tf[1]->name, tf[0]->name);
	ret = svg_write_flame(dir, "oncpu-diff.svg", "Differential on-CPU in submission", sub,
			  tf[1]->oncpu, tf[1]->nr_oncpu, tf[0]->oncpu, tf[0]->nr_oncpu, err);
	if (!ret)
		ret = svg_write_flame(dir, "offcpu-diff.svg", "Differential off-CPU: context switches", sub,
				  tf[1]->offcpu, tf[1]->nr_offcpu, tf[0]->offcpu, tf[0]->nr_offcpu, err);
	for (size_t i = 0; i < n && i < 8; i++) {
		h[i] = tf[i]->clat;
		names[i] = tf[i]->name;
	}
	if (!ret)
		ret = svg_write_latency(dir, h, names, n < 8 ? n : 8, err);
	if (!ret)
		ret = write_timeseries(tf, n, dir, steady, err);
	return ret;
}
