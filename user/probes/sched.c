// SPDX-License-Identifier: GPL-2.0
/*
 * sched probe family, user side: picks tp_btf, raw_tp or the classic
 * tracepoint for bpf/sched.bpf.c, then turns its maps into context
 * switches by blocking function (the first kernel frame below the
 * scheduler's own), with off-CPU time, io-wq worker figures and the
 * hottest stacks in folded form.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "iodig/sched.h"
#include "base/duration.h"
#include "base/grow.h"
#include "base/mem.h"
#include "probes/ksyms.h"
#include "probes/figures.h"
#include "probes/probe.h"
#include "probes/selection.h"
#include "probes/maps.h"
#include "probes/family_render.h"
#include "probes/tp_layout.h"
#include "probes/family.h"
#include "probes/sample_share.h"
#include "probes/blocking_frame.h"
#include "base/clock.h"
#include "sched.skel.h"

_Static_assert(sizeof(struct sched_counters) % sizeof(uint64_t) == 0,
	       "sched_counters is summed as u64 words");

static const char *const sched_mechs[] = { MECH_TP_BTF, MECH_RAW_TP, MECH_TRACEPOINT };
#define SCHED_NR_MECHS (sizeof(sched_mechs) / sizeof(sched_mechs[0]))

#define TOP_FUNCTIONS 10     /* rows of the text table */
#define TOP_STACKS    20     /* folded stacks in the JSON */

/* One (stack, voluntary, io-wq) entry of the agg map, symbolized. */
struct sched_entry {
	struct sched_agg_key key;
	struct sched_agg_val val;
	const char *function;    /* points into the state's strings */
	char *folded;            /* "outermost;...;innermost", NULL without stack */
};

/* Switches attributed to one blocking function: estimates, its share
 * of the sampled switches applied to the exact totals. */
struct sched_func {
	char *name;
	uint64_t count, voluntary, involuntary, iowq;
	uint64_t offcpu_ns, timed;
	double offcpu_se;          /* offcpu_ns's standard error */
	/* the samples behind them */
	uint64_t sampled;          /* switches whose stack was taken */
	uint64_t s_weight, s_voluntary, s_iowq; /* weighted switches */
	struct sample_sums s_offcpu; /* returns seen, their off-CPU time */
};

struct sched_folded {
	const char *stack;
	uint64_t count, offcpu_ns;
};

struct sched_state {
	FAMILY_BASE;
	struct sched_bpf *skel;
	bool has_prev_state;              /* sched_switch passes prev_state */
	unsigned int stack_period;        /* 1 in N switches takes its stack */
	bool period_fixed;                /* set by the user: not widened */
	uint64_t tick_ns, tick_switches;  /* the switch rate's last reading */
	uint32_t thread_slots;            /* entries of start, from the job */
	uint32_t max_iowq;                /* entries of iowq_threads */
	/* filled by collect */
	struct sched_counters sum;
	struct sched_entry *entries;
	size_t nr_entries;
	struct sched_func *funcs;
	size_t nr_funcs;
	struct sched_folded *folded;
	size_t nr_folded;
	uint64_t iowq_workers;
	/* All samples; their off-CPU time scaled by the period, the check
	 * that they are fair (sample_share.h), and its standard error. */
	uint64_t s_count, s_weight;
	struct sample_sums s_offcpu, s_clip;
	double est_offcpu_ns, est_offcpu_se, est_clip_ns, est_clip_se;
	char symbolizer[160];             /* why names are addresses, "" = fine */
	char fp_off[96];                  /* why no stack fingerprints, "" = none */
};

static struct bpf_program *mech_prog(struct sched_bpf *skel, size_t mech)
{
	struct bpf_program *const table[SCHED_NR_MECHS] = {
		skel->progs.iodig_sw_btf, skel->progs.iodig_sw_raw, skel->progs.iodig_sw_tp,
	};

	return mech < SCHED_NR_MECHS ? table[mech] : NULL;
}

/* Whether the kernel knows BPF helper @name (enum bpf_func_id in its
 * BTF): what bpf_core_enum_value_exists() tells the BPF side. */
static bool kernel_has_helper(const struct btf *btf, const char *name)
{
	int id = btf ? btf__find_by_name_kind(btf, "bpf_func_id", BTF_KIND_ENUM) : -1;
	const struct btf_type *t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	const struct btf_enum *e = t ? btf_enum(t) : NULL;

	for (int i = 0; t && i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(btf, e[i].name_off), name))
			return true;
	return false;
}

/* Whether the fingerprints' loops can run under bpf_loop() (5.17),
 * verified once; if not, the status reason says why.  IODIG_DISABLE=
 * bpf_loop takes the path of a kernel without it, for the tests. */
static bool bpf_loop_usable(struct sched_state *s)
{
	const char *why = NULL;

	if (mech_is_disabled(s->env, "bpf_loop"))
		why = "bpf_loop() disabled by IODIG_DISABLE";
	else if (!kernel_has_helper(family_btf(s), "BPF_FUNC_loop"))
		why = "no bpf_loop() (5.17)";
	if (why)
		snprintf(s->fp_off, sizeof(s->fp_off), "%s: every sampled stack walked", why);
	return !why;
}

/* The lowest word a stack fingerprint keeps: kernel code's start on
 * x86-64, where modules, BPF programs and trampolines lie above the
 * image (bpf/sched.bpf.c); 0 turns fingerprints off, and a kernel
 * without bpf_loop() walks every sampled stack. */
static uint64_t fingerprint_floor(struct sched_state *s)
{
	s->fp_off[0] = '\0';
#if defined(__x86_64__)
	if (s->env->sched_no_fingerprint || !bpf_loop_usable(s))
		return 0;
	return family_text_start(s);
#else
	return 0;
#endif
}

static int sched_load(void *state, size_t mech, struct errbuf *why)
{
	struct sched_state *s = state;
	int err = FAMILY_OPEN(s, sched);

	if (err)
		return err;
	s->skel->rodata->has_prev_state = s->has_prev_state;
	s->skel->bss->stack_period = s->stack_period;
	s->skel->rodata->thread_slots = s->thread_slots;
	s->skel->rodata->ktext_lo = fingerprint_floor(s);
	s->skel->rodata->fp_verify = s->env->sched_fp_verify;
	bpf_map__set_max_entries(s->skel->maps.start, s->thread_slots);
	bpf_map__set_max_entries(s->skel->maps.iowq_threads, s->max_iowq);
	for (size_t i = 0; i < SCHED_NR_MECHS; i++)
		bpf_program__set_autoload(mech_prog(s->skel, i), i == mech);
	return family_load(s, why);
}

static void sched_prepare(void *state)
{
	struct sched_state *s = state;
	const struct probe_env *env = s->env;

	s->period_fixed = env->sched_stack_period != 0;
	s->stack_period = s->period_fixed ? env->sched_stack_period : SCHED_STACK_PERIOD;
	/*
	 * Map sizes from the job.  start: workers started together have
	 * consecutive thread ids, which cannot share a slot while the slots
	 * outnumber the threads; 8 slots per traced thread (workers and their
	 * io threads) keep later ones (io-wq workers) apart too; 64 B each, so
	 * 64 KiB to 4 MiB.  iowq_threads: twice the io-wq workers the job can
	 * have at once, for workers that exit idle and come back with new
	 * ids.  The stack and agg maps stay fixed: their keys are the
	 * kernel's blocking paths, which do not grow with the job.
	 */
	s->thread_slots = map_size(8 * ((uint64_t)env->threads + map_io_threads(env)),
				   1024, 65536, SCHED_THREAD_SLOTS);
	s->max_iowq = map_size(2 * map_io_threads(env), 256, 16384, SCHED_MAX_IOWQ);
	/* 4 arguments since v5.18 (prev_state); without BTF assume the old
	 * three and read the state from the task. */
	s->has_prev_state = tp_nr_args(family_btf(s), "sched_switch") >= 4;
}

static int entry_of(void *elem, const void *key, const void *value, void *ctx)
{
	struct sched_entry *e = elem;

	(void)ctx;
	memcpy(&e->key, key, sizeof(e->key));
	memcpy(&e->val, value, sizeof(e->val));
	return 1;
}

static int read_entries(struct sched_state *s)
{
	return map_read_entries(s->skel->maps.agg, (void **)&s->entries, &s->nr_entries,
				sizeof(*s->entries), entry_of, NULL);
}

static void name_of(const struct ksyms *ks, uint64_t ip, char *buf, size_t size)
{
	const struct ksym *sym = ks ? ksyms__map_addr(ks, ip, NULL) : NULL;

	if (!sym)
		snprintf(buf, size, "0x%llx", (unsigned long long)ip);
	else if (sym->module[0])
		snprintf(buf, size, "%s [%s]", sym->name, sym->module);
	else
		snprintf(buf, size, "%s", sym->name);
}

/* Symbolizes one entry's stack: its blocking function and folded form. */
static int symbolize(struct sched_state *s, const struct ksyms *ks, struct sched_entry *e,
		     char **function)
{
	uint64_t ips[SCHED_STACK_DEPTH] = { 0 };
	int fd = bpf_map__fd(e->key.stackid & SCHED_TASK_STACK_ID ? s->skel->maps.task_stacks
								   : s->skel->maps.stacks);
	char names[SCHED_STACK_DEPTH][256], name[256], *folded = NULL;
	const char *frames[SCHED_STACK_DEPTH];
	size_t nr = 0, len = 0, cap = 0, blocking;
	bool in_bpf;

	*function = NULL;
	if (e->key.stackid == (uint32_t)SCHED_NO_STACK ||
	    bpf_map_lookup_elem(fd, &e->key.stackid, ips)) {
		*function = strdup("[no stack]");
		return *function ? 0 : -ENOMEM;
	}
	while (nr < SCHED_STACK_DEPTH && ips[nr])
		nr++;
	for (size_t i = 0; i < nr; i++) {
		name_of(ks, ips[i], names[i], sizeof(names[i]));
		frames[i] = names[i];
	}
	blocking = blocking_frame_pick(frames, nr, &in_bpf);
	if (in_bpf)
		snprintf(name, sizeof(name), "%s", BLOCKING_IN_BPF);
	else if (blocking < nr)
		snprintf(name, sizeof(name), "%s", names[blocking]);
	else
		snprintf(name, sizeof(name), "[empty stack]");
	*function = strdup(name);
	if (!*function)
		return -ENOMEM;
	/* Folded stacks (flame graph input) run from the outermost frame. */
	for (size_t i = nr; i-- > 0;) {
		size_t n = strlen(names[i]);

		if (len + n + 2 > cap) {
			size_t ncap = (len + n + 2) * 2;
			char *p = realloc(folded, ncap);

			if (!p) {
				free(folded);
				return -ENOMEM;
			}
			folded = p;
			cap = ncap;
		}
		if (len)
			folded[len++] = ';';
		memcpy(folded + len, names[i], n + 1);
		len += n;
	}
	e->folded = folded;
	return 0;
}

static struct sched_func *func_get(struct sched_state *s, char *name, size_t *cap)
{
	struct sched_func *f;

	for (size_t i = 0; i < s->nr_funcs; i++) {
		if (!strcmp(s->funcs[i].name, name)) {
			free(name);
			return &s->funcs[i];
		}
	}
	f = grow_for_one(s->funcs, cap, s->nr_funcs, sizeof(*f), 32);
	if (!f) {
		free(name);
		return NULL;
	}
	s->funcs = f;
	f = &s->funcs[s->nr_funcs++];
	memset(f, 0, sizeof(*f));
	f->name = name;
	return f;
}

static int cmp_func(const void *a, const void *b)
{
	const struct sched_func *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_folded(const void *a, const void *b)
{
	const struct sched_folded *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->stack, y->stack);
}

/* Same stack under several (voluntary, io-wq) keys counts once, summed. */
static int build_folded(struct sched_state *s)
{
	s->folded = calloc(s->nr_entries ? s->nr_entries : 1, sizeof(*s->folded));
	if (!s->folded)
		return -ENOMEM;
	for (size_t i = 0; i < s->nr_entries; i++) {
		const struct sched_entry *e = &s->entries[i];
		size_t j;

		if (!e->folded)
			continue;
		for (j = 0; j < s->nr_folded; j++)
			if (!strcmp(s->folded[j].stack, e->folded))
				break;
		if (j == s->nr_folded) {
			s->folded[j].stack = e->folded;
			s->nr_folded++;
		}
		s->folded[j].count += sample_scale(e->val.count_w, s->s_weight, s->sum.switches);
		s->folded[j].offcpu_ns += sample_scale(e->val.offcpu_ns, s->s_offcpu.ns,
						       s->sum.offcpu_ns);
	}
	if (s->nr_folded)
		qsort(s->folded, s->nr_folded, sizeof(*s->folded), cmp_folded);
	return 0;
}

/* The stack period over the run: the samples' mean weight. */
static unsigned int mean_period(const struct sched_state *s)
{
	return s->s_count ? (unsigned int)((s->s_weight + s->s_count / 2) / s->s_count)
			  : s->stack_period;
}

/* The samples' shares of the exact totals (iodig/sample_share.h). */
static void scale_funcs(struct sched_state *s)
{
	const struct sched_counters *c = &s->sum;

	s->est_offcpu_ns = sample_total_estimate(&s->s_offcpu, &s->est_offcpu_se);
	s->est_clip_ns = sample_total_estimate(&s->s_clip, &s->est_clip_se);
	for (size_t i = 0; i < s->nr_funcs; i++) {
		struct sched_func *f = &s->funcs[i];

		f->count = sample_scale(f->s_weight, s->s_weight, c->switches);
		f->voluntary = sample_scale(f->s_voluntary, s->s_weight, c->switches);
		f->involuntary = sample_scale(f->s_weight - f->s_voluntary, s->s_weight,
					      c->switches);
		f->iowq = sample_scale(f->s_iowq, s->s_weight, c->switches);
		f->timed = sample_scale(f->s_offcpu.w, s->s_offcpu.w, c->switch_ins);
		f->offcpu_ns = sample_scale(f->s_offcpu.ns, s->s_offcpu.ns, c->offcpu_ns);
		f->offcpu_se = sample_share_se(&f->s_offcpu, &s->s_offcpu,
					       c->offcpu_ns);
	}
}

static int attribute(struct sched_state *s)
{
	struct errbuf kerr = { "" };
	const struct ksyms *ks = NULL;
	size_t cap = 0;

	if (family_ksyms(s, &ks, &kerr))
		snprintf(s->symbolizer, sizeof(s->symbolizer), "%s", kerr.msg);
	for (size_t i = 0; i < s->nr_entries; i++) {
		struct sched_entry *e = &s->entries[i];
		const struct sample_sums times = {
			e->val.timed, e->val.timed_w, e->val.offcpu_ns, e->val.offcpu_sq_us,
		}, clipped = { e->val.timed, e->val.timed_w, e->val.clip_ns, e->val.clip_sq_us };
		struct sched_func *f;
		char *name;
		int ret = symbolize(s, ks, e, &name);

		if (ret)
			return ret;
		f = func_get(s, name, &cap);
		if (!f)
			return -ENOMEM;
		e->function = f->name;
		f->sampled += e->val.count;
		if (e->key.flags & SCHED_F_VOLUNTARY)
			f->s_voluntary += e->val.count_w;
		if (e->key.flags & SCHED_F_IOWQ)
			f->s_iowq += e->val.count_w;
		sample_sums_add(&f->s_offcpu, &times);
		sample_sums_add(&s->s_offcpu, &times);
		sample_sums_add(&s->s_clip, &clipped);
		f->s_weight += e->val.count_w;
		s->s_count += e->val.count;
		s->s_weight += e->val.count_w;
	}
	scale_funcs(s);
	if (s->nr_funcs)
		qsort(s->funcs, s->nr_funcs, sizeof(*s->funcs), cmp_func);
	return build_folded(s);
}

static int count_entry(const void *key, const void *value, void *ctx)
{
	(void)key;
	(void)value;
	(*(uint64_t *)ctx)++;
	return 0;
}

static int sched_collect(void *state, uint64_t workload_ios)
{
	struct sched_state *s = state;
	int err;

	(void)workload_ios;
	err = map_sum_counters(s->skel->maps.counters, &s->sum, sizeof(s->sum));
	if (err)
		return err;
	err = read_entries(s);
	if (err)
		return err;
	s->iowq_workers = 0;
	err = map_each_entry(s->skel->maps.iowq_threads, count_entry, &s->iowq_workers);
	if (err)
		return err;
	return attribute(s);
}

/* fio-like time: the unit that keeps 1-3 integer digits, two decimals
 * above whole nanoseconds. */
static void fmt_ns(char *buf, size_t size, double ns)
{
	const char *unit;
	double div = duration_unit(ns, &unit);

	snprintf(buf, size, div > 1.0 ? "%.2f%s" : "%.0f%s", ns / div, unit);
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void sched_render_text(const void *state, FILE *out)
{
	const struct sched_state *s = state;
	const struct sched_counters *c;
	char total[32], avg[32];

	if (!s)
		return;
	c = &s->sum;
	fprintf(out, "  sched: mechanism=%s, switches=%llu (voluntary=%llu, involuntary=%llu)\n",
		s->mechanism, (unsigned long long)c->switches,
		(unsigned long long)c->voluntary, (unsigned long long)c->involuntary);
	if (!c->switches) {
		fprintf(out, "    no context switches of the workload's threads seen\n");
		return;
	}
	fmt_ns(total, sizeof(total), (double)c->offcpu_ns);
	fmt_ns(avg, sizeof(avg), c->switch_ins ? (double)c->offcpu_ns / (double)c->switch_ins : 0);
	fprintf(out, "    off-cpu: total=%s, avg=%s over %llu returns\n", total, avg,
		(unsigned long long)c->switch_ins);
	fprintf(out, "    context switches by blocking function (stacks sampled 1 in %u, "
		"%llu sampled; each function's share of the samples, error ~1/sqrt(samples)):\n",
		mean_period(s), (unsigned long long)c->sampled);
	fprintf(out, "      %-32s %10s %10s %10s %6s %12s %7s %10s %8s\n", "function", "switches",
		"vol", "invol", "share", "off-cpu", "+-", "avg", "samples");
	for (size_t i = 0; i < s->nr_funcs && i < TOP_FUNCTIONS; i++) {
		const struct sched_func *f = &s->funcs[i];

		fmt_ns(total, sizeof(total), (double)f->offcpu_ns);
		fmt_ns(avg, sizeof(avg), f->timed ? (double)f->offcpu_ns / (double)f->timed : 0);
		fprintf(out, "      %-32.32s %10llu %10llu %10llu %5.1f%% %12s %6.1f%% %10s %8llu\n",
			f->name, (unsigned long long)f->count, (unsigned long long)f->voluntary,
			(unsigned long long)f->involuntary, pct(f->count, c->switches),
			total, f->offcpu_ns ? 100.0 * f->offcpu_se / (double)f->offcpu_ns : 0.0,
			avg, (unsigned long long)f->sampled);
	}
	if (s->nr_funcs > TOP_FUNCTIONS)
		fprintf(out, "      (%zu more functions in the JSON output)\n",
			s->nr_funcs - TOP_FUNCTIONS);
	if (c->offcpu_clip_ns && s->s_offcpu.n)
		fprintf(out, "      (shares of the samples applied to the exact totals; sampled "
			"off-cpu x %u = %.3f of the total +-%.3f, intervals cut at %.0fus %.3f "
			"+-%.3f)\n", mean_period(s), s->est_offcpu_ns / (double)c->offcpu_ns,
			s->est_offcpu_se / (double)c->offcpu_ns, SCHED_CLIP_NS / 1e3,
			s->est_clip_ns / (double)c->offcpu_clip_ns,
			s->est_clip_se / (double)c->offcpu_clip_ns);
	fprintf(out, "    io-wq workers: %llu threads, %llu switches",
		(unsigned long long)s->iowq_workers, (unsigned long long)c->iowq_switches);
	if (c->sqpoll_switches)
		fprintf(out, "; SQPOLL thread switches: %llu",
			(unsigned long long)c->sqpoll_switches);
	fputc('\n', out);
	if (s->have_wl && (s->wl.ctx_vol || s->wl.ctx_invol))
		fprintf(out, "    workers' getrusage: voluntary=%llu, involuntary=%llu\n",
			(unsigned long long)s->wl.ctx_vol, (unsigned long long)s->wl.ctx_invol);
	family_drops_text(s, out);
	if (s->symbolizer[0])
		fprintf(out, "    functions shown as addresses: %s\n", s->symbolizer);
}

/* A function's switches, then (after its share) their off-CPU time. */
#define FUNC_U64(key, member) JSON_U64(key, struct sched_func, member)
static const struct json_field func_switches_json[] = {
	FUNC_U64("count", count), FUNC_U64("voluntary", voluntary),
	FUNC_U64("involuntary", involuntary), FUNC_U64("iowq", iowq),
};
static const struct json_field func_offcpu_json[] = {
	FUNC_U64("offcpu_ns", offcpu_ns), FUNC_U64("offcpu_timed", timed),
	JSON_DOUBLE("offcpu_se_ns", struct sched_func, offcpu_se), FUNC_U64("sampled", sampled),
};
#undef FUNC_U64

static struct json_object *json_funcs(const struct sched_state *s)
{
	struct json_object *arr = json_object_new_array();

	for (size_t i = 0; i < s->nr_funcs; i++) {
		const struct sched_func *f = &s->funcs[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "function", json_object_new_string(f->name));
		JSON_FIELDS(o, f, func_switches_json);
		json_object_object_add(o, "share", json_object_new_double(
			pct(f->count, s->sum.switches) / 100.0));
		JSON_FIELDS(o, f, func_offcpu_json);
		json_object_object_add(o, "avg_offcpu_ns", json_object_new_double(
			f->timed ? (double)f->offcpu_ns / (double)f->timed : 0.0));
		json_object_array_add(arr, o);
	}
	return arr;
}

/* The switches and their off-CPU time, exact. */
#define SUM_U64(key, member) JSON_U64(key, struct sched_counters, member)
static const struct json_field counters_json[] = {
	SUM_U64("switches", switches), SUM_U64("voluntary", voluntary),
	SUM_U64("involuntary", involuntary), SUM_U64("offcpu_ns", offcpu_ns),
	SUM_U64("offcpu_voluntary_ns", offcpu_vol_ns), SUM_U64("offcpu_timed", switch_ins),
	SUM_U64("offcpu_clipped_ns", offcpu_clip_ns),
};
/* Sampled switch-in stacks found by fingerprint or walked. */
static const struct json_field fingerprints_json[] = {
	SUM_U64("hits", fp_hits), SUM_U64("misses", fp_misses), SUM_U64("none", fp_none),
	SUM_U64("skipped", fp_skipped),
	SUM_U64("mismatches", fp_mismatches),
};
#undef SUM_U64

/* The check that the samples are fair: their off-CPU time x period. */
#define STATE_U64(key, member) JSON_U64(key, struct sched_state, member)
#define STATE_DOUBLE(key, member) JSON_DOUBLE(key, struct sched_state, member)
static const struct json_field samples_json[] = {
	STATE_U64("switches", s_count), STATE_U64("returns", s_offcpu.n),
	STATE_U64("returns_estimate", s_offcpu.w), STATE_U64("offcpu_ns", s_offcpu.ns),
	STATE_DOUBLE("offcpu_estimate_ns", est_offcpu_ns),
	STATE_DOUBLE("offcpu_estimate_se_ns", est_offcpu_se),
	STATE_DOUBLE("clipped_estimate_ns", est_clip_ns),
	STATE_DOUBLE("clipped_estimate_se_ns", est_clip_se),
};
#undef STATE_U64
#undef STATE_DOUBLE

static void sched_render_json(const void *state, struct json_object *kernel)
{
	const struct sched_state *s = state;
	const struct sched_counters *c;
	struct json_object *o, *sub, *arr;

	if (!s || !kernel)
		return;
	c = &s->sum;
	o = json_object_new_object();
	json_object_object_add(o, "mechanism", json_object_new_string(s->mechanism));
	JSON_FIELDS(o, c, counters_json);
	json_object_object_add(o, "offcpu_clip_ns", json_u64(SCHED_CLIP_NS));
	/* by_function and stacks are estimates: sampled switches x period. */
	json_object_object_add(o, "stack_sample_period", json_u64(mean_period(s)));
	json_object_object_add(o, "sampled_switches", json_u64(c->sampled));
	json_object_object_add(o, "by_function", json_funcs(s));
	sub = json_object_new_object();
	JSON_FIELDS(sub, s, samples_json);
	json_object_object_add(o, "samples", sub);

	sub = json_object_new_object();
	json_object_object_add(sub, "workers", json_u64(s->iowq_workers));
	json_object_object_add(sub, "switches", json_u64(c->iowq_switches));
	json_object_object_add(o, "iowq", sub);
	json_object_object_add(o, "sqpoll_switches", json_u64(c->sqpoll_switches));
	sub = json_object_new_object();
	JSON_FIELDS(sub, c, fingerprints_json);
	json_object_object_add(o, "stack_fingerprints", sub);

	arr = json_object_new_array();
	for (size_t i = 0; i < s->nr_folded && i < TOP_STACKS; i++) {
		sub = json_object_new_object();
		json_object_object_add(sub, "stack", json_object_new_string(s->folded[i].stack));
		json_object_object_add(sub, "count", json_u64(s->folded[i].count));
		json_object_object_add(sub, "offcpu_ns", json_u64(s->folded[i].offcpu_ns));
		json_object_array_add(arr, sub);
	}
	json_object_object_add(o, "stacks", arr);

	json_object_object_add(o, "drops", family_drops_json(s));

	if (s->have_wl) {
		sub = json_object_new_object();
		json_object_object_add(sub, "voluntary", json_u64(s->wl.ctx_vol));
		json_object_object_add(sub, "involuntary", json_u64(s->wl.ctx_invol));
		json_object_object_add(o, "workers_rusage", sub);
	}
	if (s->symbolizer[0])
		json_object_object_add(o, "symbolizer_error",
				       json_object_new_string(s->symbolizer));
	json_object_object_add(kernel, probe_json_name(&sched_probe), o);
}

static void sched_destroy(void *state)
{
	struct sched_state *s = state;

	FREE_EACH(s->entries, s->nr_entries, folded);
	FREE_EACH(s->funcs, s->nr_funcs, name);
	free(s->folded);
}

/* Every ~200 ms: the stack period for the switch rate since the last
 * tick, so that about SCHED_STACKS_PER_S stacks a second are taken. */
static void sched_tick(void *state)
{
	struct sched_state *s = state;
	struct sched_counters sum;
	unsigned int period = SCHED_STACK_PERIOD;
	uint64_t now = now_ns();
	double rate;

	if (!s || !s->skel || s->period_fixed ||
	    map_sum_counters(s->skel->maps.counters, &sum, sizeof(sum)))
		return;
	if (s->tick_ns && now > s->tick_ns && sum.switches >= s->tick_switches) {
		rate = (double)(sum.switches - s->tick_switches) * 1e9 / (double)(now - s->tick_ns);
		while (period < SCHED_STACK_PERIOD_MAX && rate / period > SCHED_STACKS_PER_S)
			period *= 2;
		s->skel->bss->stack_period = period;
	}
	s->tick_ns = now;
	s->tick_switches = sum.switches;
}

/*
 * --probe-toggle.  A thread that left the CPU while attached and came back
 * while detached keeps its record; read at its next switch-in it would
 * count the whole time since as off-CPU.  So each attach starts a new
 * generation, and the programs read only records of the current one (a
 * store through the mmapped .bss: clearing the records instead took a
 * batch update of up to 65536 slots inside every switch).
 */
static int sched_set_attached(void *state, bool on)
{
	struct sched_state *s = state;

	if (on)
		s->skel->bss->attach_gen++;
	s->tick_ns = 0;  /* no rate across a detached phase */
	return family_relink(s, on);
}

/* Tag waits for the block section: switch-outs whose blocking function
 * is blk_mq_get_tag (estimates when stacks are sampled). */
static void sched_share_out(const void *state, struct probe_shared *sh)
{
	const struct sched_state *s = state;

	if (!s)
		return;
	sh->tag_waits_known = true;
	sh->tag_wait_source = "sched";
	sh->tag_wait_period = mean_period(s);
	for (size_t i = 0; i < s->nr_funcs; i++) {
		const struct sched_func *f = &s->funcs[i];

		if (strcmp(f->name, "blk_mq_get_tag"))
			continue;
		sh->tag_waits = f->count;
		sh->tag_wait_ns = f->offcpu_ns;
		sh->tag_wait_timed = f->timed;
		sh->tag_wait_sampled = f->sampled;
	}
}

/* What the family lost, by cause (probes/family_render.h); the base adds
 * recursion. */
static const struct family_drop_def sched_drops[] = {
	FAMILY_DROP("stack", struct sched_state, sum.stack_drops),
	FAMILY_DROP("agg_full", struct sched_state, sum.agg_drops),
	FAMILY_DROP("thread_state", struct sched_state, sum.start_drops),
	FAMILY_DROP("threads_full", struct sched_state, sum.iowq_drops),
};

static const char *const sched_classic_events[] = { "sched_switch" };
/* Figures: switches per I/O in all, of io-wq workers, waiting for a tag;
 * per blocking function, switches and off-CPU time per I/O. */
static const struct figure_def sched_switches_figure =
	FIGURE_KERNEL_DEF("kernel.switches_per_io", "sched switches per I/O",
			  FIGURE_LOWER, 10);
static const struct figure_def sched_iowq_figure =
	FIGURE_KERNEL_DEF("kernel.iowq_switches_per_io", "io-wq worker switches per I/O",
			  FIGURE_LOWER, 11);
static const struct figure_def sched_tag_waits_figure =
	FIGURE_KERNEL_DEF("kernel.tag_waits_per_io", "tag waits per I/O (blk_mq_get_tag)",
			  FIGURE_LOWER, 12);
static const struct figure_def sched_fn_figures[2] =
	FIGURE_FUNCTION_PER_IO_DEFS("sched", "blocks in", "switches/IO",
				    "off-CPU time/IO", 10);

static void sched_figures(const void *state, const struct probe_workload *wl,
			  struct figure_set *out)
{
	const struct sched_state *s = state;
	const double ios = (double)wl->ios;
	double tag_waits = 0.0;

	if (!s)
		return;
	for (size_t i = 0; i < s->nr_funcs; i++)
		if (!strcmp(s->funcs[i].name, "blk_mq_get_tag"))
			tag_waits = figure_ratio((double)s->funcs[i].count, ios);
	figure_put(out, &sched_switches_figure,
		   figure_ratio((double)s->sum.switches, ios));
	figure_put(out, &sched_iowq_figure,
		   figure_ratio((double)s->sum.iowq_switches, ios));
	figure_put(out, &sched_tag_waits_figure, tag_waits);
	for (size_t i = 0; i < s->nr_funcs; i++) {
		const struct sched_func *f = &s->funcs[i];

		figure_put_fn_per_io(out, sched_fn_figures, f->name, f->count,
				     f->offcpu_ns, wl->ios);
	}
	for (size_t i = 0; i < s->nr_folded && i < TOP_STACKS; i++)
		figure_put_stack(out, FIGURE_STACK_OFF_CPU, s->folded[i].stack,
				 s->folded[i].count);
}

/* A fallback inside the mechanism: stacks walked, not found by fingerprint. */
static void sched_note_status(void *state, int err, struct probe_status *st)
{
	const struct sched_state *s = state;

	if (!err && s->fp_off[0])
		mech_reason_add(st->reason, sizeof(st->reason), "%s", s->fp_off);
}

FAMILY_DEFINE(sched, sched,
	      "context switches of the workload by blocking function, off-CPU time",
	      FAMILY_CLASSIC("sched", sched_classic_events), FAMILY_DROPS(sched_drops),
	      FAMILY_HOOKS(sched, prepare, note_status, set_attached, tick, share_out, figures,
			   destroy));
