// SPDX-License-Identifier: GPL-2.0
/*
 * funcs probe family, user side: binds the functions of func_table that
 * this kernel has to the slots of bpf/funcs.bpf.c, attaches them with
 * fentry/fexit or else kprobes (kprobe.multi first), and reports per
 * function calls per I/O, pages per call, latency and result classes.
 *
 * The mechanism is chosen by trying: a two-instruction fentry program is
 * loaded and attached to the first function before the real ones, so a
 * kernel that refuses trampolines (lockdown, no BTF for the function, an
 * architecture without them) costs one failed load, and the reason names
 * the errno.  When neither mechanism works the family is missing and the
 * tracepoint and sampling families' figures are what remains.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "iodig/block.h"
#include "iodig/funcs.h"   /* before the skeleton, which uses its structs */
#include "funcs.skel.h"
#include "probes/probe.h"
#include "probes/funcs_table.h"
#include "probes/selection.h"
#include "probes/maps.h"
#include "probes/family.h"
#include "probes/ksyms.h"
#include "workload/stats.h"

_Static_assert(sizeof(struct funcs_fn_counters) % sizeof(uint64_t) == 0,
	       "funcs_fn_counters is summed as u64 words");
_Static_assert(sizeof(struct funcs_global) % sizeof(uint64_t) == 0,
	       "funcs_global is summed as u64 words");

#define MECH_FENTRY "fentry"
#define MECH_KPROBE "kprobe"
/* Not a separate choice for --mechanism: the kprobe attempt uses it
 * first; IODIG_DISABLE=kprobe.multi leaves only single kprobes. */
#define MECH_KPROBE_MULTI "kprobe.multi"

static const char *const funcs_mechs[] = { MECH_FENTRY, MECH_KPROBE };
#define FUNCS_NR_MECHS (sizeof(funcs_mechs) / sizeof(funcs_mechs[0]))

/* How the functions are hooked: the mechanism, and for kprobes whether
 * one multi-kprobe pair serves them all. */
enum funcs_how { HOW_FENTRY, HOW_KPROBE_MULTI, HOW_KPROBE };

struct funcs_state {
	FAMILY_BASE;
	struct funcs_bpf *skel;
	enum funcs_how how;
	uint32_t targ_kdev;
	/* slot -> row of func_table and the kernel name bound to it */
	size_t nr_slots;
	int row[FUNCS_MAX_FNS];
	const char *kname[FUNCS_MAX_FNS];
	bool attached[FUNCS_MAX_FNS];
	char absent[384];                   /* rows this kernel lacks */
	char failed[384];                   /* rows that would not attach */
	/* filled by collect */
	struct funcs_fn_counters sum[FUNCS_MAX_FNS];
	struct hist *h;                     /* nr_slots histograms */
	struct funcs_global g;
	struct funcs_overflow overflow;     /* claimed == 0: none */
};

static void list_add(char *buf, size_t size, const char *fmt, const char *a, const char *b)
{
	size_t used = strlen(buf);

	if (used + 4 >= size)
		return;
	if (used)
		used += (size_t)snprintf(buf + used, size - used, ", ");
	snprintf(buf + used, size - used, fmt, a, b);
}

/*
 * Binds rows to slots: the first candidate name the kernel has (BTF for
 * fentry, and an address in kallsyms for both).  Rows with none are listed
 * in s->absent and skipped.
 */
static void bind_functions(struct funcs_state *s, bool need_btf)
{
	const struct btf *vmlinux = need_btf ? family_btf(s) : NULL;
	const struct ksyms *ks = NULL;

	/* Without symbols no function binds: the caller says so. */
	family_ksyms(s, &ks, &(struct errbuf){ .msg = "" });
	s->nr_slots = 0;
	s->absent[0] = '\0';
	for (size_t r = 0; r < func_table_len; r++) {
		const char *pick = NULL;

		for (int c = 0; c < FUNCS_MAX_ALT && func_table[r].names[c]; c++) {
			const char *nm = func_table[r].names[c];
			const struct ksym *sym = ks ? ksyms__get_symbol(ks, nm) : NULL;

			if (pick || !sym)
				continue;
			if (need_btf && (!vmlinux ||
					 btf__find_by_name_kind(vmlinux, nm, BTF_KIND_FUNC) < 0))
				continue;
			pick = nm;
		}
		if (!pick || s->nr_slots >= FUNCS_MAX_FNS) {
			list_add(s->absent, sizeof(s->absent), "%s%s", func_table[r].role, "");
			continue;
		}
		s->row[s->nr_slots] = (int)r;
		s->kname[s->nr_slots] = pick;
		s->nr_slots++;
	}
}

static struct bpf_program *slot_prog(struct funcs_bpf *skel, const char *kind, size_t slot)
{
	char name[32];

	snprintf(name, sizeof(name), "iodig_%s_%zu", kind, slot);
	return bpf_object__find_program_by_name(skel->obj, name);
}

/*
 * libbpf-tools' fentry_can_attach(), done by hand: "r0 = 0; exit" as an
 * fentry program on @func, loaded and attached.  EPERM here is lockdown
 * (integrity mode refuses trampolines) or a missing capability.
 */
static int fentry_probe(const struct btf *vmlinux, const char *func, struct errbuf *why)
{
	const struct bpf_insn insns[] = {
		{ .code = 0xb7, .dst_reg = 0, .imm = 0 },   /* BPF_MOV64_IMM(r0, 0) */
		{ .code = 0x95 },                           /* BPF_EXIT */
	};
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = BPF_TRACE_FENTRY);
	int id, prog_fd = -1, link_fd = -1, ret = 0;

	if (!vmlinux)
		return err_set(why, ENOENT, "no kernel BTF in /sys/kernel/btf/vmlinux");
	id = btf__find_by_name_kind(vmlinux, func, BTF_KIND_FUNC);
	if (id < 0)
		return err_set(why, ENOENT, "%s not in the kernel's BTF", func);
	opts.attach_btf_id = (uint32_t)id;
	prog_fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "iodig_fe_probe", "GPL", insns, 2,
				&opts);
	if (prog_fd < 0) {
		ret = -errno;
		err_set(why, -ret, "%s loading fentry on %s", strerror(-ret), func);
		goto cleanup;
	}
	link_fd = bpf_link_create(prog_fd, 0, BPF_TRACE_FENTRY, NULL);
	if (link_fd < 0) {
		ret = -errno;
		err_set(why, -ret, "%s attaching fentry to %s", strerror(-ret), func);
	}
cleanup:
	if (link_fd >= 0)
		close(link_fd);
	if (prog_fd >= 0)
		close(prog_fd);
	return ret;
}

/* Does this kernel have kprobes at all?  The perf kprobe PMU (v4.17+) or
 * tracefs kprobe_events exist whenever CONFIG_KPROBES is on. */
static bool kprobes_built(void)
{
	return !access("/sys/bus/event_source/devices/kprobe/type", F_OK) ||
	       !access("/sys/kernel/tracing/kprobe_events", F_OK) ||
	       !access("/sys/kernel/debug/tracing/kprobe_events", F_OK);
}

static void fill_rodata(struct funcs_state *s)
{
	struct funcs_bpf *skel = s->skel;
	long page = sysconf(_SC_PAGESIZE);
	uint32_t shift = 0;

	while (page > 1 && (1L << shift) < page)
		shift++;
	skel->rodata->targ_dev = s->targ_kdev;
	skel->rodata->page_shift = shift ? shift : 12;
	for (size_t i = 0; i < s->nr_slots; i++) {
		const struct func_def *d = &func_table[s->row[i]];

		skel->rodata->funcs_spec[i].kind = d->kind;
		skel->rodata->funcs_spec[i].flags = d->flags;
		skel->rodata->funcs_spec[i].arg_a = d->arg_a;
		skel->rodata->funcs_spec[i].arg_b = d->arg_b;
	}
}

/* Sets the programs @how needs to load: the pair of each bound slot, or
 * the multi-kprobe pair. */
static void choose_programs(struct funcs_state *s)
{
	const char *pre = s->how == HOW_FENTRY ? "fe" : "kp";
	const char *post = s->how == HOW_FENTRY ? "fx" : "kr";
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, s->skel->obj)
		bpf_program__set_autoload(prog, false);
	if (s->how == HOW_KPROBE_MULTI) {
		bpf_program__set_autoload(s->skel->progs.iodig_kpm, true);
		bpf_program__set_autoload(s->skel->progs.iodig_krm, true);
		return;
	}
	for (size_t i = 0; i < s->nr_slots; i++) {
		struct bpf_program *a = slot_prog(s->skel, pre, i);
		struct bpf_program *b = slot_prog(s->skel, post, i);

		bpf_program__set_autoload(a, true);
		bpf_program__set_autoload(b, true);
		if (s->how == HOW_FENTRY) {
			bpf_program__set_attach_target(a, 0, s->kname[i]);
			bpf_program__set_attach_target(b, 0, s->kname[i]);
		}
	}
}

/* Opens, loads and attaches (funcs_attach()) the bound functions @how. */
static int load_as(struct funcs_state *s, enum funcs_how how, struct errbuf *why)
{
	int err = FAMILY_OPEN(s, funcs);

	if (err)
		return err;
	s->how = how;
	fill_rodata(s);
	/* one histogram row per function */
	bpf_map__set_max_entries(s->skel->maps.hists, (uint32_t)(s->nr_slots ? s->nr_slots : 1));
	choose_programs(s);
	return family_load(s, why);
}

/* Attaches each bound slot's pair; a function that will not attach is
 * listed in s->failed and skipped.  0 when at least one attached. */
static int attach_each(struct funcs_state *s, bool kprobe)
{
	size_t nr_attached = 0;
	int last = -ENOENT;

	for (size_t i = 0; i < s->nr_slots; i++) {
		struct bpf_program *a = slot_prog(s->skel, kprobe ? "kp" : "fe", i);
		struct bpf_program *b = slot_prog(s->skel, kprobe ? "kr" : "fx", i);
		struct bpf_link *la;
		int err;

		la = kprobe ? bpf_program__attach_kprobe(a, false, s->kname[i])
			    : bpf_program__attach(a);
		err = family_keep_pair(s, la, !la ? NULL : kprobe ?
				       bpf_program__attach_kprobe(b, true, s->kname[i]) :
				       bpf_program__attach(b));
		if (err) {
			last = err;
			list_add(s->failed, sizeof(s->failed), "%s (%s)", s->kname[i],
				 strerror(-last));
			continue;
		}
		s->attached[i] = true;
		nr_attached++;
	}
	return nr_attached ? 0 : last;
}

static int attach_multi(struct funcs_state *s)
{
	LIBBPF_OPTS(bpf_kprobe_multi_opts, opts);
	const char *syms[FUNCS_MAX_FNS];
	__u64 cookies[FUNCS_MAX_FNS];
	int err;

	for (size_t i = 0; i < s->nr_slots; i++) {
		syms[i] = s->kname[i];
		cookies[i] = i;
	}
	opts.syms = syms;
	opts.cookies = cookies;
	opts.cnt = s->nr_slots;
	err = family_keep_link(s, bpf_program__attach_kprobe_multi_opts(s->skel->progs.iodig_kpm,
									NULL, &opts));
	opts.retprobe = true;
	if (!err)
		err = family_keep_link(s, bpf_program__attach_kprobe_multi_opts(
					       s->skel->progs.iodig_krm, NULL, &opts));
	for (size_t i = 0; !err && i < s->nr_slots; i++)
		s->attached[i] = true;
	return err;
}

static int funcs_attach(void *state, struct errbuf *why)
{
	struct funcs_state *s = state;
	int err;

	memset(s->attached, 0, sizeof(s->attached));
	if (s->how == HOW_KPROBE_MULTI)
		return attach_multi(s);
	err = attach_each(s, s->how == HOW_KPROBE);
	if (err)
		return err_set(why, -err, "no function would take %s: %s",
			       s->how == HOW_KPROBE ? "a kprobe" : "fentry", s->failed);
	return 0;
}

static int try_kprobe(struct funcs_state *s, struct errbuf *why)
{
	int err;

	s->failed[0] = '\0';
	if (!kprobes_built())
		return err_set(why, EOPNOTSUPP,
			       "CONFIG_KPROBES off? no kprobe PMU nor kprobe_events");
	bind_functions(s, false);
	if (!s->nr_slots)
		return err_set(why, ENOENT, "none of the functions is in /proc/kallsyms");
	if (!mech_is_disabled(s->env, MECH_KPROBE_MULTI)) {
		struct errbuf multi = { .msg = "" };

		if (!load_as(s, HOW_KPROBE_MULTI, &multi)) {
			snprintf(s->mechanism, sizeof(s->mechanism), MECH_KPROBE_MULTI);
			return 0;
		}
	}
	err = load_as(s, HOW_KPROBE, why);
	if (err)
		return err;
	snprintf(s->mechanism, sizeof(s->mechanism), MECH_KPROBE);
	return 0;
}

/*
 * One function fentry cannot take fails the whole object's load, e.g.
 * release_pages() since its argument became a transparent union
 * (release_pages_arg, v6.6): "arg0 type UNION is unsupported".  Probe each
 * function alone first and drop those, listing them as failed.  Slot 0 has
 * been probed by the caller.
 */
static void drop_fentry_misfits(struct funcs_state *s)
{
	size_t k = 1;

	for (size_t i = 1; i < s->nr_slots; i++) {
		struct errbuf one = { .msg = "" };

		if (fentry_probe(family_btf(s), s->kname[i], &one)) {
			list_add(s->failed, sizeof(s->failed), "%s (%s)", s->kname[i], one.msg);
			continue;
		}
		s->row[k] = s->row[i];
		s->kname[k] = s->kname[i];
		k++;
	}
	s->nr_slots = k;
}

/* fentry_probe() on the first function of the table the BTF has. */
static int fentry_allowed(struct funcs_state *s, struct errbuf *why)
{
	const struct btf *vmlinux = family_btf(s);

	for (size_t r = 0; vmlinux && r < func_table_len; r++)
		for (int c = 0; c < FUNCS_MAX_ALT && func_table[r].names[c]; c++)
			if (btf__find_by_name_kind(vmlinux, func_table[r].names[c],
						   BTF_KIND_FUNC) > 0)
				return fentry_probe(vmlinux, func_table[r].names[c], why);
	return 0; /* bind_functions() says what is missing */
}

static int try_fentry(struct funcs_state *s, struct errbuf *why)
{
	int err;

	s->failed[0] = '\0';
	/* Where the kernel refuses trampolines (lockdown), say so before
	 * reading the symbol table. */
	err = fentry_allowed(s, why);
	if (err)
		return err;
	bind_functions(s, true);
	if (!s->nr_slots)
		return err_set(why, ENOENT, "none of the functions is in the kernel's BTF "
			       "and /proc/kallsyms");
	err = fentry_probe(family_btf(s), s->kname[0], why);
	if (err)
		return err;
	drop_fentry_misfits(s);
	err = load_as(s, HOW_FENTRY, why);
	if (err)
		return err;
	snprintf(s->mechanism, sizeof(s->mechanism), MECH_FENTRY);
	return 0;
}

static int funcs_load(void *state, size_t mech, struct errbuf *why)
{
	struct funcs_state *s = state;

	return !strcmp(funcs_mechs[mech], MECH_FENTRY) ? try_fentry(s, why)
						       : try_kprobe(s, why);
}

static void funcs_prepare(void *state)
{
	struct funcs_state *s = state;

	if (s->env->target_dev)
		s->targ_kdev = BLOCK_KDEV(major(s->env->target_dev), minor(s->env->target_dev));
}

static void funcs_note_status(void *state, int err, struct probe_status *st)
{
	const struct funcs_state *s = state;

	if (err) {
		/* Said once per run, in the family's status line. */
		if (!mech_is_disabled(s->env, "funcs"))
			mech_reason_add(st->reason, sizeof(st->reason), "estimated: sampling");
		return;
	}
	if (s->absent[0])
		mech_reason_add(st->reason, sizeof(st->reason), "not in this kernel: %s",
				s->absent);
	if (s->failed[0])
		mech_reason_add(st->reason, sizeof(st->reason), "would not attach: %s",
				s->failed);
}

static int funcs_collect(void *state, uint64_t workload_ios)
{
	struct funcs_state *s = state;
	size_t nr = s->nr_slots ? s->nr_slots : 1;
	int err;

	(void)workload_ios;
	err = map_sum_percpu(bpf_map__fd(s->skel->maps.counters), FUNCS_MAX_FNS,
			      sizeof(s->sum[0]) / sizeof(uint64_t), (uint64_t *)s->sum);
	if (!err)
		err = map_sum_counters(s->skel->maps.global, &s->g, sizeof(s->g));
	if (!err && bpf_map_lookup_elem(bpf_map__fd(s->skel->maps.first_overflow),
					&(uint32_t){ 0 }, &s->overflow))
		err = -errno;
	if (err)
		return err;
	free(s->h);
	s->h = calloc(nr, sizeof(*s->h));
	if (!s->h)
		return -ENOMEM;
	/* slot i's histogram is row i of the map */
	return map_read_hists(bpf_map__fd(s->skel->maps.hists), s->h, nr);
}

static void funcs_destroy(void *state)
{
	struct funcs_state *s = state;

	free(s->h);
}

/* Read-only views for funcs_report.c. */
size_t funcs_state_slots(const void *state)
{
	const struct funcs_state *s = state;

	return s ? s->nr_slots : 0;
}

bool funcs_state_slot(const void *state, size_t i, struct funcs_slot_view *v)
{
	const struct funcs_state *s = state;

	if (!s || i >= s->nr_slots || !s->h)
		return false;
	v->def = &func_table[s->row[i]];
	v->kname = s->kname[i];
	v->attached = s->attached[i];
	v->c = &s->sum[i];
	v->h = &s->h[i];
	return true;
}

void funcs_state_info(const void *state, struct funcs_info_view *v)
{
	const struct funcs_state *s = state;

	memset(v, 0, sizeof(*v));
	if (!s)
		return;
	v->mechanism = s->mechanism;
	v->absent = s->absent;
	v->failed = s->failed;
	v->wl = &s->wl;
	v->g = &s->g;
	v->overflow = s->overflow.claimed ? &s->overflow : NULL;
}

/* What the family lost, by cause (probes/family_render.h); depth: calls
 * nested past FUNCS_MAX_DEPTH, not timed.  Each function's "lost"
 * (entries whose exit was not seen) stays with the function; the base
 * adds recursion. */
static const struct family_drop_def funcs_drops[] = {
	FAMILY_DROP("thread_state", struct funcs_state, g.no_storage),
	FAMILY_DROP("depth", struct funcs_state, g.overflow),
};

/* Its per-function links are made once, at open, where those that would
 * not attach are listed: --probe-toggle leaves them (stays_attached). */
FAMILY_DEFINE(funcs, funcs,
	      "exact entry-to-exit time of tag, GUP, release, DAX and io_uring functions",
	      .stays_attached = true, FAMILY_DROPS(funcs_drops),
	      FAMILY_HOOKS(funcs, prepare, attach, note_status, destroy, figures));
