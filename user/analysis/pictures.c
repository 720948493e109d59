// SPDX-License-Identifier: GPL-2.0
/* The pictures of a run and of a diff, drawn from their trace files. */
#include <errno.h>
#include <stdio.h>

#include "workload/job.h"

#include "analysis/pictures.h"
#include "analysis/tracefile.h"
#include "svg/svg.h"


/* The series of @tf as lines named "[PREFIX ]job read", into @l from
 * @n on (at most @max); returns the new count. */
static size_t series_lines(const struct tracefile *tf, const char *prefix, bool steady,
			   struct ts_line *l, char (*names)[192], size_t n, size_t max)
{
	for (size_t i = 0; i < tf->series.n && n < max; i++, n++) {
		const struct series *s = &tf->series.s[i];

		snprintf(names[n], sizeof(names[n]), "%s%s%s %s", prefix, *prefix ? " " : "",
			 s->job, ddir_name(s->ddir));
		l[n].s = s;
		l[n].name = names[n];
		l[n].steady_from = steady ? series_steady_start(s) : 0;
	}
	return n;
}

/* DIR/timeseries.svg of @n files, "A", "B", ... when more than one;
 * nothing for files without series (before trace file 1.2). */
static int write_timeseries(const struct tracefile *const *tf, size_t n, const char *dir,
			    bool steady, struct errbuf *err)
{
	struct ts_line l[PICTURES_MAX_LINES];
	char names[PICTURES_MAX_LINES][192], prefix[8], title[256];
	size_t nl = 0;

	for (size_t i = 0; i < n; i++) {
		snprintf(prefix, sizeof(prefix), "%s", n > 1 ? (char[]){ (char)('A' + i % 26), 0 } : "");
		nl = series_lines(tf[i], prefix, steady, l, names, nl, PICTURES_MAX_LINES);
	}
	if (!nl)
		return 0;
	snprintf(title, sizeof(title), "Latency over time%s%s", n > 1 ? ", overlaid from the start of measurement" : "",
		 steady ? " (--steady)" : "");
	return svg_write_timeseries(dir, title, l, nl, err);
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
