// Self rows per repeat (trace file 1.4): each repeat's self time of a function comes from that repeat's own sampled breakdown (its own leaf samples, less those through iodig's probes, at that repeat's ns per sample, on-CPU part only), so the repeats' spread holds the samples' noise and the sample count behind the Poisson test is each repeat's own; a 1.3 file still applies the last repeat's share to every repeat; a malformed runs[i].sampling is refused naming it, and a 1.4 file without one loads.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/diff.h"
#include "analysis/tracefile.h"
#include "tests/lib/check.h"

#define NR_REP 3

static const char defs[] =
	"{\"key\": \"lat_mean_ns\", \"kind\": \"workload\", \"label\": \"lat avg\", \"unit\": \"ns\", \"better\": \"lower\"},"
	"{\"key\": \"fn|slat|*|ns_per_io\", \"kind\": \"function\", \"label\": \"slat (sampled)\", \"measure\": \"time/IO\", \"unit\": \"ns/IO\", \"better\": \"lower\"}";

/*
 * Repeat r's breakdown: basis 1000 ns/IO over 100 stacked samples (10 ns
 * a sample), f's self samples @self[r] of 40 inclusive, @probed[r] of
 * them under a BPF program's entry; the last repeat sampled only half the
 * basis on the CPU (the call slept for the rest).
 */
static const double self[NR_REP] = { 10, 20, 30 }, probed[NR_REP] = { 0, 4, 0 };

static void run_json(char *buf, size_t size, size_t r, bool with_sampling)
{
	size_t off = (size_t)snprintf(buf, size, "{\"figures\": {\"lat_mean_ns\": %d, "
				      "\"fn|slat|f|ns_per_io\": 400}, \"series\": []", 50000 + (int)r);

	if (with_sampling)
		snprintf(buf + off, size - off, ", \"sampling\": {\"basis_ns_per_io\": 1000, "
			 "\"submission_stacked\": 100, \"sampled_submission_ns_per_io\": %d, "
			 "\"slat_breakdown\": [{\"function\": \"f\", \"samples\": 40, "
			 "\"self_samples\": %g}], \"on_cpu_submission\": [[\"sys;f\", %g], "
			 "[\"sys;bpf_trace_run2;bpf_prog_x;f\", %g]]}}",
			 r == NR_REP - 1 ? 500 : 2000, self[r], self[r] - probed[r], probed[r]);
	else
		snprintf(buf + off, size - off, "}");
}

/* A file of version @version; @runs_sampling: each run has its own. */
static struct tracefile *file(const char *version, bool runs_sampling, const char *bad)
{
	static char doc[1 << 14];
	char run[768];
	struct errbuf err = { "" };
	struct tracefile *tf = NULL;
	size_t off;

	off = (size_t)snprintf(doc, sizeof(doc),
			       "{\"iodig_trace_version\": \"%s\", \"jobs\": [], \"iodig\": {"
			       "\"environment\": {}, \"figure_definitions\": [%s], \"kernel\": {"
			       "\"sampling\": {\"basis_ns_per_io\": 1000, \"submission_stacked\": 100, "
			       "\"slat_breakdown\": [{\"function\": \"f\", \"samples\": 40, "
			       "\"self_samples\": 30}]}}, \"repeats\": {\"runs\": [",
			       version, defs);
	for (size_t r = 0; r < NR_REP; r++) {
		run_json(run, sizeof(run), r, runs_sampling);
		if (bad && r == 1)
			snprintf(run, sizeof(run), "%s", bad);
		off += (size_t)snprintf(doc + off, sizeof(doc) - off, "%s%s", r ? "," : "", run);
	}
	snprintf(doc + off, sizeof(doc) - off, "]}}}");
	if (tracefile_parse_buffer("t.json", doc, strlen(doc), &tf, &err) && !bad)
		fprintf(stderr, "t.json: %s\n", err.msg);
	if (bad)
		CHECK_MSG(!tf && strstr(err.msg, "iodig.repeats.runs[1].sampling"),
			  "a malformed runs[1].sampling: %s", err.msg);
	return tf;
}

static const struct diff_row *self_row(struct diff **d, const char *version, bool runs_sampling)
{
	struct tracefile *tf[2] = { file(version, runs_sampling, NULL),
				    file(version, runs_sampling, NULL) };
	struct diff_opts o = { .alpha = 0.05, .min_change = 2.0 };
	struct errbuf err = { "" };
	long i;

	*d = NULL;
	CHECK(tf[0] && tf[1]);
	if (!tf[0] || !tf[1] || diff_build(tf, 2, &o, d, &err)) {
		CHECK_MSG(0, "diff: %s", err.msg);
		tracefile_free(tf[0]);
		tracefile_free(tf[1]);
		return NULL;
	}
	i = diff_find_row(*d, "fn|slat_self|f|ns_per_io");
	CHECK_MSG(i >= 0, "no self row (%s)", version);
	return i >= 0 ? &(*d)->rows[i] : NULL;
}

int main(void)
{
	/* own samples 10, 16 and 30 at 10 ns each; the last at half */
	static const double want[NR_REP] = { 100, 160, 150 };
	const struct diff_row *r;
	struct diff *d;

	r = self_row(&d, "1.4", true);
	for (size_t i = 0; r && i < NR_REP; i++)
		CHECK_MSG(r->cells[0].s.n == NR_REP && fabs(r->cells[0].v[i] - want[i]) < 1e-9,
			  "1.4 repeat %zu: %g ns/IO, want %g", i, r->cells[0].v[i], want[i]);
	/* 10 + 16 + 15 own samples (the last scaled to its on-CPU half) */
	CHECK_MSG(r && r->cells[0].samples == 41 && r->cells[1].samples == 41 &&
		  r->cells[1].sample_p > 0.99, "1.4 samples %g vs %g, p %g",
		  r ? r->cells[0].samples : NAN, r ? r->cells[1].samples : NAN,
		  r ? r->cells[1].sample_p : NAN);
	CHECK(r && r->cells[0].s.stdev > 0 && r->cells[1].sig != SIG_CHANGED);
	diff_free(d);

	/* 1.3: the last repeat's share (30 of 40 own) of each repeat's 400 */
	r = self_row(&d, "1.3", true);
	for (size_t i = 0; r && i < NR_REP; i++)
		CHECK_MSG(fabs(r->cells[0].v[i] - 300.0) < 1e-9, "1.3 repeat %zu: %g ns/IO", i,
			  r->cells[0].v[i]);
	diff_free(d);
	/* 1.4 without the sampling family in its runs: the last one's too */
	r = self_row(&d, "1.4", false);
	CHECK(r && fabs(r->cells[0].s.mean - 300.0) < 1e-9);
	diff_free(d);

	file("1.4", true, "{\"figures\": {}, \"series\": [], \"sampling\": {\"basis_ns_per_io\": 1000}}");
	file("1.4", true, "{\"figures\": {}, \"series\": [], \"sampling\": {\"basis_ns_per_io\": 1000, "
	     "\"submission_stacked\": 100, \"slat_breakdown\": [{\"function\": 3, \"samples\": 1}]}}");
	file("1.4", true, "{\"figures\": {}, \"series\": [], \"sampling\": {\"basis_ns_per_io\": 1000, "
	     "\"submission_stacked\": 100, \"slat_breakdown\": [], \"on_cpu_submission\": [[1, 2]]}}");
	file("1.4", true, "{\"figures\": {}, \"series\": [], \"sampling\": []}");
	if (check_failures)
		return 1;
	printf("diff self rows per repeat: all checks passed\n");
	return 0;
}
