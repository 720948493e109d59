// Trace files: a written file reads back with its figures and their definitions (1.1, per-group keys too), and truncated, newer-version, non-iodig and corrupt inputs each fail with a message naming the file.
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <json-c/json.h>

#include "tests/lib/check.h"
#include "analysis/tracefile.h"
#include "probes/figures.h"

/* A minimal valid trace document: two repeats, a histogram, stacks. */
static const char valid[] =
"{ \"iodig_trace_version\": \"1.0\", \"fio version\": \"iodig-0.1.0\", \"jobs\": [],\n"
"  \"iodig\": { \"environment\": { \"kernel\": { \"release\": \"6.18.0\" }, \"cpu\": { \"online\": 2 } },\n"
"    \"histograms\": [ { \"job\": \"j\", \"ddir\": \"read\", \"clat_ns\": [ [ 200, 3 ], [ 300, 1 ] ] } ],\n"
"    \"stacks\": { \"on_cpu_submission\": [ [ \"a;b;c\", 5 ] ], \"off_cpu_switches\": [ [ \"x;y\", 2 ] ] },\n"
"    \"repeats\": { \"count\": 2, \"runs\": [ { \"figures\": { \"iops\": 100, \"fn|slat|f|ns_per_io\": 7 } },\n"
"                                         { \"figures\": { \"iops\": 110 } } ] } } }\n";

/* 1.1: definitions travel with the figures; two job groups' keys. */
static const char groups[] =
"{ \"iodig_trace_version\": \"1.1\", \"jobs\": [],\n"
"  \"iodig\": { \"environment\": {},\n"
"    \"figure_definitions\": [\n"
"      { \"key\": \"iops\", \"kind\": \"workload\", \"label\": \"IOPS\", \"unit\": \"\", \"better\": \"higher\" },\n"
"      { \"key\": \"kernel.x_per_io\", \"kind\": \"kernel\", \"label\": \"x per I/O\", \"unit\": \"\", \"better\": \"none\" },\n"
"      { \"key\": \"fn|sched|*|ns_per_io\", \"kind\": \"function\", \"label\": \"blocks in\",\n"
"        \"measure\": \"off-CPU time/IO\", \"unit\": \"ns/IO\", \"better\": \"lower\" } ],\n"
"    \"repeats\": { \"runs\": [\n"
"      { \"figures\": { \"iops\": 3, \"g0/iops\": 1, \"g1/iops\": 2, \"g1/kernel.x_per_io\": 0.5,\n"
"                     \"g1/fn|sched|f|ns_per_io\": 9 } },\n"
"      { \"figures\": { \"iops\": 4, \"g0/iops\": 2, \"g1/iops\": 2 } } ] } } }\n";

static void test_groups(void)
{
	struct tracefile *tf = NULL;
	struct errbuf err = { "" };
	const struct figure_def *d;
	const struct tf_metric *m;

	CHECK_MSG(tracefile_parse_buffer("g.json", groups, strlen(groups), &tf, &err) == 0,
		  "%s", err.msg);
	if (!tf)
		return;
	CHECK(tf->major == 1 && tf->minor == 1 && tf->nr_defs == 3);
	d = tracefile_def(tf, "g1/fn|sched|f|ns_per_io");
	CHECK(d && d->kind == FIGURE_FUNCTION && !strcmp(d->measure, "off-CPU time/IO"));
	d = tracefile_def(tf, "g0/iops");
	CHECK(d && d->better == FIGURE_HIGHER && d->rank == 0);
	CHECK(!tracefile_def(tf, "ios"));
	/* a group's kernel and function figures absent from a repeat count 0
	 * there; its workload figures do not */
	m = tracefile_metric(tf, "g1/kernel.x_per_io");
	CHECK(m && m->n == 2 && m->v[1] == 0);
	m = tracefile_metric(tf, "g1/fn|sched|f|ns_per_io");
	CHECK(m && m->n == 2 && m->v[1] == 0);
	m = tracefile_metric(tf, "g0/iops");
	CHECK(m && m->n == 2 && m->v[1] == 2);
	tracefile_free(tf);
}

static int parse(const char *text, size_t len, struct tracefile **tf, struct errbuf *err)
{
	return tracefile_parse_buffer("t.json", text, len, tf, err);
}

/* Parsing must fail, name the file and say @what. */
static void expect_error(const char *text, size_t len, const char *what, int line)
{
	struct tracefile *tf = NULL;
	struct errbuf err = { "" };
	int ret = parse(text, len, &tf, &err);

	if (!ret || tf || !strstr(err.msg, "t.json") || !strstr(err.msg, what)) {
		fprintf(stderr, "%s:%d: expected an error with '%s', got ret %d: %s\n",
			__FILE__, line, what, ret, err.msg);
		check_failures++;
	}
	tracefile_free(tf);
}

static char *replace(const char *s, const char *from, const char *to)
{
	const char *p = strstr(s, from);
	char *out = malloc(strlen(s) + strlen(to) + 1);

	if (!p || !out) {
		free(out);
		return strdup(s);
	}
	sprintf(out, "%.*s%s%s", (int)(p - s), s, to, p + strlen(from));
	return out;
}

int main(void)
{
	struct tracefile *tf = NULL;
	struct errbuf err = { "" };
	const struct tf_metric *m;
	char buf[64], *t;

	CHECK_MSG(parse(valid, strlen(valid), &tf, &err) == 0, "%s", err.msg);
	if (tf) {
		CHECK(tf->major == 1 && tf->minor == 0);
		CHECK(tf->nr_repeats == 2);
		m = tracefile_metric(tf, "iops");
		CHECK(m && m->n == 2 && m->v[0] == 100 && m->v[1] == 110);
		/* a function missing from a repeat counts 0 there */
		m = tracefile_metric(tf, "fn|slat|f|ns_per_io");
		CHECK(m && m->n == 2 && m->v[0] == 7 && m->v[1] == 0);
		CHECK(tf->clat->total == 4 && tf->clat->slot[200] == 3);
		CHECK(tf->nr_oncpu == 1 && !strcmp(tf->oncpu[0].stack, "a;b;c"));
		CHECK(tf->nr_offcpu == 1 && tf->offcpu[0].count == 2);
		CHECK(!strcmp(tracefile_env_str(tf, "cpu.online", buf, sizeof(buf)), "2"));
		CHECK(!strcmp(tracefile_env_str(tf, "kernel.release", buf, sizeof(buf)), "6.18.0"));
	}
	tracefile_free(tf);
	tracefile_free(NULL);
	test_groups();

	/* every prefix of a valid file is an error, never a crash */
	for (size_t len = 0; len < strlen(valid) - 2; len++) {
		tf = NULL;
		CHECK_MSG(parse(valid, len, &tf, &err) != 0 && !tf, "prefix of %zu bytes accepted", len);
		tracefile_free(tf);
	}
	expect_error(valid, strlen(valid) / 2, "truncated", __LINE__);
	t = replace(valid, "\"1.0\"", "\"2.0\"");
	expect_error(t, strlen(t), "newer than this iodig", __LINE__);
	free(t);
	t = replace(valid, "\"1.0\"", "\"one\"");
	expect_error(t, strlen(t), "MAJOR.MINOR", __LINE__);
	free(t);
	t = replace(valid, "\"iodig_trace_version\": \"1.0\",", "");
	expect_error(t, strlen(t), "not an iodig trace file", __LINE__);
	free(t);
	expect_error("{\"jobs\": []}", 12, "not an iodig trace file", __LINE__);
	expect_error("[1, 2]", 6, "not a JSON object", __LINE__);
	expect_error("", 0, "empty", __LINE__);
	expect_error("{\"a\": 1} x", 10, "after the JSON document", __LINE__);
	expect_error("{\"a\"\0: 1}", 9, "NUL", __LINE__);
	expect_error("{\"a\": }", 7, "not valid JSON", __LINE__);
	t = replace(valid, "[ 200, 3 ]", "[ 99999, 3 ]");
	expect_error(t, strlen(t), "out of range", __LINE__);
	free(t);
	t = replace(valid, "\"iops\": 100", "\"iops\": \"fast\"");
	expect_error(t, strlen(t), "not a finite number", __LINE__);
	free(t);
	t = replace(valid, "[ \"x;y\", 2 ]", "[ \"x;y\" ]");
	expect_error(t, strlen(t), "off_cpu_switches[0]", __LINE__);
	free(t);
	t = replace(valid, "\"runs\": [", "\"nuns\": [");
	expect_error(t, strlen(t), "repeats.runs", __LINE__);
	free(t);

	/* write atomically, read back from disk, folded output */
	{
		char dir[] = "/tmp/iodig-tf-XXXXXX", path[256], folded[256], line[256];
		struct json_object *doc = json_tokener_parse(valid);
		FILE *f;

		CHECK(mkdtemp(dir) != NULL);
		snprintf(path, sizeof(path), "%s/t.json", dir);
		snprintf(folded, sizeof(folded), "%s/f.txt", dir);
		CHECK_MSG(tracefile_write(doc, path, &err) == 0, "%s", err.msg);
		tf = NULL;
		CHECK_MSG(tracefile_load(path, &tf, &err) == 0, "%s", err.msg);
		CHECK(tf && tf->nr_repeats == 2);
		CHECK(tf && tracefile_write_folded(tf, folded, &err) == 0);
		f = fopen(folded, "r");
		CHECK(f && fgets(line, sizeof(line), f) && !strcmp(line, "on-cpu;a;b;c 5\n"));
		CHECK(f && fgets(line, sizeof(line), f) && !strcmp(line, "off-cpu;x;y 2\n"));
		if (f)
			fclose(f);
		tracefile_free(tf);
		CHECK(tracefile_load("/nonexistent/x.json", &tf, &err) == -ENOENT && !tf &&
		      strstr(err.msg, "/nonexistent/x.json"));
		/* a failed write leaves no temp file and no target */
		snprintf(line, sizeof(line), "%s/missing-dir/t.json", dir);
		CHECK(tracefile_write(doc, line, &err) < 0);
		unlink(path);
		unlink(folded);
		CHECK(rmdir(dir) == 0);
		json_object_put(doc);
	}
	if (check_failures)
		return 1;
	printf("tracefile: all checks passed\n");
	return 0;
}
