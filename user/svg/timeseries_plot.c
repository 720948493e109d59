// SPDX-License-Identifier: GPL-2.0
/*
 * Latency over time: IOPS, bandwidth, clat p50/p99 and lat mean of each
 * interval, one panel each, on a shared time axis whose 0 is the start of
 * measurement (so that two runs overlay aligned).  ramp_time, which is
 * not measured, is the shaded span before 0; with --steady, the intervals
 * before the steady state are drawn faint over a band that says so.
 * A run of several repeats has a line each: the earlier ones thin, the
 * last (whose report and histograms the trace file holds) bold.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "svg/svg.h"

#define TS_W 1000
#define TS_PANEL_H 170
#define TS_GAP 40
#define TS_TOP 70
#define TS_LEFT 80
#define TS_RIGHT 30
#define TS_NR_PANELS 4
#define TS_LEGEND_TOP 60
#define TS_LEGEND_LINE 15


static double v_iops(const struct series_point *p) { return series_iops(p); }
static double v_mib(const struct series_point *p) { return series_bw_kib(p) / 1024.0; }
static double v_p99(const struct series_point *p) { return (double)p->clat_p99_ns / 1e3; }
static double v_p50(const struct series_point *p) { return (double)p->clat_p50_ns / 1e3; }
static double v_lat(const struct series_point *p) { return p->lat_mean_ns / 1e3; }

/* A panel draws one value of each interval, and maybe a second, dashed. */
struct panel {
	const char *id, *label;
	double (*solid)(const struct series_point *);
	double (*dashed)(const struct series_point *);
};

static const struct panel panels[TS_NR_PANELS] = {
	{ "iops", "IOPS", v_iops, NULL },
	{ "bw", "bandwidth, MiB/s", v_mib, NULL },
	{ "clat", "clat p99 (solid), p50 (dashed), us", v_p99, v_p50 },
	{ "lat", "lat mean, us", v_lat, NULL },
};

struct frame {
	double t0, t1;             /* seconds, from the start of measurement */
};

static double x_of(const struct frame *f, double t)
{
	return TS_LEFT + (t - f->t0) / (f->t1 - f->t0) * (TS_W - TS_LEFT - TS_RIGHT);
}

static double panel_top(size_t k)
{
	return TS_TOP + (double)k * (TS_PANEL_H + TS_GAP);
}

static double t_mid(const struct series_point *p)
{
	return ((double)p->end_ns - (double)p->dur_ns / 2) / 1e9;
}

static double panel_max(const struct panel *pn, const struct ts_line *l, size_t n)
{
	double m = 0;

	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < l[i].s->n; k++) {
			m = fmax(m, pn->solid(&l[i].s->pts[k]));
			if (pn->dashed)
				m = fmax(m, pn->dashed(&l[i].s->pts[k]));
		}
	return m > 0 ? m * 1.1 : 1;
}

/* The points of @l from @from to @to (exclusive) as one path. */
static void path(FILE *out, const struct frame *f, const struct ts_line *l, size_t from, size_t to,
		 double (*v)(const struct series_point *), double top, double ymax,
		 const char *attrs)
{
	if (from >= to)
		return;
	fprintf(out, "<path class=\"series\" fill=\"none\" %s d=\"", attrs);
	for (size_t k = from; k < to; k++)
		fprintf(out, "%c%.1f %.1f ", k == from ? 'M' : 'L', x_of(f, t_mid(&l->s->pts[k])),
			top + TS_PANEL_H - v(&l->s->pts[k]) / ymax * TS_PANEL_H);
	fprintf(out, "\"/>\n");
}

/* One line in one panel: an earlier repeat thin and pale, the transient
 * (--steady) fainter still. */
static void draw_line(FILE *out, const struct frame *f, const struct panel *pn,
		      const struct ts_line *l, double top, double ymax)
{
	/* the transient overlaps the steady part by one point, so the line
	 * runs on */
	size_t cut = l->steady_from < l->s->n ? l->steady_from : 0;
	double opacity = l->thin ? 0.5 : 1.0;
	char base[128], attrs[192];

	snprintf(base, sizeof(base), "stroke=\"%s\" stroke-width=\"%s\" data-repeat=\"%u\"",
		 svg_color(l->color), l->thin ? "0.8" : "1.6", l->s->repeat + 1);
	snprintf(attrs, sizeof(attrs), "%s opacity=\"%.2g\"", base, 0.3 * opacity);
	path(out, f, l, 0, cut + 1 < l->s->n ? cut + 1 : cut, pn->solid, top, ymax, attrs);
	snprintf(attrs, sizeof(attrs), "%s opacity=\"%.2g\"", base, opacity);
	path(out, f, l, cut, l->s->n, pn->solid, top, ymax, attrs);
	snprintf(attrs, sizeof(attrs), "%s opacity=\"%.2g\" stroke-dasharray=\"5 3\"", base, opacity);
	if (pn->dashed)
		path(out, f, l, cut, l->s->n, pn->dashed, top, ymax, attrs);
}

/* The thin lines first, so that the emphasised ones are drawn on top. */
static void draw_lines(FILE *out, const struct frame *f, const struct panel *pn,
		       const struct ts_line *l, size_t n, double top, double ymax)
{
	for (int thin = 1; thin >= 0; thin--)
		for (size_t i = 0; i < n; i++)
			if (l[i].thin == (bool)thin)
				draw_line(out, f, pn, &l[i], top, ymax);
}

static void draw_panel(FILE *out, const struct frame *f, size_t k, const struct ts_line *l,
		       size_t n)
{
	const struct panel *pn = &panels[k];
	double top = panel_top(k), ymax = panel_max(pn, l, n);

	fprintf(out, "<g class=\"panel\" id=\"panel-%s\">\n", pn->id);
	fprintf(out, "<path class=\"axis\" stroke=\"#444\" fill=\"none\" d=\"M%d %.1f V%.1f H%d\"/>\n",
		TS_LEFT, top, top + TS_PANEL_H, TS_W - TS_RIGHT);
	for (int t = 0; t <= 4; t++)
		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.0f</text>\n",
			TS_LEFT - 6, top + TS_PANEL_H - TS_PANEL_H * t / 4.0 + 4, ymax * t / 4.0);
	fprintf(out, "<text x=\"%d\" y=\"%.1f\" font-weight=\"bold\">%s</text>\n", TS_LEFT + 4,
		top - 6, pn->label);
	draw_lines(out, f, pn, l, n, top, ymax);
	fprintf(out, "</g>\n");
}

/* The time axis under the last panel, a tick each "nice" step. */
static void draw_time_axis(FILE *out, const struct frame *f)
{
	double span = f->t1 - f->t0, step = pow(10, floor(log10(span / 5)));
	double bottom = panel_top(TS_NR_PANELS - 1) + TS_PANEL_H;

	if (span / step > 10)
		step *= span / step > 25 ? 5 : 2;
	fprintf(out, "<g class=\"time-axis\">\n");
	for (double t = ceil(f->t0 / step) * step; t <= f->t1 + 1e-9; t += step)
		fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e4e4\"/>"
			"<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.3g</text>\n",
			x_of(f, t), TS_TOP, x_of(f, t), bottom, x_of(f, t), bottom + 16, fabs(t) < 1e-12 ? 0 : t);
	fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"middle\">seconds from the start of "
		"measurement</text>\n</g>\n", TS_W / 2, bottom + 34);
}

/* Shaded spans behind the panels: ramp_time, and the --steady transient. */
static void draw_spans(FILE *out, const struct frame *f, const struct ts_line *l, size_t n)
{
	double bottom = panel_top(TS_NR_PANELS - 1) + TS_PANEL_H, steady = 0;

	if (f->t0 < 0)
		fprintf(out, "<rect class=\"ramp\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"#f3e3c3\"/><text x=\"%.1f\" y=\"%d\" font-size=\"11\">ramp_time "
			"(not measured)</text>\n", x_of(f, f->t0), TS_TOP, x_of(f, 0) - x_of(f, f->t0),
			bottom - TS_TOP, x_of(f, f->t0) + 3, TS_TOP - 24);
	for (size_t i = 0; i < n; i++)
		if (l[i].steady_from && l[i].steady_from < l[i].s->n)
			steady = fmax(steady, (double)(l[i].s->pts[l[i].steady_from].end_ns -
						       l[i].s->pts[l[i].steady_from].dur_ns) / 1e9);
	if (steady > 0)
		fprintf(out, "<rect class=\"transient\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%.1f\" "
			"fill=\"#e8e8e8\"/><text x=\"%.1f\" y=\"%d\" font-size=\"11\">transient, left "
			"out by --steady</text>\n", x_of(f, 0), TS_TOP, x_of(f, steady) - x_of(f, 0),
			bottom - TS_TOP, x_of(f, 0) + 3, TS_TOP - 12);
}

/* Under the time axis, a line each but for the thin ones, which share
 * the colour of their run's last repeat. */
static void draw_legend(FILE *out, const struct ts_line *l, size_t n)
{
	double y = panel_top(TS_NR_PANELS - 1) + TS_PANEL_H + TS_LEGEND_TOP;

	for (size_t i = 0; i < n; i++) {
		if (l[i].thin)
			continue;
		fprintf(out, "<text class=\"legend\" x=\"%d\" y=\"%.1f\" fill=\"%s\">",
			TS_LEFT, y, svg_color(l[i].color));
		svg_escape(out, l[i].name);
		fprintf(out, " (%zu intervals of %llu ms", l[i].s->n,
			(unsigned long long)(l[i].s->interval_ns / 1000000));
		if (l[i].nr_thin)
			fprintf(out, "; bold: repeat %u, the last; thin: %zu earlier repeat%s",
				l[i].s->repeat + 1, l[i].nr_thin, l[i].nr_thin > 1 ? "s" : "");
		fprintf(out, ")</text>\n");
		y += TS_LEGEND_LINE;
	}
}

int timeseries_plot_write(FILE *out, const char *title, const struct ts_line *l, size_t n)
{
	struct frame f = { 0, 0 };
	double height = panel_top(TS_NR_PANELS - 1) + TS_PANEL_H + TS_LEGEND_TOP;

	for (size_t i = 0; i < n; i++) {
		height += l[i].thin ? 0 : TS_LEGEND_LINE;
		f.t0 = fmin(f.t0, -(double)l[i].s->ramp_ns / 1e9);
		if (l[i].s->n)
			f.t1 = fmax(f.t1, (double)l[i].s->pts[l[i].s->n - 1].end_ns / 1e9);
	}
	if (f.t1 <= f.t0)
		f.t1 = f.t0 + 1;
	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%.0f\" viewBox=\"0 0 %d %.0f\" "
		"font-family=\"Verdana, sans-serif\" font-size=\"12\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n"
		"<text id=\"title\" x=\"%d\" y=\"22\" font-size=\"17\" text-anchor=\"middle\">",
		TS_W, height, TS_W, height, TS_W / 2);
	svg_escape(out, title);
	fprintf(out, "</text>\n");
	draw_spans(out, &f, l, n);
	draw_time_axis(out, &f);
	for (size_t k = 0; k < TS_NR_PANELS; k++)
		draw_panel(out, &f, k, l, n);
	draw_legend(out, l, n);
	fprintf(out, "</svg>\n");
	return ferror(out) ? -EIO : 0;
}

int svg_write_timeseries(const char *dir, const char *title, const struct ts_line *l, size_t n,
			 struct errbuf *err)
{
	int ret;
	FILE *f = svg_file_open(dir, "timeseries.svg", err, &ret);

	if (!f)
		return ret;
	ret = timeseries_plot_write(f, title, l, n);
	return svg_file_close(f, ret, dir, "timeseries.svg", err);
}
