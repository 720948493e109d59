// The diff's story: headline rows, kernel rows ranked by their share of the change in time per I/O (a count beside its time row), "explains ~N% of dlat", unchanged and below --min-change rows folded, iodig's BPF frames in their own row only, a sampled function ranked by its own samples (with their counts and Poisson p) and its inclusive rows shown after the rows that explain, as context with no share, a count per I/O changed by fewer than 10 events per run called small, Mann-Whitney for percentiles, the JSON story, and --fail-on's verdicts.
#include <errno.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/diff.h"
#include "tests/lib/check.h"
#include "diff_sim.h"

#define NR_REP 5

static const char *const keys[] = {
	"iops", "lat_mean_ns", "lat_p99_ns", "kernel.punt_ratio", "kernel.punt_ns_per_io",
	"kernel.faults_per_io", "fn|slat|io_submit_sqes|ns_per_io", "fn|slat|bpf_trace_run2|ns_per_io",
	"fn|slat|bpf_prog_1d548b927d52594d_iodig_qaw_btf|ns_per_io",
	"fn|sched|io_wq_worker|calls_per_io", "fn|sched|io_wq_worker|ns_per_io",
	"fn|slat|tiny_change|ns_per_io", "fn|sched|io_cqring_wait|ns_per_io",
	"slat_mean_ns", "fn|slat|do_syscall_64|ns_per_io",
};
#define NR_KEYS (sizeof(keys) / sizeof(keys[0]))

/* Per figure: A's and B's level and relative noise; NAN: not in the
 * file (io-wq's worker never blocks where nothing is punted). */
static const double level[NR_KEYS][3] = {
	{ 100000, 80000, 0.01 }, { 50000, 62000, 0.01 }, { 200000, 260000, 0.01 },
	{ 0, 1, 0 }, { 0, 9000, 0.01 }, { 0.01, 0.01, 0.05 }, { 3000, 5000, 0.01 },
	{ 100, 900, 0.01 }, { 50, 800, 0.01 }, { NAN, 0.4, 0.01 }, { NAN, 1000, 0.01 },
	{ 1000, 1010, 0.0005 }, { 4000, 4000, 0.02 },
	/* the system call's entry frame is on every submission stack: its
	 * inclusive time is slat itself, and changes more than any row */
	{ 10000, 22000, 0.01 }, { 9800, 21700, 0.01 },
};

/* The samples the sampled rows rest on (the last repeat's): 1,000 in
 * submission, 10 and 22 ns/IO each; io_submit_sqes's are all its own,
 * the system call's entry has none. */
static const char *const sampling[2] = {
	"\"sampling\": {\"basis_ns_per_io\": 10000, \"submission_stacked\": 1000, \"slat_breakdown\": ["
	"{\"function\": \"do_syscall_64\", \"samples\": 980, \"self_samples\": 0},"
	"{\"function\": \"io_submit_sqes\", \"samples\": 300, \"self_samples\": 300}]}",
	"\"sampling\": {\"basis_ns_per_io\": 22000, \"submission_stacked\": 1000, \"slat_breakdown\": ["
	"{\"function\": \"do_syscall_64\", \"samples\": 986, \"self_samples\": 0},"
	"{\"function\": \"io_submit_sqes\", \"samples\": 227, \"self_samples\": 227}]}",
};

static struct tracefile *side(int b)
{
	static const double noise[NR_REP] = { -1.0, -0.5, 0.1, 0.6, 0.8 };
	double v[NR_REP * NR_KEYS];

	for (size_t r = 0; r < NR_REP; r++)
		for (size_t k = 0; k < NR_KEYS; k++)
			v[r * NR_KEYS + k] = level[k][b] * (1.0 + level[k][2] * noise[(r + k) % NR_REP]);
	return sim_file_kernel(b ? "b.json" : "a.json", keys, NR_KEYS, v, NR_REP, sampling[b]);
}

static const struct diff_row *story(const struct diff *d, size_t i)
{
	return i < d->nr_story ? &d->rows[d->story[i]] : NULL;
}

static void check_story(const struct diff *d)
{
	static const char *const order[] = {
		"kernel.punt_ns_per_io", "kernel.punt_ratio", "fn|slat_self|io_submit_sqes|ns_per_io",
		"fn|sched|io_wq_worker|ns_per_io", "fn|sched|io_wq_worker|calls_per_io",
	};
	const struct diff_row *r;

	CHECK(d->nr_headline == 3 && d->lat_row >= 0);     /* no bandwidth here */
	for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		CHECK_MSG(story(d, i) && !strcmp(story(d, i)->key, order[i]), "story row %zu is %s, want %s",
			  i, story(d, i) ? story(d, i)->key : "none", order[i]);
	/* 9 us of 12 us more latency per I/O spent punted */
	r = story(d, 0);
	CHECK_MSG(r && fabs(r->explains_pct - 75.0) < 1.0, "explains %g%%", r ? r->explains_pct : NAN);
	CHECK(story(d, 1) && story(d, 1)->time_row == (long)d->story[0]);
	CHECK_MSG(d->nr_story_shown == 7 && d->nr_story == 10, "shown %zu of %zu", d->nr_story_shown,
		  d->nr_story);
	/* inclusive: changed, shown, but as context after the rows that
	 * explain, with no share of its own */
	r = &d->rows[diff_find_row(d, "fn|slat|do_syscall_64|ns_per_io")];
	CHECK(r->cells[1].sig == SIG_CHANGED && r->context && isnan(r->explains_pct));
	for (size_t i = 0; i < 5; i++)
		CHECK_MSG(story(d, i) != r, "the enclosing frame is story row %zu", i);
	r = &d->rows[diff_find_row(d, "fn|slat|io_submit_sqes|ns_per_io")];
	CHECK(r->context && isnan(r->explains_pct) && story(d, 6) == r);
	/* its own samples: 300 against 227 over 5 repeats at 10 and 22 ns/IO
	 * each, far outside their Poisson noise */
	r = story(d, 2);
	CHECK_MSG(r && fabs(r->cells[0].samples - 1500) < 20 && fabs(r->cells[1].samples - 1136) < 20 &&
		  r->cells[1].sample_p < 1e-6 && !r->sampling_noise && !r->context,
		  "self row: %g vs %g samples, p %g", r ? r->cells[0].samples : NAN,
		  r ? r->cells[1].samples : NAN, r ? r->cells[1].sample_p : NAN);
	for (size_t i = 0; i < d->nr_story; i++)
		CHECK_MSG(!strstr(story(d, i)->key, "bpf_") && !strstr(story(d, i)->key, "iodig"),
			  "iodig's own frame among the kernel's: %s", story(d, i)->key);
	r = &d->rows[d->probes_row];
	CHECK(d->probes_row >= 0 && r->kind == ROW_PROBES);
	/* the entry frame only: the program nested in it is not added again */
	CHECK_MSG(fabs(r->cells[1].s.mean - 900.0) < 20.0, "probes %g", r->cells[1].s.mean);
	r = &d->rows[diff_find_row(d, "fn|slat|tiny_change|ns_per_io")];
	CHECK_MSG(r->cells[1].sig == SIG_SMALL, "1%% change: verdict %d q %g", r->cells[1].sig,
		  r->cells[1].q);
	/* p99 by ranks: 5 against 5 fully separated, exact p = 2 / C(10, 5) */
	r = &d->rows[diff_find_row(d, "lat p99")];
	CHECK(r->cells[1].test == DIFF_TEST_MWU_EXACT && fabs(r->cells[1].p - 2.0 / 252.0) < 1e-12);
	r = &d->rows[diff_find_row(d, "lat_mean_ns")];
	CHECK(r->cells[1].test == DIFF_TEST_WELCH && r->cells[1].sig == SIG_CHANGED &&
	      r->cells[1].w.ci95_half > 0 && r->cells[1].q >= r->cells[1].p);
}

static void check_renderings(const struct diff *d)
{
	char *text = render(d, diff_render_text);
	struct json_object *j, *k = NULL;

	CHECK(text && strstr(text, "~75% of Δlat") && strstr(text, "3 kernel rows with no significant change folded") &&
	      strstr(text, "iodig's probes") && !strstr(text, "bpf_prog_"));
	free(text);
	text = render(d, diff_render_md);
	CHECK(text && strstr(text, "| ~75% of Δlat |") && strstr(text, "`--all` shows them"));
	free(text);
	text = render(d, diff_render_json);
	j = text ? json_tokener_parse(text) : NULL;
	CHECK(j && json_object_object_get_ex(json_object_object_get(j, "story"), "kernel", &k) &&
	      json_object_array_length(k) == 7);
	k = k ? json_object_array_get_idx(k, 0) : NULL;
	CHECK(k && !strcmp(json_object_get_string(json_object_object_get(k, "key")), "kernel.punt_ns_per_io") &&
	      fabs(json_object_get_double(json_object_object_get(k, "explains_pct_of_lat_change")) - 75.0) < 1.0);
	json_object_put(j);
	free(text);
}

/* --fail-on METRIC[:PCT]: 1 worse, 0 not, error (exit 2) unknown. */
static int fail_on(const char *spec, bool *worse)
{
	struct diff_opts o = { .alpha = 0.05, .min_change = 2.0, .fail_on = spec };
	struct tracefile *tf[2] = { side(0), side(1) };
	struct diff_outcome out = { 0 };
	struct errbuf err = { "" };
	FILE *null = fopen("/dev/null", "w");
	int ret = diff_loaded(tf, 2, &o, null, NULL, &out, &err);

	fclose(null);
	tracefile_free(tf[0]);
	tracefile_free(tf[1]);
	*worse = out.worse;
	return ret;
}

/* A count per I/O changed by a few events per run (2 faults against 1 in
 * runs of 80k I/Os, every repeat) is 100% relative and significant, but
 * below the floor of events per run: small, not changed; 50 events more
 * per run is changed. */
static void check_event_floor(void)
{
	static const char *const k[] = { "ios", "kernel.faults_per_io" };
	double a[NR_REP * 2], b[NR_REP * 2], c[NR_REP * 2];
	struct diff_opts o = { .alpha = 0.05, .min_change = 2.0 };
	struct errbuf err = { "" };
	struct tracefile *tf[3];
	struct diff *d = NULL;
	const struct diff_row *r;

	for (size_t i = 0; i < NR_REP; i++) {
		double ios = 80000.0 + 500.0 * (double)i;

		a[2 * i] = b[2 * i] = c[2 * i] = ios;
		a[2 * i + 1] = 2.0 / ios;
		b[2 * i + 1] = 1.0 / ios;
		c[2 * i + 1] = 52.0 / ios;
	}
	tf[0] = sim_file("a.json", k, 2, a, NR_REP);
	tf[1] = sim_file("b.json", k, 2, b, NR_REP);
	tf[2] = sim_file("c.json", k, 2, c, NR_REP);
	CHECK_MSG(diff_build(tf, 3, &o, &d, &err) == 0, "%s", err.msg);
	r = d ? &d->rows[diff_find_row(d, "kernel.faults_per_io")] : NULL;
	CHECK_MSG(r && r->cells[1].q < 0.05 && r->cells[1].sig == SIG_SMALL,
		  "1 fault less per run: q %g verdict %d", r ? r->cells[1].q : NAN,
		  r ? (int)r->cells[1].sig : -1);
	CHECK_MSG(r && r->cells[2].sig == SIG_CHANGED, "50 faults more per run: verdict %d",
		  r ? (int)r->cells[2].sig : -1);
	diff_free(d);
	for (size_t i = 0; i < 3; i++)
		tracefile_free(tf[i]);
}

/* The position of row @key in the story, or -1. */
static long story_pos(const struct diff *d, const char *key)
{
	for (size_t i = 0; i < d->nr_story; i++)
		if (!strcmp(d->rows[d->story[i]].key, key))
			return (long)i;
	return -1;
}

/* A function timed exactly: its sampled rows are context.  A function
 * seen in 3 samples in B and none in A changed more than the exact
 * pinning call, but within its Poisson noise: ranked after it. */
static void check_exact_and_noise(void)
{
	static const char *const k[] = {
		"lat_mean_ns", "slat_mean_ns", "fn|slat|blk_mq_get_tag|ns_per_io",
		"fn|exact|blk_mq_get_tag|ns_per_io", "fn|slat|rare_fn|ns_per_io",
		"fn|exact|pin_user_pages_fast|ns_per_io",
	};
	static const double lv[2][6] = {
		{ 50000, 10000, 2000, 1500, NAN, 1000 }, { 60000, 10000, 2000, 1500, 60, 1040 },
	};
	static const char *const samp =
		"\"sampling\": {\"basis_ns_per_io\": 10000, \"submission_stacked\": 100, \"slat_breakdown\": ["
		"{\"function\": \"blk_mq_get_tag\", \"samples\": 20, \"self_samples\": 10},"
		"{\"function\": \"rare_fn\", \"samples\": 1, \"self_samples\": 1}]}";
	static const double noise[NR_REP] = { -1.0, -0.5, 0.1, 0.6, 0.8 };
	struct diff_opts o = { .alpha = 0.05, .min_change = 2.0 };
	double v[2][NR_REP * 6];
	struct errbuf err = { "" };
	struct tracefile *tf[2];
	struct diff *d = NULL;
	const struct diff_row *r;
	long pin, rare;

	for (int b = 0; b < 2; b++)
		for (size_t i = 0; i < NR_REP; i++)
			for (size_t j = 0; j < 6; j++)
				v[b][i * 6 + j] = lv[b][j] * (1.0 + 0.005 * noise[(i + j) % NR_REP]);
	tf[0] = sim_file_kernel("a.json", k, 6, v[0], NR_REP, samp);
	tf[1] = sim_file_kernel("b.json", k, 6, v[1], NR_REP, samp);
	CHECK_MSG(diff_build(tf, 2, &o, &d, &err) == 0, "%s", err.msg);
	if (!d)
		return;
	r = &d->rows[diff_find_row(d, "fn|slat_self|blk_mq_get_tag|ns_per_io")];
	CHECK_MSG(r->context && strstr(r->context, "exact"), "self row of a timed function: %s",
		  r->context ? r->context : "explains");
	pin = story_pos(d, "fn|exact|pin_user_pages_fast|ns_per_io");
	rare = story_pos(d, "fn|slat_self|rare_fn|ns_per_io");
	r = rare >= 0 ? &d->rows[d->story[rare]] : NULL;
	CHECK_MSG(r && r->sampling_noise && r->cells[1].samples == 3 && r->cells[0].samples == 0 &&
		  fabs(r->cells[1].sample_p - 0.25) < 1e-9, "rare_fn: %g vs %g samples, p %g",
		  r ? r->cells[0].samples : NAN, r ? r->cells[1].samples : NAN,
		  r ? r->cells[1].sample_p : NAN);
	CHECK_MSG(pin == 0 && rare > pin, "exact pinning row at %ld, rare_fn at %ld", pin, rare);
	diff_free(d);
	tracefile_free(tf[0]);
	tracefile_free(tf[1]);
}

int main(void)
{
	struct tracefile *tf[2] = { side(0), side(1) };
	struct diff_opts o = { .alpha = 0.05, .min_change = 2.0 };
	struct errbuf err = { "" };
	struct diff *d = NULL;
	bool worse;

	CHECK(tf[0] && tf[1]);
	CHECK_MSG(tf[0] && tf[1] && diff_build(tf, 2, &o, &d, &err) == 0, "%s", err.msg);
	if (!d)
		return 1;
	check_story(d);
	check_renderings(d);
	diff_free(d);
	check_event_floor();
	check_exact_and_noise();

	CHECK(fail_on("lat_mean_ns", &worse) == 0 && worse);
	CHECK(fail_on("lat avg:20%", &worse) == 0 && worse);     /* +24% */
	CHECK(fail_on("lat avg:30", &worse) == 0 && !worse);
	CHECK(fail_on("iops:10", &worse) == 0 && worse);         /* -20%, higher is better */
	CHECK(fail_on("kernel.faults_per_io", &worse) == 0 && !worse);
	CHECK(fail_on("no_such_metric", &worse) == -ENOENT);
	if (check_failures)
		return 1;
	printf("diff story: all checks passed\n");
	return 0;
}
