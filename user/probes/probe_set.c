// SPDX-License-Identifier: GPL-2.0
/*
 * The probe set: every family in probe_list.h, each its own skeleton,
 * opened side by side (a thread per CPU), so a family this kernel cannot
 * load is recorded and skipped without touching the others.  A missing family
 * never fails the run.
 *
 * No RLIMIT_MEMLOCK bump: since 5.11 BPF memory is charged to the memory
 * cgroup, and libbpf 1.x only raises the limit itself on older kernels.
 *
 * The default set is every family but the opt-in ones, each with only the
 * hooks that pay for themselves; --detail loads everything.  What each
 * costs per I/O depends on the machine: tests/bench/overhead.sh measures
 * it beside biolatency and bpftrace (make bench, part (a); the last
 * figures, per family, are in docs/overhead.md).
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "probes/probe.h"
#include "probes/family.h"
#include "probes/family_render.h"
#include "base/clock.h"
#include "base/parked_threads.h"
#include "probes/probe_cache.h"
#include "probes/selection.h"
#include "probes/tracefs.h"
#include "probes/vmlinux_lend.h"

static const struct probe_family *const families[] = {
#define PROBE(n) &n##_probe,
#include "probes/probe_list.h"
#undef PROBE
};
#define NR_FAMILIES (sizeof(families) / sizeof(families[0]))

struct probe_slot {
	const struct probe_family *fam;
	void *state;
	struct probe_status st;
	bool collected;
	uint64_t run_cnt;          /* program runs (bpf_stats) */
	uint64_t run_time_ns;      /* BPF time of those runs */
	uint64_t open_ns;          /* trying its mechanisms, loading, attaching */
	uint64_t opened_at_ns;     /* when that ended */
	const struct probe_env *env; /* during open only */
};

struct probe_set {
	struct probe_slot slot[NR_FAMILIES];
	bool mounted_tracefs;      /* we mounted it, so we unmount it */
	int stats_fd;              /* BPF_ENABLE_STATS: on while it is open */
	bool stats;                /* run-time figures are being kept */
	uint64_t btf_ns;           /* parsing the kernel's BTF for all */
	uint64_t workload_ios;
	struct probe_workload wl;  /* what collect() was given */
	struct phase_log *phases;  /* env's */
	struct parked_threads *openers; /* the threads that opened the
				    * families, parked until destroy */
};

static const char *state_name(enum probe_state s)
{
	switch (s) {
	case PROBE_OFF:
		return "off";
	case PROBE_ACTIVE:
		return "active";
	case PROBE_DEGRADED:
		return "degraded";
	case PROBE_MISSING:
		return "missing";
	}
	return "?";
}

static bool is_running(const struct probe_slot *p)
{
	return p->state && (p->st.state == PROBE_ACTIVE || p->st.state == PROBE_DEGRADED);
}

static int family_index(const char *name)
{
	for (size_t i = 0; i < NR_FAMILIES; i++)
		if (!strcmp(name, families[i]->name))
			return (int)i;
	return -1;
}

/*
 * Which families @spec (see probes_open) selects, into @on.  Comma list,
 * spaces ignored; a bare name selects exactly the named ones, "+name" and
 * "-name" change the default set, and the two forms do not mix.
 */
static int select_families(const char *spec, bool detail, bool on[NR_FAMILIES],
			   struct errbuf *err)
{
	bool all = false, exact = false, changes = false;
	char known[256] = "", tok[64];
	const char *p = spec;

	for (size_t i = 0; i < NR_FAMILIES; i++) {
		size_t len = strlen(known);

		snprintf(known + len, sizeof(known) - len, "%s%s", i ? ", " : "",
			 families[i]->name);
	}
	for (int pass = 0; pass < 2; pass++) {
		/* pass 0 learns the form and "all"; pass 1 applies names */
		if (pass == 1)
			for (size_t i = 0; i < NR_FAMILIES; i++)
				on[i] = all || (!exact && (detail || !families[i]->opt_in));
		for (p = spec; p && *p;) {
			size_t n = strcspn(p, ",");
			char *name = tok;
			int idx;

			snprintf(tok, sizeof(tok), "%.*s", (int)(n < 63 ? n : 63), p);
			p += n + (p[n] == ',');
			for (char *q = tok; *q; q++)
				if (*q == ' ' || *q == '\t')
					memmove(q, q + 1, strlen(q));
			if (!tok[0])
				continue;
			if (!strcmp(tok, "all")) {
				all = true;
				continue;
			}
			if (tok[0] == '+' || tok[0] == '-')
				name++;
			idx = family_index(name);
			if (idx < 0)
				return err_set(err, EINVAL, "--probes: unknown probe family '%s' "
					       "(known: %s, all)", name, known);
			if (pass == 0) {
				changes |= name != tok;
				exact |= name == tok;
				if (changes && exact)
					return err_set(err, EINVAL, "--probes=%s: give either "
						       "family names or +/- changes to the "
						       "default set, not both", spec);
			} else {
				on[idx] = tok[0] != '-';
			}
		}
	}
	return 0;
}

/* A bad IODIG_BTF would fail every family with the same message: say it
 * once, naming the file. */
static int no_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static int check_btf(const char *path, struct errbuf *err)
{
	libbpf_print_fn_t old_print = libbpf_set_print(no_print);
	struct btf *btf = btf__parse(path, NULL);
	int ret = libbpf_get_error(btf);

	libbpf_set_print(old_print);
	btf__free(btf);
	if (ret)
		return err_set(err, -ret, "IODIG_BTF=%s: cannot read BTF from it: %s", path,
			       -ret >= 4000 ? "neither raw BTF nor an ELF file with a .BTF section"
					    : strerror(-ret));
	return 0;
}

static bool bpf_stats_sysctl_on(void)
{
	char c = '0';
	FILE *f = fopen("/proc/sys/kernel/bpf_stats_enabled", "re");

	if (f) {
		if (fread(&c, 1, 1, f) != 1)
			c = '0';
		fclose(f);
	}
	return c == '1';
}

/* Sums run count and time over the family's programs. */
static void read_prog_stats(struct probe_slot *p)
{
	struct bpf_object *obj = family_object(p->state);
	struct bpf_program *prog;

	p->run_cnt = p->run_time_ns = 0;
	if (!obj)
		return;
	bpf_object__for_each_program(prog, obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		memset(&info, 0, sizeof(info));
		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len))
			continue;
		p->run_cnt += info.run_cnt;
		p->run_time_ns += info.run_time_ns;
	}
}

void probes_env_from_environment(struct probe_env *env)
{
	const char *period, *fp;

	env->disabled = getenv("IODIG_DISABLE");
	env->btf_path = getenv("IODIG_BTF");
	if (env->btf_path && !*env->btf_path)
		env->btf_path = NULL;
	period = getenv("IODIG_SCHED_STACK_PERIOD");
	if (period)
		env->sched_stack_period = (unsigned int)strtoul(period, NULL, 10);
	fp = getenv("IODIG_SCHED_STACK_FP");
	env->sched_no_fingerprint = fp && !strcmp(fp, "0");
	fp = getenv("IODIG_SCHED_STACK_VERIFY");
	env->sched_fp_verify = fp && strcmp(fp, "0") && *fp;
}

int probes_check_spec(const char *spec, struct errbuf *err)
{
	bool on[NR_FAMILIES];

	return select_families(spec, false, on, err);
}

static void open_slot(void *slot)
{
	struct probe_slot *p = slot;
	uint64_t t0 = now_ns();

	if (family_open(p->fam, p->env, &p->state, &p->st)) {
		p->state = NULL;
		p->st.state = PROBE_MISSING;
	}
	p->opened_at_ns = now_ns();
	p->open_ns = p->opened_at_ns - t0;
	p->env = NULL;
}

static void mark_off(struct probe_slot *p)
{
	p->st.state = PROBE_OFF;
	snprintf(p->st.mechanism, sizeof(p->st.mechanism), "none");
	snprintf(p->st.reason, sizeof(p->st.reason), p->fam->opt_in ?
		 "not in the default set (--probes=+%s or --detail)" : "not requested",
		 p->fam->name);
}

/*
 * Opens the families in @on side by side, a thread per CPU: opening is
 * mostly the kernel verifying programs and allocating maps, and libbpf
 * objects share nothing but the print hook, made quiet for the whole time
 * (the kernel's BTF is parsed before; only funcs reads the symbols while
 * opening).  An attached family sees none of iodig's own events until the
 * workload filter takes iodig's process: that happens here once every
 * opening thread is asleep in its park (base/parked_threads.h), so none
 * of their page faults or switches counts as the workload's.
 */
static void open_all(struct probe_set *set, const struct probe_env *env,
		     const bool on[NR_FAMILIES])
{
	libbpf_print_fn_t old_print = mech_quiet_begin();
	struct probe_env unarmed = *env;
	void *items[NR_FAMILIES];
	size_t n = 0;
	bool exact;

	unarmed.runner_tgid = 0;  /* the filter takes iodig's process below */
	for (size_t i = 0; i < NR_FAMILIES; i++) {
		struct probe_slot *p = &set->slot[i];

		p->fam = families[i];
		p->env = &unarmed;
		if (on[i])
			items[n++] = p;
		else
			mark_off(p);
	}
	parked_threads_run(open_slot, items, n, &set->openers, &exact);
	libbpf_set_print(old_print);
	for (size_t i = 0; i < NR_FAMILIES; i++)
		if (on[i])
			phase_mark_at(set->phases, "open", families[i]->name,
				      set->slot[i].opened_at_ns);
	phase_mark(set->phases, exact ? "openers" : "openers (unconfirmed)", "parked");
	if (env->runner_tgid > 0)
		probes_track_tgid(set, env->runner_tgid);
}

int probes_open(const struct probe_env *env, const char *spec,
		struct probe_set **out, struct errbuf *err)
{
	struct probe_set *set;
	struct errbuf mount_err = { .msg = "" };
	bool on[NR_FAMILIES];
	int ret;

	*out = NULL;
	ret = select_families(spec, env->detail, on, err);
	if (ret)
		return ret;
	if (env->btf_path && (ret = check_btf(env->btf_path, err)))
		return ret;
	set = calloc(1, sizeof(*set));
	if (!set)
		return err_set(err, ENOMEM, "out of memory allocating the probe set");
	/* Classic tracepoints need tracefs; when it cannot be mounted only
	 * those mechanisms fail, and their reason says why. */
	set->phases = env->phases;
	tracefs_mount(&set->mounted_tracefs, &mount_err);
	phase_mark(set->phases, "tracefs", "mounted");
	/* Run-time stats cost two clock reads per program run, so they are
	 * on only when asked for (or already on system-wide).  The fd form
	 * switches them off again when iodig exits, even when killed. */
	set->stats_fd = -1;
	if (env->bpf_stats)
		set->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	set->stats = set->stats_fd >= 0 || bpf_stats_sysctl_on();

	/* libbpf would parse the kernel's BTF again for every family: lend
	 * it the run's one parse.  Not with IODIG_BTF, whose ids are not the
	 * running kernel's (tp_btf programs load by them). */
	if (env->cache && !env->btf_path) {
		uint64_t t0 = now_ns();

		vmlinux_btf_lend(probe_cache_btf(env->cache, NULL));
		set->btf_ns = now_ns() - t0;
		phase_mark(set->phases, "kernel BTF", "parsed");
	} else if (env->cache) {
		/* parsed here, not by the first of the families opening side
		 * by side */
		probe_cache_btf(env->cache, env->btf_path);
	}
	open_all(set, env, on);
	vmlinux_btf_lend(NULL);
	*out = set;
	return 0;
}

int probes_track_tgid(struct probe_set *set, pid_t tgid)
{
	int first_err = 0;

	for (size_t i = 0; set && i < NR_FAMILIES; i++) {
		const struct probe_slot *p = &set->slot[i];
		int err = is_running(p) ? family_track_tgid(p->state, tgid) : 0;

		if (err && !first_err)
			first_err = err;
	}
	return first_err;
}

bool probes_family_running(const struct probe_set *set, const char *name)
{
	int i = family_index(name);

	return set && i >= 0 && is_running(&set->slot[i]);
}

void probes_tick(struct probe_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < NR_FAMILIES; i++)
		if (is_running(&set->slot[i]) && set->slot[i].fam->tick)
			set->slot[i].fam->tick(set->slot[i].state);
}

int probes_set_attached(struct probe_set *set, bool on, char *fixed, size_t size)
{
	size_t used = 0;
	int first_err = 0;

	if (size)
		fixed[0] = 0;
	if (!set)
		return 0;
	for (size_t i = 0; i < NR_FAMILIES; i++) {
		struct probe_slot *p = &set->slot[i];
		int err;

		if (!is_running(p))
			continue;
		err = family_set_attached(p->state, on);
		if (err == -EOPNOTSUPP) {
			if (used < size)
				used += (size_t)snprintf(fixed + used, size - used, "%s%s",
							 used ? "," : "", p->fam->name);
			continue;
		}
		if (err && !first_err)
			first_err = err;
	}
	return first_err;
}

int probes_collect(struct probe_set *set, const struct probe_workload *wl)
{
	struct probe_shared shared = { 0 };
	int first_err = 0;

	if (!set)
		return 0;
	set->workload_ios = wl ? wl->ios : 0;
	if (wl)
		set->wl = *wl;
	/* Every family hears that the workload is over before any collect()
	 * runs: collect() symbolizes and allocates in iodig's own process,
	 * and families counting per-process events (faults, sampling) read
	 * their counters in set_workload() so that work is not counted. */
	for (size_t i = 0; i < NR_FAMILIES; i++) {
		struct probe_slot *p = &set->slot[i];

		if (!is_running(p))
			continue;
		if (set->stats)
			read_prog_stats(p);
		if (wl)
			family_set_workload(p->state, wl);
	}
	for (size_t i = 0; i < NR_FAMILIES; i++) {
		struct probe_slot *p = &set->slot[i];
		int err;

		if (!is_running(p))
			continue;
		err = family_collect(p->state, wl ? wl->ios : 0);
		if (err) {
			/* Keep the family listed, say why it has no figures. */
			snprintf(p->st.reason, sizeof(p->st.reason),
				 "reading its maps failed: %s", strerror(-err));
			if (!first_err)
				first_err = err;
			continue;
		}
		p->collected = true;
		phase_mark(set->phases, "collect", p->fam->name);
	}
	for (size_t i = 0; i < NR_FAMILIES; i++)
		if (set->slot[i].collected && set->slot[i].fam->share_out)
			set->slot[i].fam->share_out(set->slot[i].state, &shared);
	for (size_t i = 0; i < NR_FAMILIES; i++)
		if (set->slot[i].collected && set->slot[i].fam->share_in)
			set->slot[i].fam->share_in(set->slot[i].state, &shared);
	return first_err;
}

static double per(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

/* What the probes themselves cost, from the kernel's own accounting. */
static void render_overhead_text(const struct probe_set *set, FILE *out)
{
	uint64_t cnt = 0, ns = 0;

	if (!set->stats) {
		fprintf(out, "  probe cost: not measured (run with --bpf-stats)\n");
		return;
	}
	fprintf(out, "  probe cost (bpf_stats):\n");
	for (size_t i = 0; i < NR_FAMILIES; i++) {
		const struct probe_slot *p = &set->slot[i];

		if (!is_running(p) || !p->run_cnt)
			continue;
		fprintf(out, "    %-10s %10llu runs, %7.1f ns/run, %8.1f ns per I/O\n",
			p->fam->name, (unsigned long long)p->run_cnt,
			per(p->run_time_ns, p->run_cnt),
			per(p->run_time_ns, set->workload_ios));
		cnt += p->run_cnt;
		ns += p->run_time_ns;
	}
	fprintf(out, "    %-10s %10llu runs, %7.1f ns/run, %8.1f ns per I/O\n", "all",
		(unsigned long long)cnt, per(ns, cnt), per(ns, set->workload_ios));
}

static struct json_object *overhead_json(const struct probe_set *set)
{
	struct json_object *o = json_object_new_object(), *fams = json_object_new_object();
	uint64_t cnt = 0, ns = 0;

	json_object_object_add(o, "measured", json_object_new_boolean(set->stats));
	for (size_t i = 0; i < NR_FAMILIES && set->stats; i++) {
		const struct probe_slot *p = &set->slot[i];
		struct json_object *f;

		if (!is_running(p))
			continue;
		f = json_object_new_object();
		json_object_object_add(f, "run_cnt", json_object_new_int64((int64_t)p->run_cnt));
		json_object_object_add(f, "run_time_ns", json_object_new_int64((int64_t)p->run_time_ns));
		json_object_object_add(f, "ns_per_io",
				       json_object_new_double(per(p->run_time_ns, set->workload_ios)));
		json_object_object_add(fams, p->fam->name, f);
		cnt += p->run_cnt;
		ns += p->run_time_ns;
	}
	json_object_object_add(o, "families", fams);
	json_object_object_add(o, "run_cnt", json_object_new_int64((int64_t)cnt));
	json_object_object_add(o, "run_time_ns", json_object_new_int64((int64_t)ns));
	json_object_object_add(o, "ns_per_io", json_object_new_double(per(ns, set->workload_ios)));
	return o;
}

void probes_render_text(const struct probe_set *set, FILE *out)
{
	if (!set)
		return;
	fprintf(out, "\nKernel:\n");
	probes_render_text_body(set, out);
}

void probes_render_text_body(const struct probe_set *set, FILE *out)
{
	if (!set)
		return;
	for (size_t i = 0; i < NR_FAMILIES; i++) {
		const struct probe_slot *p = &set->slot[i];

		fprintf(out, "  %-10s: %s", p->fam->name, state_name(p->st.state));
		if (is_running(p))
			fprintf(out, ", %s", p->st.mechanism);
		if (p->st.reason[0] && p->st.state != PROBE_ACTIVE)
			fprintf(out, " (%s)", p->st.reason);
		fputc('\n', out);
	}
	for (size_t i = 0; i < NR_FAMILIES; i++) {
		const struct probe_slot *p = &set->slot[i];

		if (is_running(p) && p->collected)
			p->fam->render_text(p->state, out);
	}
	render_overhead_text(set, out);
}

void probes_render_json(const struct probe_set *set, struct json_object *iodig)
{
	if (set && iodig)
		json_object_object_add(iodig, "kernel", probes_json(set));
}

struct json_object *probes_json(const struct probe_set *set)
{
	struct json_object *kernel, *list;

	if (!set)
		return NULL;
	kernel = json_object_new_object();
	list = json_object_new_array();
	for (size_t i = 0; i < NR_FAMILIES; i++) {
		const struct probe_slot *p = &set->slot[i];
		struct json_object *o = json_object_new_object();

		json_object_object_add(o, "family", json_object_new_string(p->fam->name));
		json_object_object_add(o, "mechanism",
				       json_object_new_string(p->st.mechanism));
		json_object_object_add(o, "state",
				       json_object_new_string(state_name(p->st.state)));
		json_object_object_add(o, "reason", json_object_new_string(p->st.reason));
		/* what the family added to iodig's start-up (make bench) */
		json_object_object_add(o, "open_us", json_u64(p->open_ns / 1000));
		json_object_array_add(list, o);
	}
	json_object_object_add(kernel, "probes", list);
	/* the one parse of the kernel's BTF before the families (0 when a
	 * repeat found it parsed) */
	json_object_object_add(kernel, "btf_us", json_u64(set->btf_ns / 1000));
	json_object_object_add(kernel, "overhead", overhead_json(set));
	for (size_t i = 0; i < NR_FAMILIES; i++) {
		const struct probe_slot *p = &set->slot[i];

		if (is_running(p) && p->collected)
			p->fam->render_json(p->state, kernel);
	}
	return kernel;
}

void probes_figures(const struct probe_set *set, struct figure_set *out)
{
	for (size_t i = 0; set && i < NR_FAMILIES; i++) {
		const struct probe_slot *p = &set->slot[i];

		if (is_running(p) && p->collected && p->fam->figures)
			p->fam->figures(p->state, &set->wl, out);
	}
}

void probes_print_table(const struct probe_set *set, FILE *out)
{
	if (!set)
		return;
	fprintf(out, "%-10s %-11s %-9s %s\n", "family", "mechanism", "status", "reason");
	for (size_t i = 0; i < NR_FAMILIES; i++) {
		const struct probe_slot *p = &set->slot[i];

		fprintf(out, "%-10s %-11s %-9s %s", p->fam->name, p->st.mechanism,
			state_name(p->st.state),
			p->st.reason[0] ? p->st.reason : p->fam->summary);
		if (p->fam->opt_in)
			fprintf(out, " (opt-in: --probes=+%s or --detail)", p->fam->name);
		fputc('\n', out);
	}
}

void probes_destroy(struct probe_set *set)
{
	if (!set)
		return;
	for (size_t i = 0; i < NR_FAMILIES; i++) {
		if (!set->slot[i].state)
			continue;
		family_destroy(set->slot[i].state);
		phase_mark(set->phases, "destroy", set->slot[i].fam->name);
	}
	parked_threads_release(set->openers);
	phase_mark(set->phases, "probes", "destroyed");
	tracefs_unmount(set->mounted_tracefs);
	phase_mark(set->phases, "tracefs", "unmounted");
	if (set->stats_fd >= 0)
		close(set->stats_fd);
	free(set);
}

struct probe_teardown {
	pthread_t thread;
	struct probe_set *set;
	struct phase_log *into;   /* the set's log, NULL: none */
	struct phase_log marks;   /* the thread's, merged at the wait */
};

static void *teardown_main(void *arg)
{
	struct probe_teardown *t = arg;

	probes_destroy(t->set);
	return NULL;
}

struct probe_teardown *probes_destroy_async(struct probe_set *set)
{
	struct probe_teardown *t = set ? calloc(1, sizeof(*t)) : NULL;

	if (!t) {
		probes_destroy(set);
		return NULL;
	}
	/* phase_mark() is not for two threads at once: the thread marks
	 * into a log of its own. */
	t->set = set;
	t->into = set->phases;
	phase_log_init(&t->marks);
	set->phases = t->into ? &t->marks : NULL;
	if (pthread_create(&t->thread, NULL, teardown_main, t)) {
		set->phases = t->into;
		probes_destroy(set);
		free(t);
		return NULL;
	}
	return t;
}

void probes_teardown_wait(struct probe_teardown *t)
{
	if (!t)
		return;
	pthread_join(t->thread, NULL);
	for (size_t i = 0; t->into && i < t->marks.n; i++)
		phase_mark_at(t->into, t->marks.m[i].what, t->marks.m[i].which,
			      t->marks.m[i].ns);
	free(t);
}
