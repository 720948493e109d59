// Self rows per repeat (trace file 1.4): each repeat's self time of a function comes from that repeat's own sampled breakdown (its own leaf samples, less those through iodig's probes, at that repeat's ns per sample, on-CPU part only), so the repeats' spread holds the samples' noise and the sample count behind the Poisson test is each repeat's own; a 1.3 file still applies the last repeat's share to every repeat; a malformed runs[i].sampling is refused naming it, and a 1.4 file without one loads.
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "analysis/diff.h"
#include "analysis/tracefile.h"
#include "tests/lib/check.h"
#include "diff_sim.h"

#define NR_REP 3

/*
 * Repeat r's breakdown: basis 1000 ns/IO over 100 stacked samples (10 ns
 * a sample), f's self samples @self[r] of 40 inclusive, @probed[r] of
 * them under a BPF program's entry; the last repeat sampled only half the
 * basis on the CPU (the call slept for the rest).
 */
static const double self[NR_REP] = { 10, 20, 30 }, probed[NR_REP] = { 0, 4, 0 };

static void run_extra(char *buf, size_t size, size_t r, bool with_sampling)
{
	if (!with_sampling) {
		snprintf(buf, size, ", \"series\": []");
		return;
	}
	snprintf(buf, size, ", \"series\": [], \"sampling\": {\"basis_ns_per_io\": 1000, "
		 "\"submission_stacked\": 100, \"sampled_submission_ns_per_io\": %d, "
		 "\"slat_breakdown\": [{\"function\": \"f\", \"samples\": 40, "
		 "\"self_samples\": %g}], \"on_cpu_submission\": [[\"sys;f\", %g], "
		 "[\"sys;bpf_trace_run2;bpf_prog_x;f\", %g]]}",
		 r == NR_REP - 1 ? 500 : 2000, self[r], self[r] - probed[r], probed[r]);
}

/* A file of version @version; @runs_sampling: each run has its own;
 * @bad: run 1's members instead, which must be refused. */
static struct tracefile *file(const char *version, bool runs_sampling, const char *bad)
{
	static const char *const keys[] = { "lat_mean_ns", "fn|slat|f|ns_per_io" };
	static const char last[] =
		"\"sampling\": {\"basis_ns_per_io\": 1000, \"submission_stacked\": 100, "
		"\"slat_breakdown\": [{\"function\": \"f\", \"samples\": 40, \"self_samples\": 30}]}";
	static char extra[NR_REP][768];
	const char *extras[NR_REP];
	double v[NR_REP * 2];
	struct errbuf err = { "" };
	struct tracefile *tf;

	for (size_t r = 0; r < NR_REP; r++) {
		run_extra(extra[r], sizeof(extra[r]), r, runs_sampling);
		if (bad && r == 1)
			snprintf(extra[r], sizeof(extra[r]), "%s", bad);
		extras[r] = extra[r];
		v[r * 2] = 50000 + (double)r;
		v[r * 2 + 1] = 400;
	}
	tf = sim_file_runs("t.json", version, keys, 2, v, NR_REP, last, extras, &err);
	if (bad)
		CHECK_MSG(!tf && strstr(err.msg, "iodig.repeats.runs[1].sampling"),
			  "a malformed runs[1].sampling: %s", err.msg);
	else if (!tf)
		fprintf(stderr, "t.json: %s\n", err.msg);
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

	file("1.4", true, ", \"series\": [], \"sampling\": {\"basis_ns_per_io\": 1000}");
	file("1.4", true, ", \"series\": [], \"sampling\": {\"basis_ns_per_io\": 1000, "
	     "\"submission_stacked\": 100, \"slat_breakdown\": [{\"function\": 3, \"samples\": 1}]}");
	file("1.4", true, ", \"series\": [], \"sampling\": {\"basis_ns_per_io\": 1000, "
	     "\"submission_stacked\": 100, \"slat_breakdown\": [], \"on_cpu_submission\": [[1, 2]]}");
	file("1.4", true, ", \"series\": [], \"sampling\": []");
	if (check_failures)
		return 1;
	printf("diff self rows per repeat: all checks passed\n");
	return 0;
}
