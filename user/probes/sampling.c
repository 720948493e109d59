// SPDX-License-Identifier: GPL-2.0
/*
 * sampling probe family, user side: a cpu-clock event per online CPU with
 * bpf/sampling.bpf.c attached, then the submission samples' kernel stacks
 * turned into a slat breakdown: each function's share of the samples taken
 * inside submitting calls (self = top frame, inclusive = anywhere in the
 * stack) times the submission time per I/O the workload measured.
 */
#include <errno.h>
#include <linux/perf_event.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "iodig/sampling.h"
#include "iodig/syscalls.h"
#include "probes/ksyms.h"
#include "probes/figures.h"
#include "probes/probe.h"
#include "probes/sc_calls.h"
#include "probes/selection.h"
#include "probes/maps.h"
#include "probes/family_render.h"
#include "probes/family.h"
#include "sampling.skel.h"

_Static_assert(sizeof(struct sampling_counters) % sizeof(uint64_t) == 0,
	       "sampling_counters is summed as u64 words");

#define MECH_PERF_EVENT "perf_event"
static const char *const samp_mechs[] = { MECH_PERF_EVENT };

#define SAMP_MAX_CPUS  1024
#define SAMP_TOP_TEXT  15    /* rows of the text table */
#define SAMP_TOP_JSON  50    /* functions and folded stacks in the JSON */

static const char *const class_names[SAMPLE_CLASS_NR] = {
	[SAMPLE_SUBMIT] = "submission",
	[SAMPLE_REAP] = "reaping",
	[SAMPLE_OTHER_KERNEL] = "other_kernel",
	[SAMPLE_USER] = "user",
};

/* One {kernel stack, class} with its sample count; frames[0] is the leaf. */
struct samp_stack {
	uint32_t cls;
	uint32_t depth;
	uint64_t count;
	const struct ksym *frames[SAMPLING_STACK_DEPTH];
};

struct samp_fn {
	const struct ksym *sym;   /* NULL: address outside every symbol */
	uint64_t self;            /* samples with it as the top frame */
	uint64_t incl;            /* samples with it anywhere in the stack */
	uint64_t via_top_callee;  /* samples through its most common callee */
};

/* An edge of the call graph: @count samples where @caller called @callee. */
struct samp_edge {
	const struct ksym *caller;
	const struct ksym *callee;
	uint64_t count;
};

/*
 * A function whose samples nearly all go through one callee (the syscall
 * entry, submit_bio -> __submit_bio -> blk_mq_submit_bio) says nothing its
 * callee does not: the table shows the callee and folds the wrapper in, so
 * its 15 rows name 15 different costs.
 */
#define SAMP_PASS_THROUGH_PCT 95

struct samp_state {
	FAMILY_BASE;
	struct sampling_bpf *skel;
	int perf_fds[SAMP_MAX_CPUS]; /* owned by the base's links */
	int nr_links;                /* CPUs sampled */
	unsigned int hz;          /* samples per second per CPU */
	const struct ksyms *ksyms; /* the run's (family_ksyms()) */
	char ksyms_err[160];
	/* filled by read_at_end and collect */
	struct sampling_counters sum;
	struct samp_stack *stacks;   /* sorted by count, descending */
	size_t nr_stacks;
	struct samp_fn *fns;         /* submission functions, by incl then self */
	size_t nr_fns;
	uint64_t sub_stacked;        /* submission samples with a stack */
	uint64_t sub_in_bpf;         /* ... inside BPF programs: iodig's own cost */
};

/* cpu-clock turns a frequency into this fixed period (perf_swevent_init_hrtimer()). */
static double period_ns(const struct samp_state *s)
{
	return 1e9 / s->hz;
}

/* /sys/devices/system/cpu/online: "0-3,8,10-11". */
static int online_cpus(bool *online, int max)
{
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	char buf[1024], *p;
	int n = 0;

	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	memset(online, 0, (size_t)max * sizeof(*online));
	p = buf;
	while (*p && *p != '\n') {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p)
			return -EINVAL;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p)
				return -EINVAL;
		}
		for (long c = a; c <= b && c < max; c++, n++)
			online[c] = true;
		p = *end == ',' ? end + 1 : end;
	}
	return n;
}

/* The family's attach(): a cpu-clock event on each online CPU, the
 * program attached to each. */
static int samp_attach(void *state, struct errbuf *why)
{
	struct samp_state *s = state;
	bool online[SAMP_MAX_CPUS];
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		/* a period, not .freq: cpu-clock fixes the period anyway,
		 * and a freq event is adjusted by perf on every tick */
		.sample_period = (uint64_t)period_ns(s),
	};
	int n = online_cpus(online, SAMP_MAX_CPUS);

	if (n <= 0)
		return err_set(why, n ? -n : ENODEV, "cannot read the online CPUs");
	s->nr_links = 0;
	for (int cpu = 0; cpu < SAMP_MAX_CPUS; cpu++) {
		struct bpf_link *link;
		int pfd, err;

		if (!online[cpu])
			continue;
		pfd = (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1,
				   PERF_FLAG_FD_CLOEXEC);
		if (pfd < 0) {
			if (errno == ENODEV)   /* went offline meanwhile */
				continue;
			return err_set(why, errno, "perf_event_open(cpu-clock, cpu %d): %s",
				       cpu, strerror(errno));
		}
		link = bpf_program__attach_perf_event(s->skel->progs.iodig_sample, pfd);
		if (!link) {
			int err = errno;

			close(pfd);
			return err_set(why, err, "attaching to cpu-clock on cpu %d: %s", cpu,
				       strerror(err));
		}
		err = family_keep_link(s, link);   /* closes the event with it */
		if (err)
			return err;
		s->perf_fds[s->nr_links++] = pfd;
	}
	return s->nr_links ? 0 : err_set(why, ENODEV, "no online CPU");
}

/* One attempt of samp_load(), the stacks' map preallocated or not. */
static int load_once(struct samp_state *s, bool prealloc, struct errbuf *why)
{
	int err = FAMILY_OPEN(s, sampling);

	if (err)
		return err;
	for (int c = 0; c < SC_CALL_NR; c++)
		s->skel->rodata->sc_nr[c] = sc_call_nr(c);
	/* Each sample adds at most one {stack, class} key, and there are at
	 * most runtime x hz of them per CPU; ~590 B a key, so
	 * 1.2 to 9.5 MiB.  Without a runtime bound, the ceiling. */
	bpf_map__set_max_entries(s->skel->maps.agg,
				 map_size((uint64_t)s->env->runtime_s * s->hz *
					       (uint64_t)libbpf_num_possible_cpus(),
					       2048, SAMPLING_MAX_AGG, SAMPLING_MAX_AGG));
	if (!prealloc)
		bpf_map__set_map_flags(s->skel->maps.agg, bpf_map__map_flags(s->skel->maps.agg) |
					BPF_F_NO_PREALLOC);
	return family_load(s, why);
}

/*
 * The stacks' map is filled as samples come rather than preallocated: a
 * job without a runtime bound gets the ceiling, several MiB the kernel
 * would allocate and zero before the first I/O whatever the run keeps.
 * Kernels before 6.1 have no allocator a perf_event program may use and
 * refuse it (EINVAL); they get it preallocated, as before.
 */
static int samp_load(void *state, size_t mech, struct errbuf *why)
{
	struct samp_state *s = state;
	int err = load_once(s, false, why);

	(void)mech;
	if (err == -EINVAL) {
		why->msg[0] = '\0';
		err = load_once(s, true, why);
	}
	return err;
}

static void samp_prepare(void *state)
{
	struct samp_state *s = state;

	s->hz = s->env->sample_hz ? s->env->sample_hz :
		s->env->detail ? SAMPLING_DETAIL_FREQ_HZ : SAMPLING_FREQ_HZ;
}

/* Read when the workload ends: the class counts, before other families'
 * collect() burns CPU in iodig's own process. */
static int samp_read_at_end(void *state)
{
	struct samp_state *s = state;

	return map_sum_counters(s->skel->maps.counters, &s->sum, sizeof(s->sum));
}

static int by_count_desc(const void *a, const void *b)
{
	const struct samp_stack *x = a, *y = b;

	return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

/* One {stack, class} with its count, the frames symbolized. */
static int stack_of(void *elem, const void *key, const void *value, void *ctx)
{
	const struct sampling_key *k = key;
	const uint64_t *count = value;
	const struct samp_state *s = ctx;
	struct samp_stack *st = elem;

	if (!*count || k->cls >= SAMPLE_CLASS_NR || !k->ips[0])
		return 0;
	st->cls = k->cls;
	st->count = *count;
	for (int i = 0; i < SAMPLING_STACK_DEPTH && k->ips[i]; i++)
		st->frames[st->depth++] = ksyms__map_addr(s->ksyms, k->ips[i], NULL);
	return 1;
}

static int read_stacks(struct samp_state *s)
{
	int err = map_read_entries(s->skel->maps.agg, (void **)&s->stacks, &s->nr_stacks,
				   sizeof(*s->stacks), stack_of, s);

	if (!err && s->nr_stacks)
		qsort(s->stacks, s->nr_stacks, sizeof(*s->stacks), by_count_desc);
	return err;
}

static int by_sym(const void *a, const void *b)
{
	const struct samp_fn *x = a, *y = b;

	return x->sym < y->sym ? -1 : x->sym > y->sym;
}

static int by_incl_desc(const void *a, const void *b)
{
	const struct samp_fn *x = a, *y = b;

	if (x->incl != y->incl)
		return x->incl < y->incl ? 1 : -1;
	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	return strcmp(x->sym ? x->sym->name : "", y->sym ? y->sym->name : "");
}

static int by_edge(const void *a, const void *b)
{
	const struct samp_edge *x = a, *y = b;

	if (x->caller != y->caller)
		return x->caller < y->caller ? -1 : 1;
	return x->callee < y->callee ? -1 : x->callee > y->callee;
}

/* Frames of BPF programs and their dispatchers: JITed images are named
 * bpf_prog_<tag>_<name> in kallsyms; raw tracepoints enter through
 * bpf_trace_run<N>, classic ones through trace_call_bpf, fentry-style
 * programs through trampolines. */
static bool is_bpf_frame(const struct ksym *sym)
{
	static const char *const prefixes[] = {
		"bpf_prog_", "bpf_trace_run", "__bpf_trace_run", "trace_call_bpf",
		"__bpf_prog_enter", "bpf_trampoline_", "perf_trace_run_bpf_submit",
	};

	if (!sym)
		return false;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(sym->name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

/* Deepest position of frame @f's function in @st, so recursion counts once. */
static bool first_from_leaf(const struct samp_stack *st, uint32_t f)
{
	for (uint32_t g = 0; g < f; g++)
		if (st->frames[g] == st->frames[f])
			return false;
	return true;
}

/* Each function's samples through its most common callee, from the edges
 * sorted by (caller, callee); @fns is sorted by sym. */
static void top_callees(struct samp_fn *fns, size_t nr_fns, struct samp_edge *edges,
			size_t n)
{
	size_t out = 0, fi = 0;

	if (n)
		qsort(edges, n, sizeof(*edges), by_edge);
	for (size_t i = 0; i < n; i++) {
		if (out && edges[out - 1].caller == edges[i].caller &&
		    edges[out - 1].callee == edges[i].callee)
			edges[out - 1].count += edges[i].count;
		else
			edges[out++] = edges[i];
	}
	for (size_t i = 0; i < out; i++) {
		while (fi < nr_fns && fns[fi].sym < edges[i].caller)
			fi++;
		if (fi < nr_fns && fns[fi].sym == edges[i].caller &&
		    edges[i].count > fns[fi].via_top_callee)
			fns[fi].via_top_callee = edges[i].count;
	}
}

/*
 * Self and inclusive samples per function over the submission stacks: one
 * record per (stack, distinct function), sorted by function and merged;
 * the caller -> callee edges alike.
 */
static int build_functions(struct samp_state *s)
{
	struct samp_edge *edges = NULL;
	struct samp_fn *rec = NULL;
	size_t n = 0, ne = 0, out = 0;
	int ret = 0;

	for (size_t i = 0; i < s->nr_stacks; i++)
		if (s->stacks[i].cls == SAMPLE_SUBMIT)
			n += s->stacks[i].depth;
	s->sub_stacked = s->sub_in_bpf = 0;
	if (!n)
		return 0;
	rec = calloc(n, sizeof(*rec));
	edges = calloc(n, sizeof(*edges));
	if (!rec || !edges) {
		ret = -ENOMEM;
		goto cleanup;
	}
	n = 0;
	for (size_t i = 0; i < s->nr_stacks; i++) {
		const struct samp_stack *st = &s->stacks[i];
		bool in_bpf = false;

		if (st->cls != SAMPLE_SUBMIT)
			continue;
		s->sub_stacked += st->count;
		for (uint32_t f = 0; f < st->depth; f++) {
			in_bpf |= is_bpf_frame(st->frames[f]);
			if (!first_from_leaf(st, f))
				continue;
			rec[n].sym = st->frames[f];
			rec[n].incl = st->count;
			rec[n].self = f == 0 ? st->count : 0;
			n++;
			if (f > 0)
				edges[ne++] = (struct samp_edge){ st->frames[f], st->frames[f - 1],
								  st->count };
		}
		if (in_bpf)
			s->sub_in_bpf += st->count;
	}
	if (n)
		qsort(rec, n, sizeof(*rec), by_sym);
	for (size_t i = 0; i < n; i++) {
		if (out && rec[out - 1].sym == rec[i].sym) {
			rec[out - 1].incl += rec[i].incl;
			rec[out - 1].self += rec[i].self;
		} else {
			rec[out++] = rec[i];
		}
	}
	top_callees(rec, out, edges, ne);
	if (out)
		qsort(rec, out, sizeof(*rec), by_incl_desc);
	s->fns = rec;
	s->nr_fns = out;
	rec = NULL;
cleanup:
	free(rec);
	free(edges);
	return ret;
}

static int samp_collect(void *state, uint64_t workload_ios)
{
	struct samp_state *s = state;
	struct errbuf kerr = { .msg = "" };
	int err;

	(void)workload_ios;
	free(s->stacks);
	free(s->fns);
	s->stacks = NULL;
	s->fns = NULL;
	s->nr_stacks = s->nr_fns = 0;
	/* Without symbols the counts still stand; the breakdown is empty. */
	if (family_ksyms(s, &s->ksyms, &kerr)) {
		snprintf(s->ksyms_err, sizeof(s->ksyms_err), "%s", kerr.msg);
		return 0;
	}
	err = read_stacks(s);
	if (!err)
		err = build_functions(s);
	return err;
}

static const char *fn_name(const struct ksym *sym)
{
	return sym ? sym->name : "[unknown]";
}

/* Submission time per I/O the shares are applied to, and what it is. */
static double basis_ns(const struct samp_state *s, const char **what)
{
	*what = "none";
	if (!s->wl.ios)
		return 0;
	if (!s->wl.sync_engine && s->wl.slat_ns) {
		*what = "slat";
		return (double)s->wl.slat_ns / (double)s->wl.ios;
	}
	/* A sync engine's call also sleeps while the device works, which
	 * cpu-clock never samples: charge only the sampled on-CPU time. */
	*what = "on_cpu";
	return (double)s->sum.samples[SAMPLE_SUBMIT] * period_ns(s) / (double)s->wl.ios;
}

static bool fn_pass_through(const struct samp_fn *f)
{
	return f->via_top_callee * 100 >= f->incl * SAMP_PASS_THROUGH_PCT;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static uint64_t total_samples(const struct samp_state *s)
{
	uint64_t t = 0;

	for (int c = 0; c < SAMPLE_CLASS_NR; c++)
		t += s->sum.samples[c];
	return t;
}

/* The wrappers folded into their callees, by inclusive share. */
static void text_folded(const struct samp_state *s, FILE *out)
{
	int shown = 0, more = 0;

	for (size_t i = 0; i < s->nr_fns; i++) {
		if (!fn_pass_through(&s->fns[i]))
			continue;
		if (shown == 6) {
			more++;
			continue;
		}
		fprintf(out, "%s%s", shown ? ", " : "      folded into their callee: ",
			fn_name(s->fns[i].sym));
		shown++;
	}
	if (more)
		fprintf(out, " and %d more", more);
	if (shown)
		fputc('\n', out);
}

static void samp_render_text(const void *state, FILE *out)
{
	const struct samp_state *s = state;
	const char *basis;
	double per_io;
	int rows = 0;

	if (!s)
		return;
	fprintf(out, "  sampling: cpu-clock at %d Hz on %d CPUs, %llu samples: "
		"submission=%llu, reaping=%llu, other kernel=%llu, user=%llu\n",
		s->hz, s->nr_links, (unsigned long long)total_samples(s),
		(unsigned long long)s->sum.samples[SAMPLE_SUBMIT],
		(unsigned long long)s->sum.samples[SAMPLE_REAP],
		(unsigned long long)s->sum.samples[SAMPLE_OTHER_KERNEL],
		(unsigned long long)s->sum.samples[SAMPLE_USER]);
	family_drops_text(s, out);
	if (s->ksyms_err[0]) {
		fprintf(out, "    no slat breakdown: %s\n", s->ksyms_err);
		return;
	}
	if (!s->sub_stacked) {
		fprintf(out, "    no samples inside submitting calls\n");
		return;
	}
	per_io = basis_ns(s, &basis);
	fprintf(out, "    slat breakdown (sampled, %llu samples in submission",
		(unsigned long long)s->sub_stacked);
	if (per_io > 0)
		fprintf(out, "; %.0f ns/IO of %s", per_io,
			!strcmp(basis, "slat") ? "slat" : "on-CPU time in the call");
	fprintf(out, "):\n");
	/* The check that the shares apply to the whole: what the samples saw
	 * in submitting calls against the measured slat, with the samples'
	 * counting error (Poisson). */
	if (!strcmp(basis, "slat") && s->sum.samples[SAMPLE_SUBMIT]) {
		double n = (double)s->sum.samples[SAMPLE_SUBMIT];
		double seen = n * period_ns(s) / (double)s->wl.ios / per_io;

		fprintf(out, "      sampled time in submitting calls: %.3f of the slat "
			"(+-%.3f); the rest is outside the kernel's calls or unsampled\n",
			seen, seen / sqrt(n));
	}
	text_folded(s, out);
	if (s->sub_in_bpf)
		fprintf(out, "      of which in BPF programs (iodig's own probes): %.1f%%\n",
			pct(s->sub_in_bpf, s->sub_stacked));
	fprintf(out, "      %-40s %6s %6s %10s %8s\n", "function", "self%", "incl%",
		"est ns/IO", "samples");
	for (size_t i = 0; i < s->nr_fns && rows < SAMP_TOP_TEXT; i++) {
		const struct samp_fn *f = &s->fns[i];
		double share = (double)f->incl / (double)s->sub_stacked;

		if (fn_pass_through(f))
			continue;
		fprintf(out, "      %-40.40s %6.1f %6.1f ", fn_name(f->sym),
			pct(f->self, s->sub_stacked), 100.0 * share);
		if (per_io > 0)
			fprintf(out, "%10.0f", share * per_io);
		else
			fprintf(out, "%10s", "n/a");
		fprintf(out, " %8llu\n", (unsigned long long)f->incl);
		rows++;
	}
}

static struct json_object *json_breakdown(const struct samp_state *s, double per_io)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; i < s->nr_fns && i < SAMP_TOP_JSON; i++) {
		const struct samp_fn *f = &s->fns[i];
		struct json_object *o = json_object_new_object();
		double share = (double)f->incl / (double)s->sub_stacked;

		json_object_object_add(o, "function", json_object_new_string(fn_name(f->sym)));
		if (f->sym && f->sym->module && f->sym->module[0])
			json_object_object_add(o, "module",
					       json_object_new_string(f->sym->module));
		json_object_object_add(o, "self_pct", json_object_new_double(
			pct(f->self, s->sub_stacked)));
		json_object_object_add(o, "incl_pct", json_object_new_double(100.0 * share));
		json_object_object_add(o, "est_ns_per_io", json_object_new_double(
			per_io > 0 ? share * per_io : 0.0));
		json_object_object_add(o, "samples", json_u64(f->incl));
		json_object_object_add(o, "self_samples", json_u64(f->self));
		/* Poisson counting error of the inclusive share. */
		json_object_object_add(o, "rel_err", json_object_new_double(
			1.0 / sqrt((double)f->incl)));
		json_object_object_add(o, "pass_through",
				       json_object_new_boolean(fn_pass_through(f)));
		json_object_array_add(arr, o);
	}
	return arr;
}

/* Brendan Gregg's folded format, class first, root to leaf. */
static struct json_object *json_folded(const struct samp_state *s)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; i < s->nr_stacks && i < SAMP_TOP_JSON; i++) {
		const struct samp_stack *st = &s->stacks[i];
		struct json_object *o = json_object_new_object();
		char *line = NULL;
		size_t len = 0;
		FILE *mem = open_memstream(&line, &len);

		if (!mem) {
			json_object_put(o);
			break;
		}
		fputs(class_names[st->cls], mem);
		for (int f = (int)st->depth - 1; f >= 0; f--)
			fprintf(mem, ";%s", fn_name(st->frames[f]));
		fclose(mem);
		json_object_object_add(o, "stack", json_object_new_string(line ? line : ""));
		json_object_object_add(o, "samples", json_u64(st->count));
		json_object_array_add(arr, o);
		free(line);
	}
	return arr;
}

static void samp_render_json(const void *state, struct json_object *kernel)
{
	const struct samp_state *s = state;
	struct json_object *o, *samples;
	const char *basis;
	double per_io;

	if (!s || !kernel)
		return;
	per_io = basis_ns(s, &basis);
	o = json_object_new_object();
	samples = json_object_new_object();
	json_object_object_add(o, "mechanism", json_object_new_string("perf_event cpu-clock"));
	json_object_object_add(o, "frequency_hz", json_object_new_int((int)s->hz));
	json_object_object_add(o, "cpus", json_object_new_int(s->nr_links));
	for (int c = 0; c < SAMPLE_CLASS_NR; c++)
		json_object_object_add(samples, class_names[c], json_u64(s->sum.samples[c]));
	json_object_object_add(samples, "total", json_u64(total_samples(s)));
	json_object_object_add(o, "samples", samples);
	json_object_object_add(o, "drops", family_drops_json(s));
	json_object_object_add(o, "submission_stacked", json_u64(s->sub_stacked));
	json_object_object_add(o, "submission_in_bpf", json_u64(s->sub_in_bpf));
	json_object_object_add(o, "basis", json_object_new_string(basis));
	json_object_object_add(o, "basis_ns_per_io", json_object_new_double(per_io));
	json_object_object_add(o, "sampled_submission_ns_per_io", json_object_new_double(
		s->wl.ios ? (double)s->sum.samples[SAMPLE_SUBMIT] * period_ns(s) /
			    (double)s->wl.ios : 0.0));
	if (s->ksyms_err[0])
		json_object_object_add(o, "error", json_object_new_string(s->ksyms_err));
	json_object_object_add(o, "slat_breakdown", json_breakdown(s, per_io));
	json_object_object_add(o, "folded", json_folded(s));
	json_object_object_add(kernel, probe_json_name(&sampling_probe), o);
}

static void samp_destroy(void *state)
{
	struct samp_state *s = state;

	free(s->stacks);
	free(s->fns);
}

/* The events stop and start; their programs stay attached. */
static int samp_set_attached(void *state, bool on)
{
	struct samp_state *s = state;
	int first_err = 0;

	for (int i = 0; i < s->nr_links; i++)
		if (ioctl(s->perf_fds[i], on ? PERF_EVENT_IOC_ENABLE : PERF_EVENT_IOC_DISABLE,
			  0) && !first_err)
			first_err = -errno;
	return first_err;
}

/* What the family lost, by cause (probes/family_render.h); the base adds
 * recursion. */
static const struct family_drop_def samp_drops[] = {
	FAMILY_DROP("stack", struct samp_state, sum.stack_errors),
	FAMILY_DROP("agg_full", struct samp_state, sum.agg_full),
};

/* Figures: each submission function's share of the slat, and the
 * submission stacks the breakdown rests on. */
static const struct figure_def samp_slat_figure =
	FIGURE_FUNCTION_DEF("fn|slat|*|ns_per_io", "slat (sampled)",
			    "time/IO", "ns/IO", FIGURE_LOWER, 0);

/* Root first, as flame graphs read them. */
static void put_submission_stack(struct figure_set *out, const struct samp_stack *st)
{
	size_t size = 1, len = 0;
	char *line;

	if (!st->depth)
		return;
	for (uint32_t f = 0; f < st->depth; f++)
		size += strlen(fn_name(st->frames[f])) + 1;
	line = malloc(size);
	if (!line) {
		out->err = -ENOMEM;
		return;
	}
	line[0] = 0;
	for (int f = (int)st->depth - 1; f >= 0; f--)
		len += (size_t)snprintf(line + len, size - len, "%s%s", len ? ";" : "",
					fn_name(st->frames[f]));
	figure_put_stack(out, FIGURE_STACK_ON_CPU, line, st->count);
	free(line);
}

static void samp_figures(const void *state, const struct probe_workload *wl,
			 struct figure_set *out)
{
	const struct samp_state *s = state;
	const char *basis;
	double per_io;

	(void)wl;
	if (!s)
		return;
	per_io = basis_ns(s, &basis);
	for (size_t i = 0; i < s->nr_fns && i < SAMP_TOP_JSON; i++) {
		const struct samp_fn *f = &s->fns[i];
		double share = (double)f->incl / (double)s->sub_stacked;

		/* wrappers only repeat their callee's time */
		if (fn_pass_through(f))
			continue;
		figure_put_fn(out, &samp_slat_figure, fn_name(f->sym),
			      per_io > 0 ? share * per_io : 0.0);
	}
	for (size_t i = 0; i < s->nr_stacks && i < SAMP_TOP_JSON; i++)
		if (s->stacks[i].cls == SAMPLE_SUBMIT)
			put_submission_stack(out, &s->stacks[i]);
}

FAMILY_DEFINE(sampling, samp,
	      "cpu-clock kernel stacks of the workload: where submission time goes",
	      FAMILY_DROPS(samp_drops),
	      FAMILY_HOOKS(samp, prepare, attach, set_attached, read_at_end, figures, destroy));
