// SPDX-License-Identifier: GPL-2.0
/*
 * Flame graphs as self-contained SVG: folded stacks merged into a tree,
 * each frame as wide as its share of the samples, root at the bottom
 * (Brendan Gregg's layout).  The embedded script zooms into a clicked
 * frame, searches frames by regular expression (the "Search" button, or
 * ?s=REGEX in the URL) and shows the hovered frame's figures.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "svg/svg.h"

#define FG_W 1200
#define FG_PAD 10
#define FG_FRAME_H 16
#define FG_TOP 56
#define FG_BOTTOM 34
#define FG_MIN_W 0.1

struct fnode {
	char *name;
	double v;                  /* weight in the shown profile */
	double va;                 /* weight in the base profile (differential) */
	size_t child, next;        /* first child, next sibling; 0 = none */
};

struct ftree {
	struct fnode *n;
	size_t nr, cap;
	unsigned int max_depth;
};

static size_t node_new(struct ftree *t, const char *name, size_t len)
{
	struct fnode *p = grow_for_one(t->n, &t->cap, t->nr, sizeof(*p), 256);

	if (!p)
		return 0;
	t->n = p;
	memset(&t->n[t->nr], 0, sizeof(t->n[t->nr]));
	t->n[t->nr].name = strndup(name, len);
	if (!t->n[t->nr].name)
		return 0;
	return t->nr++;
}

/* Adds one folded stack ("a;b;c"), root first, to the tree. */
static int tree_add(struct ftree *t, const char *stack, double w, bool base)
{
	size_t cur = 0;
	unsigned int depth = 0;
	const char *p = stack;

	if (base)
		t->n[0].va += w;
	else
		t->n[0].v += w;
	while (*p) {
		size_t len = strcspn(p, ";"), c;

		if (len) {
			for (c = t->n[cur].child; c; c = t->n[c].next)
				if (strlen(t->n[c].name) == len && !strncmp(t->n[c].name, p, len))
					break;
			if (!c) {
				c = node_new(t, p, len);
				if (!c)
					return -ENOMEM;
				t->n[c].next = t->n[cur].child;
				t->n[cur].child = c;
			}
			if (base)
				t->n[c].va += w;
			else
				t->n[c].v += w;
			cur = c;
			depth++;
		}
		p += len;
		if (*p == ';')
			p++;
	}
	if (depth > t->max_depth)
		t->max_depth = depth;
	return 0;
}

static int by_name(const void *a, const void *b, void *tree)
{
	const struct ftree *t = tree;

	return strcmp(t->n[*(const size_t *)a].name, t->n[*(const size_t *)b].name);
}

/* Children in name order, as flame graphs conventionally are: the x axis
 * is not time, and sorted frames make two graphs comparable by eye. */
static int tree_sort(struct ftree *t)
{
	size_t *idx = malloc(t->nr * sizeof(*idx));

	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr; i++) {
		size_t n = 0;

		for (size_t c = t->n[i].child; c; c = t->n[c].next)
			idx[n++] = c;
		if (n < 2)
			continue;
		qsort_r(idx, n, sizeof(*idx), by_name, t);
		t->n[i].child = idx[0];
		for (size_t k = 0; k < n; k++)
			t->n[idx[k]].next = k + 1 < n ? idx[k + 1] : 0;
	}
	free(idx);
	return 0;
}

static void tree_free(struct ftree *t)
{
	for (size_t i = 0; i < t->nr; i++)
		free(t->n[i].name);
	free(t->n);
}

/* Deterministic warm colour per name, so two graphs of one run agree. */
static void warm_color(const char *name, char *buf, size_t size)
{
	uint32_t h = 2166136261u;

	for (const char *p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	snprintf(buf, size, "rgb(%u,%u,%u)", 225 + (h & 31), 80 + ((h >> 5) % 140),
		 30 + ((h >> 13) % 50));
}

/* Red for a frame whose share grew, blue for one that shrank. */
static void diff_color(double delta, double max_abs, char *buf, size_t size)
{
	double k = max_abs > 0 ? fabs(delta) / max_abs : 0;
	unsigned int c = (unsigned int)(235 - 190 * k);

	if (delta > 0)
		snprintf(buf, size, "rgb(255,%u,%u)", c, c);
	else if (delta < 0)
		snprintf(buf, size, "rgb(%u,%u,255)", c, c);
	else
		snprintf(buf, size, "rgb(235,235,235)");
}

struct fg_ctx {
	FILE *out;
	struct ftree *t;
	bool diff;
	double total, total_a, max_abs, scale;
	unsigned int height;
};

static double delta_of(const struct fg_ctx *c, const struct fnode *n)
{
	return (c->total ? n->v / c->total : 0) - (c->total_a ? n->va / c->total_a : 0);
}

static void max_delta(struct fg_ctx *c)
{
	for (size_t i = 1; i < c->t->nr; i++)
		c->max_abs = fmax(c->max_abs, fabs(delta_of(c, &c->t->n[i])));
}

static void emit(struct fg_ctx *c, size_t idx, double x, unsigned int depth)
{
	const struct fnode *n = &c->t->n[idx];
	double w = n->v * c->scale, cx = x;
	double y = c->height - FG_BOTTOM - (depth + 1) * FG_FRAME_H;
	char fill[40];

	if (w < FG_MIN_W)
		return;
	if (c->diff)
		diff_color(delta_of(c, n), c->max_abs, fill, sizeof(fill));
	else if (!idx)
		snprintf(fill, sizeof(fill), "rgb(200,200,200)");
	else
		warm_color(n->name, fill, sizeof(fill));
	fprintf(c->out, "<g class=\"f\" data-n=\"");
	svg_escape(c->out, n->name);
	fprintf(c->out, "\" data-x=\"%.2f\" data-w=\"%.2f\" data-d=\"%u\"><title>", x, w, depth);
	svg_escape(c->out, n->name);
	if (c->diff)
		fprintf(c->out, " (B %.0f, %.2f%%; A %.0f, %.2f%%; %+.2f points)", n->v,
			100.0 * n->v / c->total, n->va, c->total_a ? 100.0 * n->va / c->total_a : 0.0,
			100.0 * delta_of(c, n));
	else
		fprintf(c->out, " (%.0f, %.2f%%)", n->v, 100.0 * n->v / c->total);
	fprintf(c->out, "</title><rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\" rx=\"2\"/>"
		"<text x=\"%.2f\" y=\"%.1f\"></text></g>\n",
		x, y, w, FG_FRAME_H - 1, fill, x + 3, y + FG_FRAME_H - 4);
	for (size_t ch = n->child; ch; ch = c->t->n[ch].next) {
		emit(c, ch, cx, depth + 1);
		cx += c->t->n[ch].v * c->scale;
	}
}

/* The interactive part: zoom on click, reset, regex search, hover details.
 * Plain DOM calls only, so any browser's SVG viewer runs it. */
static const char fg_script[] =
"var W=%d,PAD=%d,frames=[],details,matchedText;\n"
"function num(g,a){return parseFloat(g.getAttribute(a));}\n"
"function fit(g){var r=g.querySelector('rect'),t=g.querySelector('text'),w=parseFloat(r.getAttribute('width')),n=g.getAttribute('data-n'),m=Math.floor((w-6)/7);\n"
" t.textContent=m<3?'':(n.length<=m?n:n.substring(0,m-2)+'..');}\n"
"function place(g,x,w){var r=g.querySelector('rect'),t=g.querySelector('text');r.setAttribute('x',x);r.setAttribute('width',w);t.setAttribute('x',x+3);fit(g);}\n"
"function zoom(g){var x0=num(g,'data-x'),w0=num(g,'data-w'),d0=num(g,'data-d'),s=(W-2*PAD)/w0,e=1e-6;\n"
" frames.forEach(function(f){var x=num(f,'data-x'),w=num(f,'data-w'),d=num(f,'data-d');\n"
"  if(d<d0&&x<=x0+e&&x+w>=x0+w0-e){f.style.display='';f.setAttribute('opacity','0.6');place(f,PAD,W-2*PAD);}\n"
"  else if(d>=d0&&x>=x0-e&&x+w<=x0+w0+e){f.style.display='';f.removeAttribute('opacity');place(f,PAD+(x-x0)*s,w*s);}\n"
"  else f.style.display='none';});\n"
" document.getElementById('unzoom').style.display='';}\n"
"function unzoom(){frames.forEach(function(f){f.style.display='';f.removeAttribute('opacity');place(f,num(f,'data-x'),num(f,'data-w'));});\n"
" document.getElementById('unzoom').style.display='none';}\n"
"function search(term){var re,spans=[],tot=W-2*PAD,cov=0,end=-1;\n"
" frames.forEach(function(f){var r=f.querySelector('rect');if(f.hasAttribute('data-fill'))r.setAttribute('fill',f.getAttribute('data-fill'));f.classList.remove('match');});\n"
" if(!term){matchedText.textContent='';return 0;}\n"
" try{re=new RegExp(term);}catch(e){matchedText.textContent='bad regex';return 0;}\n"
" frames.forEach(function(f){if(num(f,'data-d')>0&&re.test(f.getAttribute('data-n'))){var r=f.querySelector('rect');\n"
"  f.setAttribute('data-fill',r.getAttribute('fill'));r.setAttribute('fill','rgb(230,0,230)');f.classList.add('match');\n"
"  spans.push([num(f,'data-x'),num(f,'data-w')]);}});\n"
" spans.sort(function(a,b){return a[0]-b[0];});\n"
" spans.forEach(function(s){var a=Math.max(s[0],end),b=s[0]+s[1];if(b>a){cov+=b-a;end=b;}});\n"
" matchedText.textContent='Matched: '+(100*cov/tot).toFixed(1)+'%%';return cov/tot;}\n"
"function init(){frames=Array.prototype.slice.call(document.querySelectorAll('g.f'));\n"
" details=document.getElementById('details');matchedText=document.getElementById('matched');\n"
" frames.forEach(function(f){fit(f);\n"
"  f.addEventListener('click',function(){zoom(f);});\n"
"  f.addEventListener('mouseover',function(){details.textContent=f.querySelector('title').textContent;});\n"
"  f.addEventListener('mouseout',function(){details.textContent=' ';});});\n"
" document.getElementById('unzoom').addEventListener('click',unzoom);\n"
" document.getElementById('search').addEventListener('click',function(){var t=window.prompt('Search frames (regular expression)','');if(t!==null)search(t);});\n"
" var m=/[?&]s=([^&]*)/.exec(window.location.search);if(m)search(decodeURIComponent(m[1]));\n"
" document.documentElement.setAttribute('data-ready','1');}\n"
"window.iodigSearch=search;window.iodigZoom=zoom;\n"
"if(document.readyState==='loading')window.addEventListener('load',init);else init();\n";

int flamegraph_write(FILE *out, const char *title, const char *subtitle,
		     const struct stack_count *cur, size_t nr_cur,
		     const struct stack_count *base, size_t nr_base)
{
	struct ftree t = { 0 };
	struct fg_ctx c = { .out = out, .t = &t, .diff = base != NULL };
	int ret = 0;

	if (!node_new(&t, "all", 3) && !t.nr) {
		ret = -ENOMEM;
		goto cleanup;
	}
	for (size_t i = 0; !ret && i < nr_cur; i++)
		ret = tree_add(&t, cur[i].stack, cur[i].count, false);
	for (size_t i = 0; !ret && i < nr_base; i++)
		ret = tree_add(&t, base[i].stack, base[i].count, true);
	if (!ret)
		ret = tree_sort(&t);
	if (ret)
		goto cleanup;
	c.total = t.n[0].v;
	c.total_a = t.n[0].va;
	c.scale = c.total > 0 ? (FG_W - 2.0 * FG_PAD) / c.total : 0;
	c.height = FG_TOP + FG_BOTTOM + (t.max_depth + 1) * FG_FRAME_H;
	if (c.diff)
		max_delta(&c);

	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%u\" viewBox=\"0 0 %d %u\">\n",
		FG_W, c.height, FG_W, c.height);
	fprintf(out, "<style>text{font-family:Verdana,sans-serif;font-size:12px;fill:#000}"
		"g.f{cursor:pointer}g.f:hover rect{stroke:#000;stroke-width:0.5}"
		".btn{cursor:pointer;fill:#225}#title{font-size:17px}</style>\n");
	fprintf(out, "<script type=\"text/ecmascript\"><![CDATA[\n");
	fprintf(out, fg_script, FG_W, FG_PAD);
	fprintf(out, "]]></script>\n<rect width=\"100%%\" height=\"100%%\" fill=\"#fafaf2\"/>\n");
	fprintf(out, "<text id=\"title\" x=\"%d\" y=\"24\" text-anchor=\"middle\">", FG_W / 2);
	svg_escape(out, title);
	fprintf(out, "</text>\n<text x=\"%d\" y=\"42\" text-anchor=\"middle\" fill=\"#555\">", FG_W / 2);
	svg_escape(out, subtitle);
	fprintf(out, "</text>\n<text id=\"unzoom\" class=\"btn\" x=\"%d\" y=\"24\" style=\"display:none\">Reset zoom</text>\n", FG_PAD);
	fprintf(out, "<text id=\"search\" class=\"btn\" x=\"%d\" y=\"24\" text-anchor=\"end\">Search</text>\n", FG_W - FG_PAD);
	fprintf(out, "<text id=\"matched\" x=\"%d\" y=\"%u\" text-anchor=\"end\"></text>\n", FG_W - FG_PAD, c.height - 10);
	fprintf(out, "<text id=\"details\" x=\"%d\" y=\"%u\"> </text>\n", FG_PAD, c.height - 10);
	if (c.total > 0)
		emit(&c, 0, FG_PAD, 0);
	else
		fprintf(out, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">no stacks were recorded</text>\n",
			FG_W / 2, FG_TOP + 10);
	fprintf(out, "</svg>\n");
	if (ferror(out))
		ret = -EIO;
cleanup:
	tree_free(&t);
	return ret;
}

int svg_write_flame(const char *dir, const char *name, const char *title,
		    const char *sub, const struct stack_count *cur, size_t nr_cur,
		    const struct stack_count *base, size_t nr_base, struct errbuf *err)
{
	int ret;
	FILE *f = svg_file_open(dir, name, err, &ret);

	if (!f)
		return ret;
	ret = flamegraph_write(f, title, sub, cur, nr_cur, base, nr_base);
	return svg_file_close(f, ret, dir, name, err);
}
