// SVG writers: flame graph frames merge per stack prefix with escaped names, differential colours grow red / shrink blue, latency plot marks p50/p99/p99.9.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svg/svg.h"
#include "tests/lib/check.h"
#include "analysis/tracefile.h"

static char *render_flame(const struct stack_count *cur, size_t nc, const struct stack_count *base, size_t nb)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK(f != NULL);
	if (!f)
		return NULL;
	CHECK(flamegraph_write(f, "T <1>", "sub & more", cur, nc, base, nb) == 0);
	fclose(f);
	return text;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
		n++;
	return n;
}

/* The <g> of frame @name; its fill. */
static const char *fill_of(const char *svg, const char *name, char *buf, size_t size)
{
	char key[128];
	const char *p, *q;

	snprintf(key, sizeof(key), "data-n=\"%s\"", name);
	p = strstr(svg, key);
	p = p ? strstr(p, "fill=\"") : NULL;
	if (!p)
		return "";
	p += 6;
	q = strchr(p, '"');
	snprintf(buf, size, "%.*s", (int)(q - p), p);
	return buf;
}

int main(void)
{
	struct stack_count a[] = { { "main;read<x>;c", 5 }, { "main;read<x>;d&e", 3 }, { "other", 2 } };
	struct stack_count base[] = { { "main;read<x>;c", 1 }, { "main;read<x>;d&e", 9 } };
	char *svg, buf[64];

	svg = render_flame(a, 3, NULL, 0);
	if (svg) {
		/* all, main, read<x>, c, d&e, other */
		CHECK_MSG(count(svg, "<g class=\"f\"") == 6, "%zu frames", count(svg, "<g class=\"f\""));
		CHECK(strstr(svg, "data-n=\"read&lt;x&gt;\""));
		CHECK(strstr(svg, "data-n=\"d&amp;e\""));
		CHECK(!strstr(svg, "<x>"));
		CHECK(strstr(svg, "T &lt;1&gt;") && strstr(svg, "sub &amp; more"));
		CHECK(strstr(svg, "<![CDATA[") && strstr(svg, "iodigSearch"));
		/* widths: main is 8 of 10 samples of the 1180 px wide graph */
		CHECK(strstr(svg, "data-n=\"main\" data-x=\"10.00\" data-w=\"944.00\""));
		CHECK(strstr(svg, "(8, 80.00%)"));
		CHECK(!strstr(svg, "http://") || count(svg, "http://") == count(svg, "http://www.w3.org/2000/svg"));
	}
	free(svg);

	svg = render_flame(a, 3, base, 2);
	if (svg) {
		/* c: 50% of B vs 10% of A grew; d&e 30% vs 90% shrank */
		CHECK_MSG(!strncmp(fill_of(svg, "c", buf, sizeof(buf)), "rgb(255,", 8), "c fill %s", buf);
		CHECK_MSG(strstr(fill_of(svg, "d&amp;e", buf, sizeof(buf)), ",255)") != NULL, "d&e fill %s", buf);
		CHECK(strstr(svg, "+40.00 points"));
	}
	free(svg);

	svg = render_flame(NULL, 0, NULL, 0);
	CHECK(svg && strstr(svg, "no stacks were recorded") && strstr(svg, "</svg>"));
	free(svg);

	{
		struct hist *h = calloc(1, sizeof(*h)), *h2 = calloc(1, sizeof(*h2));
		const struct hist *hs[2] = { h, h2 };
		const char *names[2] = { "A <run>", "B" };
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		for (uint64_t v = 1000; v < 200000; v += 997)
			hist_add(h, v);
		hist_add(h2, 50000);
		CHECK(f && latency_plot_write(f, "clat", hs, names, 2) == 0);
		if (f)
			fclose(f);
		CHECK(text && count(text, "<polyline") == 2);
		CHECK(text && count(text, "class=\"pct\"") == 6);
		CHECK(text && strstr(text, ">p99.9 "));
		CHECK(text && strstr(text, "A &lt;run&gt;"));
		CHECK(text && strstr(text, ">1us<") && strstr(text, ">100us<"));
		free(text);
		free(h);
		free(h2);
	}
	if (check_failures)
		return 1;
	printf("svg: all checks passed\n");
	return 0;
}
