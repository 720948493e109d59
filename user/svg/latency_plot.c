// SPDX-License-Identifier: GPL-2.0
/* The clat distributions of one or more runs on a log axis, p50/p99/p99.9
 * marked. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/duration.h"
#include "svg/svg.h"

#define PLOT_W 1000
#define PLOT_H 520
#define MARGIN_L 70
#define MARGIN_R 30
#define MARGIN_T 60
#define MARGIN_B 60
#define BINS_PER_DECADE 20


/* An axis label: three significant digits in the duration's unit. */
static void fmt_ns(char *buf, size_t size, double ns)
{
	const char *unit;
	double div = duration_unit(ns, &unit);

	snprintf(buf, size, "%.3g%s", ns / div, unit);
}

/* Non-empty range of @h in log10(ns). */
static int hist_range(const struct hist *h, double *lo, double *hi)
{
	int found = 0;

	for (unsigned int s = 0; s < IODIG_HIST_SLOTS; s++) {
		double a, b;

		if (!h->slot[s])
			continue;
		a = log10((double)(iodig_hist_slot_low(s) ? iodig_hist_slot_low(s) : 1));
		b = log10((double)(iodig_hist_slot_low(s) + iodig_hist_slot_width(s)));
		if (!found || a < *lo)
			*lo = a;
		if (!found || b > *hi)
			*hi = b;
		found = 1;
	}
	return found;
}

int latency_plot_write(FILE *out, const char *title, const struct hist *const *h,
		       const char *const *names, size_t n)
{
	double lo = 0, hi = 0, ymax = 0, *bins[8] = { 0 };
	int nb, have = 0;
	const double pw = PLOT_W - MARGIN_L - MARGIN_R, ph = PLOT_H - MARGIN_T - MARGIN_B;
	int ret = 0;

	if (n > 8)
		n = 8;
	for (size_t i = 0; i < n; i++) {
		double a = 0, b = 0;

		if (h[i] && h[i]->total && hist_range(h[i], &a, &b)) {
			lo = have ? fmin(lo, a) : a;
			hi = have ? fmax(hi, b) : b;
			have = 1;
		}
	}
	if (!have) {
		lo = 3;
		hi = 6;
	}
	lo = floor(lo);
	hi = ceil(hi);
	if (hi <= lo)
		hi = lo + 1;
	nb = (int)((hi - lo) * BINS_PER_DECADE);
	/* re-bin the log-linear slots into equal log-width bins */
	for (size_t i = 0; i < n; i++) {
		bins[i] = calloc((size_t)nb, sizeof(double));
		if (!bins[i]) {
			ret = -ENOMEM;
			goto cleanup;
		}
		if (!h[i] || !h[i]->total)
			continue;
		for (unsigned int s = 0; s < IODIG_HIST_SLOTS; s++) {
			double x;
			int b;

			if (!h[i]->slot[s])
				continue;
			x = log10((double)(iodig_hist_slot_mid(s) ? iodig_hist_slot_mid(s) : 1));
			b = (int)((x - lo) * BINS_PER_DECADE);
			b = b < 0 ? 0 : b >= nb ? nb - 1 : b;
			bins[i][b] += 100.0 * (double)h[i]->slot[s] / (double)h[i]->total;
		}
		for (int b = 0; b < nb; b++)
			ymax = fmax(ymax, bins[i][b]);
	}
	if (ymax <= 0)
		ymax = 1;
	ymax *= 1.1;

	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"Verdana, sans-serif\" font-size=\"12\">\n",
		PLOT_W, PLOT_H, PLOT_W, PLOT_H);
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n<text x=\"%d\" y=\"28\" font-size=\"17\" text-anchor=\"middle\" id=\"title\">",
		PLOT_W / 2);
	svg_escape(out, title);
	fprintf(out, "</text>\n");
	/* axes, decade ticks */
	fprintf(out, "<g stroke=\"#444\" fill=\"none\"><path d=\"M%d %d V%d H%d\"/></g>\n",
		MARGIN_L, MARGIN_T, PLOT_H - MARGIN_B, PLOT_W - MARGIN_R);
	for (double dcd = lo; dcd <= hi + 1e-9; dcd += 1) {
		double x = MARGIN_L + (dcd - lo) / (hi - lo) * pw;
		char lab[32];

		fmt_ns(lab, sizeof(lab), pow(10, dcd));
		fprintf(out, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>"
			"<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>\n",
			x, MARGIN_T, x, PLOT_H - MARGIN_B, x, PLOT_H - MARGIN_B + 18, lab);
	}
	for (int t = 0; t <= 4; t++) {
		double y = PLOT_H - MARGIN_B - ph * t / 4.0;

		fprintf(out, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%.2g%%</text>\n",
			MARGIN_L - 6, y + 4, ymax * t / 4.0);
	}
	fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">completion latency (clat), log scale</text>\n",
		MARGIN_L + (int)pw / 2, PLOT_H - 18);
	fprintf(out, "<text x=\"16\" y=\"%d\" transform=\"rotate(-90 16 %d)\" text-anchor=\"middle\">share of I/Os per bin (%d bins per decade)</text>\n",
		MARGIN_T + (int)ph / 2, MARGIN_T + (int)ph / 2, BINS_PER_DECADE);
	for (size_t i = 0; i < n; i++) {
		const char *col = svg_color(i);
		static const double pcts[] = { 50.0, 99.0, 99.9 };
		static const char *const plabels[] = { "p50", "p99", "p99.9" };

		fprintf(out, "<g class=\"series\"><polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", col);
		for (int b = 0; b < nb; b++) {
			double x0 = MARGIN_L + pw * b / nb, x1 = MARGIN_L + pw * (b + 1) / nb;
			double y = PLOT_H - MARGIN_B - ph * bins[i][b] / ymax;

			fprintf(out, "%.1f,%.1f %.1f,%.1f ", x0, y, x1, y);
		}
		fprintf(out, "\"/>\n");
		for (size_t p = 0; h[i] && h[i]->total && p < 3; p++) {
			double v = (double)hist_percentile(h[i], pcts[p]);
			double x = MARGIN_L + (log10(v > 1 ? v : 1) - lo) / (hi - lo) * pw;
			char lab[32];

			fmt_ns(lab, sizeof(lab), v);
			/* labels right of the line, or left of it near the right edge */
			bool left = x > MARGIN_L + 0.8 * pw;

			fprintf(out, "<line class=\"pct\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-dasharray=\"4 3\"/>"
				"<text x=\"%.1f\" y=\"%d\" fill=\"%s\" font-size=\"11\" text-anchor=\"%s\">%s %s</text>\n",
				x, MARGIN_T, x, PLOT_H - MARGIN_B, col, left ? x - 3 : x + 3,
				MARGIN_T + 12 + (int)(p * n + i) * 13, col, left ? "end" : "start",
				plabels[p], lab);
		}
		/* legend top left, where latency curves rarely are */
		fprintf(out, "<text class=\"legend\" x=\"%d\" y=\"%d\" fill=\"%s\">",
			MARGIN_L + 10, MARGIN_T + 14 + (int)i * 15, col);
		svg_escape(out, names[i]);
		fprintf(out, " (%llu I/Os)</text></g>\n", h[i] ? (unsigned long long)h[i]->total : 0ull);
	}
	fprintf(out, "</svg>\n");
	if (ferror(out))
		ret = -EIO;
cleanup:
	for (size_t i = 0; i < n; i++)
		free(bins[i]);
	return ret;
}

int svg_write_latency(const char *dir, const struct hist *const *h,
		      const char *const *names, size_t n, struct errbuf *err)
{
	int ret;
	FILE *f = svg_file_open(dir, "latency.svg", err, &ret);

	if (!f)
		return ret;
	ret = latency_plot_write(f, n > 1 ? "clat distribution, overlaid" : "clat distribution",
				 h, names, n);
	return svg_file_close(f, ret, dir, "latency.svg", err);
}
