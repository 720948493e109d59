// Diff model: Welch verdicts with repeats, "single run" without, same-role function pairing, "only in" rows, environment warnings (a different clocksource among them), the three renderers, and rows labelled from the definitions a trace file carries.
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diff.h"
#include "tests/lib/check.h"
#include "diff_sim.h"
#include "analysis/tracefile.h"

/* A trace file of @version with @runs and, from 1.1 on, @defs. */
/* @kernel: members added to the environment's kernel object. */
static struct tracefile *make_env(const char *version, const char *name, const char *dev,
				  const char *kernel, const char *runs, const char *defs)
{
	char doc[8192];
	struct tracefile *tf = NULL;
	struct errbuf err = { "" };

	snprintf(doc, sizeof(doc),
		 "{\"iodig_trace_version\": \"%s\", \"jobs\": [], \"iodig\": {"
		 "\"environment\": {\"kernel\": {\"release\": \"6.1\"%s}, \"cpu\": {\"online\": 2},"
		 " \"devices\": [{\"name\": \"%s\", \"scheduler\": \"none\"}]},"
		 "%s%s%s"
		 "\"repeats\": {\"runs\": [%s]}}}", version, kernel, dev,
		 defs ? "\"figure_definitions\": [" : "", defs ? defs : "", defs ? "]," : "", runs);
	if (tracefile_parse_buffer(name, doc, strlen(doc), &tf, &err))
		fprintf(stderr, "%s: %s\n", name, err.msg);
	return tf;
}

static struct tracefile *make_v(const char *version, const char *name, const char *dev,
				const char *runs, const char *defs)
{
	return make_env(version, name, dev, "", runs, defs);
}

/* A 1.4 file read with clocksource @cs ("" leaves it out). */
static struct tracefile *make_clock(const char *name, const char *cs)
{
	char kernel[64] = "";

	if (cs[0])
		snprintf(kernel, sizeof(kernel), ", \"clocksource\": \"%s\"", cs);
	return make_env("1.4", name, "loop0", kernel, "{\"figures\": {\"iops\": 1}, \"series\": []}",
			"{\"key\": \"iops\", \"kind\": \"workload\", \"label\": \"IOPS\", "
			"\"unit\": \"\", \"better\": \"higher\"}");
}

/* hpet against tsc warns, naming both; a file without one says nothing. */
static void clocksource_warning(void)
{
	static const char *const pairs[][2] = { { "hpet", "tsc" }, { "tsc", "tsc" }, { "", "tsc" } };

	for (size_t i = 0; i < 3; i++) {
		struct tracefile *tf[2] = { make_clock("a.json", pairs[i][0]),
					    make_clock("b.json", pairs[i][1]) };
		struct errbuf err = { "" };
		struct diff *d = NULL;
		bool warned = false;

		CHECK(tf[0] && tf[1]);
		if (!tf[0] || !tf[1] || diff_build(tf, 2, &(struct diff_opts){ .alpha = 0.01 }, &d, &err)) {
			CHECK_MSG(0, "clocksource pair %zu: %s", i, err.msg);
			tracefile_free(tf[0]);
			tracefile_free(tf[1]);
			continue;
		}
		for (size_t w = 0; w < d->nr_warnings; w++)
			warned |= strstr(d->warnings[w], "clocksource differs") &&
				  strstr(d->warnings[w], "hpet") && strstr(d->warnings[w], "tsc");
		CHECK_MSG(warned == (i == 0), "clocksource %s vs %s: warned %d", pairs[i][0],
			  pairs[i][1], warned);
		diff_free(d);
	}
}

static struct tracefile *make(const char *name, const char *dev, const char *runs)
{
	return make_v("1.0", name, dev, runs, NULL);
}

static const struct diff_row *row(const struct diff *d, const char *label)
{
	for (size_t i = 0; i < d->nr_rows; i++)
		if (!strcmp(d->rows[i].label, label))
			return &d->rows[i];
	return NULL;
}

/*
 * Figures diff.c has never heard of, a kernel one and a function row of a
 * new role: the rows take label, unit and what they measure from the
 * definitions the files carry, so a family adds a figure in its own file.
 */
static void unknown_definitions(void)
{
	static const char defs[] =
		"{\"key\": \"iops\", \"kind\": \"workload\", \"label\": \"IOPS\", \"unit\": \"\", \"better\": \"higher\"},"
		"{\"key\": \"kernel.widget_wait_ns_per_io\", \"kind\": \"kernel\", \"label\": \"widget wait per I/O\","
		" \"unit\": \"ns\", \"better\": \"lower\"},"
		"{\"key\": \"fn|widget|*|ns_per_io\", \"kind\": \"function\", \"label\": \"widget stage\","
		" \"measure\": \"stage time/IO\", \"unit\": \"ns/IO\", \"better\": \"lower\"}";
	struct tracefile *tf[2];
	struct diff *d = NULL;
	struct errbuf err = { "" };
	const struct diff_row *r;
	char *text;

	tf[0] = make_v("1.1", "a.json", "loop0", "{\"figures\": {\"iops\": 100, "
		       "\"kernel.widget_wait_ns_per_io\": 1500, \"fn|widget|frob_one|ns_per_io\": 250}}", defs);
	tf[1] = make_v("1.1", "b.json", "loop1", "{\"figures\": {\"iops\": 90, "
		       "\"kernel.widget_wait_ns_per_io\": 2500, \"fn|widget|frob_one|ns_per_io\": 350}}", defs);
	CHECK(tf[0] && tf[1] && tf[0]->nr_defs == 3);
	if (!tf[0] || !tf[1])
		return;
	CHECK_MSG(diff_build(tf, 2, &(struct diff_opts){ .alpha = 0.01, .min_change = 2 }, &d, &err) == 0, "%s", err.msg);
	if (!d)
		return;
	r = row(d, "widget wait per I/O");
	CHECK(r && !strcmp(r->section, "kernel") && !strcmp(r->unit, "ns") &&
	      r->cells[1].present && r->cells[1].change == 1000);
	r = row(d, "widget stage frob_one stage time/IO");
	CHECK(r && !strcmp(r->section, "functions") && !strcmp(r->unit, "ns/IO"));
	d->all = true;             /* single runs: nothing changed, all folded */
	text = render(d, diff_render_text);
	CHECK(text && strstr(text, "widget wait per I/O") && strstr(text, "1.5 us") &&
	      strstr(text, "widget stage frob_one stage time/IO") && strstr(text, "250 ns/IO"));
	free(text);
	diff_free(d);

	/* a 1.1 file must carry its definitions, and well-formed ones */
	tf[0] = make_v("1.1", "a.json", "loop0", "{\"figures\": {\"iops\": 1}}", NULL);
	CHECK(!tf[0]);
	tf[0] = make_v("1.1", "a.json", "loop0", "{\"figures\": {\"iops\": 1}}",
		       "{\"key\": \"fn|x|y|ns\", \"kind\": \"function\", \"label\": \"x\","
		       " \"measure\": \"m\", \"unit\": \"\", \"better\": \"none\"}");
	CHECK(!tf[0]);
	tf[0] = make_v("1.1", "a.json", "loop0", "{\"figures\": {\"iops\": 1}}",
		       "{\"key\": \"iops\", \"kind\": \"workload\", \"label\": \"IOPS\", \"unit\": \"\","
		       " \"better\": \"sideways\"}");
	CHECK(!tf[0]);
}

/* Two job groups: the whole run's rows, then each group's, compared
 * group by group. */
static void job_groups(void)
{
	static const char defs[] =
		"{\"key\": \"iops\", \"kind\": \"workload\", \"label\": \"IOPS\", \"unit\": \"\", \"better\": \"higher\"},"
		"{\"key\": \"kernel.switches_per_io\", \"kind\": \"kernel\", \"label\": \"sched switches per I/O\","
		" \"unit\": \"\", \"better\": \"lower\"}";
	static const char runs[] = "{\"figures\": {\"iops\": 30, \"g0/iops\": 10, \"g1/iops\": 20,"
		" \"g0/kernel.switches_per_io\": 0.1, \"g1/kernel.switches_per_io\": 0.3}}";
	static const char *const sections[] = { "workload", "group 0 workload", "group 0 kernel",
						"group 1 workload", "group 1 kernel" };
	struct tracefile *tf[2];
	struct diff *d = NULL;
	struct errbuf err = { "" };

	tf[0] = make_v("1.1", "a.json", "loop0", runs, defs);
	tf[1] = make_v("1.1", "b.json", "loop0", runs, defs);
	CHECK(tf[0] && tf[1]);
	if (!tf[0] || !tf[1] || diff_build(tf, 2, &(struct diff_opts){ .alpha = 0.01, .min_change = 2 }, &d, &err))
		return;
	CHECK(d->nr_rows == 5);
	for (size_t i = 0; i < d->nr_rows && i < 5; i++)
		CHECK_MSG(!strcmp(d->rows[i].section, sections[i]), "row %zu is in '%s'", i,
			  d->rows[i].section);
	CHECK(d->nr_rows == 5 && d->rows[4].cells[1].s.mean == 0.3 &&
	      d->rows[4].cells[1].change == 0 && d->rows[4].cells[1].sig == SIG_SINGLE);
	diff_free(d);
}

/* Each unit in its own ladder: time, KiB/s, counts (k from 10000 up). */
static void test_fmt_value(void)
{
	static const struct { double v; const char *unit, *want; } cases[] = {
		{ 1.5e9, "ns", "1.5 s" },
		{ 2500, "ns/IO", "2.5 us/IO" },
		{ -3e6, "ns", "-3 ms" },
		{ 999, "ns", "999 ns" },
		{ NAN, "ns", "nan ns" },
		{ 2048, "KiB/s", "2 MiB/s" },
		{ 3.5e6, "KiB/s", "3.34 GiB/s" },
		{ 100, "KiB/s", "100 KiB/s" },
		{ 12345, "IOPS", "12.3k IOPS" },
		{ 9999, "IOPS", "1e+04 IOPS" },
		{ 2.5e6, "", "2.5M" },
		{ 50, "%", "50.0%" },
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		diff_fmt_value(buf, sizeof(buf), cases[i].v, cases[i].unit);
		CHECK_MSG(!strcmp(buf, cases[i].want), "%g %s: '%s', want '%s'",
			  cases[i].v, cases[i].unit, buf, cases[i].want);
	}
}

/*
 * A renamed function whose successor in B is much heavier than it was in
 * A (rows are taken heaviest first): still one row "old → new", never an
 * "only in B" row for the new name beside an "only in A" row for the old.
 */
static void heavier_successor(void)
{
	struct tracefile *tf[2];
	struct diff *d = NULL;
	struct errbuf err = { "" };
	const struct diff_row *r;

	tf[0] = make("a.json", "loop0",
		     "{\"figures\": {\"iops\": 100, \"fn|slat|get_user_pages_fast|ns_per_io\": 100}},"
		     "{\"figures\": {\"iops\": 101, \"fn|slat|get_user_pages_fast|ns_per_io\": 110}}");
	tf[1] = make("b.json", "loop0",
		     "{\"figures\": {\"iops\": 90, \"fn|slat|pin_user_pages_fast|ns_per_io\": 5000}},"
		     "{\"figures\": {\"iops\": 91, \"fn|slat|pin_user_pages_fast|ns_per_io\": 5200}}");
	CHECK(tf[0] && tf[1]);
	if (!tf[0] || !tf[1] ||
	    diff_build(tf, 2, &(struct diff_opts){ .alpha = 0.01, .min_change = 2 }, &d, &err)) {
		CHECK_MSG(0, "heavier_successor: %s", err.msg);
		return;
	}
	r = row(d, "slat (sampled) get_user_pages_fast → pin_user_pages_fast time/IO");
	CHECK(r && r->cells[0].s.mean == 105 && r->cells[1].s.mean == 5100);
	CHECK(!row(d, "slat (sampled) pin_user_pages_fast time/IO"));
	CHECK(!row(d, "slat (sampled) get_user_pages_fast time/IO"));
	diff_free(d);
	tracefile_free(tf[0]);
	tracefile_free(tf[1]);
}

int main(void)
{
	struct tracefile *tf[3];
	struct diff *d = NULL;
	struct errbuf err = { "" };
	const struct diff_row *r;
	char *text;

	test_fmt_value();
	tf[0] = make("a.json", "loop0",
		     "{\"figures\": {\"iops\": 100, \"ctx_per_io\": 0.5, \"fn|slat|get_user_pages_fast|ns_per_io\": 300, \"fn|slat|old_only|ns_per_io\": 50}},"
		     "{\"figures\": {\"iops\": 101, \"ctx_per_io\": 0.51, \"fn|slat|get_user_pages_fast|ns_per_io\": 310, \"fn|slat|old_only|ns_per_io\": 55}},"
		     "{\"figures\": {\"iops\": 99, \"ctx_per_io\": 0.49, \"fn|slat|get_user_pages_fast|ns_per_io\": 305, \"fn|slat|old_only|ns_per_io\": 52}}");
	tf[1] = make("b.json", "zram0",
		     "{\"figures\": {\"iops\": 150, \"ctx_per_io\": 0.5, \"fn|slat|pin_user_pages_fast|ns_per_io\": 200, \"fn|slat|new_only|ns_per_io\": 40}},"
		     "{\"figures\": {\"iops\": 152, \"ctx_per_io\": 0.52, \"fn|slat|pin_user_pages_fast|ns_per_io\": 210, \"fn|slat|new_only|ns_per_io\": 45}},"
		     "{\"figures\": {\"iops\": 149, \"ctx_per_io\": 0.48, \"fn|slat|pin_user_pages_fast|ns_per_io\": 205, \"fn|slat|new_only|ns_per_io\": 42}}");
	tf[2] = make("c.json", "loop1", "{\"figures\": {\"iops\": 120, \"ctx_per_io\": 0.5}}");
	CHECK(tf[0] && tf[1] && tf[2]);
	if (!tf[0] || !tf[1] || !tf[2])
		return 1;
	CHECK_MSG(diff_build(tf, 3, &(struct diff_opts){ .alpha = 0.01, .min_change = 2 }, &d, &err) == 0, "%s", err.msg);
	if (!d)
		return 1;
	r = row(d, "IOPS");
	CHECK(r && r->cells[1].sig == SIG_CHANGED && r->cells[1].w.p < 0.001);
	CHECK(r && fabs(r->cells[1].change - 50.333333) < 1e-4 && fabs(r->cells[1].change_pct - 50.333333) < 1e-4);
	CHECK(r && r->cells[2].sig == SIG_SINGLE);
	r = row(d, "context switches per I/O");
	CHECK(r && r->cells[1].sig == SIG_NOISE);
	r = row(d, "slat (sampled) get_user_pages_fast → pin_user_pages_fast time/IO");
	CHECK(r && r->cells[0].present && r->cells[1].present && r->cells[1].s.mean == 205);
	r = row(d, "slat (sampled) old_only time/IO");
	CHECK(r && !strcmp(r->note, "only in A"));
	r = row(d, "slat (sampled) new_only time/IO");
	CHECK(r && !strcmp(r->note, "only in B"));
	/* zram0 vs loop0 warns; loop1 vs loop0 is the same kind of device */
	CHECK(d->nr_warnings == 1 && strstr(d->warnings[0], "different target device") &&
	      strstr(d->warnings[0], "zram0"));

	text = render(d, diff_render_text);
	CHECK(text && strstr(text, "single run: no significance") && strstr(text, "CHANGED (Welch t p="));
	free(text);
	text = render(d, diff_render_md);
	CHECK(text && strstr(text, "| IOPS |") && strstr(text, "**changed**"));
	free(text);
	text = render(d, diff_render_json);
	CHECK(text && strstr(text, "\"verdict\": \"changed\"") && strstr(text, "Welch"));
	free(text);
	diff_free(d);
	diff_free(NULL);
	unknown_definitions();
	job_groups();
	clocksource_warning();
	heavier_successor();
	if (check_failures)
		return 1;
	printf("diff: all checks passed\n");
	return 0;
}
