/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The family base: what every probe family does alike, done once.  A
 * family file describes itself in a struct probe_family (probes/probe.h):
 * its mechanisms, its state, a load() that opens and sets up its skeleton
 * for one mechanism, its collect() and its rendering.  The base does the
 * rest, for every family the same way:
 *   open      the state allocated, the mechanisms tried best first
 *             (mech_select), the status filled; nothing left on failure;
 *   filter    the workload filter (bpf/workload.bpf.h) found by name in
 *             the object and filled: iodig's supervisor thread and own
 *             process before load, process workers as they fork;
 *   load      the skeleton loaded and attached (by its SEC names, or by
 *             the family's attach()), with the links a family makes;
 *   toggle    detached and attached again for --probe-toggle;
 *   workload  the workload's figures kept (wl, have_wl), and what must be
 *             read the moment it ends read then (read_at_end);
 *   collect   the programs' recursion misses (missed), then the family's;
 *   drops     the "drops" line and object: the family's causes, then
 *             "recursion";
 *   costs     the loaded object, for the probe set's bpf_stats figures;
 *   destroy   links, skeleton, state.
 * A family's state starts with FAMILY_BASE, so the family reads the base's
 * members as its own (s->mechanism, s->wl, s->missed) and the base reads
 * them through struct family_base.
 */
#ifndef IODIG_PROBES_FAMILY_H
#define IODIG_PROBES_FAMILY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <bpf/libbpf.h>

#include "base/errbuf.h"
#include "probes/probe.h"

struct btf;
struct ksyms;
struct json_object;

/* Links a family made itself (bpf_program__attach_*()), which the base
 * destroys with the skeleton and on --probe-toggle's detach. */
struct family_links {
	struct bpf_link **v;
	size_t n, cap;
};

#define FAMILY_BASE_MEMBERS						\
	const struct probe_family *fam;					\
	const struct probe_env *env;   /* only during open */		\
	struct probe_cache *cache;     /* env's, else own_cache */	\
	struct probe_cache *own_cache; /* when env has none */		\
	struct bpf_object_open_opts open_opts;				\
	char mechanism[32];            /* what worked; load() may name	\
					* it more exactly (kprobe.multi) */ \
	size_t mech;                   /* its index in fam->mechs */	\
	void *skel_mem;                /* the skeleton, struct <name>_bpf */ \
	struct bpf_object_skeleton *skeleton; /* libbpf's view of it */	\
	struct bpf_object *obj;        /* its object, NULL until adopted */ \
	struct family_links links;					\
	volatile uint32_t *filter_tgids; /* its iodig_tgids, NULL = none */ \
	bool detached;                 /* by --probe-toggle */		\
	bool frozen;                   /* read_at_end() has read */	\
	bool have_wl;                  /* set_workload() was called */	\
	struct probe_workload wl;      /* its figures; wl.ios at least	\
					* collect()'s count */		\
	uint64_t missed;               /* recursion misses, by collect() */

struct family_base {
	FAMILY_BASE_MEMBERS
};

/* The first member of every family's state: the base's members, reachable
 * by name and, for the base, as one struct family_base. */
#define FAMILY_BASE							\
	union {								\
		struct family_base base;				\
		struct { FAMILY_BASE_MEMBERS };				\
	}

/* probe_family.state_size of a state @type, checking that it starts with
 * FAMILY_BASE (a negative array size fails the build otherwise). */
#define FAMILY_STATE_SIZE(type)						\
	(sizeof(type) + 0 * sizeof(char[offsetof(type, base) == 0 ? 1 : -1]))

/* probe_family.mechs and nr_mechs from an array of names. */
#define FAMILY_MECHS(array) .mechs = (array), .nr_mechs = sizeof(array) / sizeof((array)[0])

/* The members of probe_family every family fills: its @name and one-line
 * @summary, and from the names its file gives them <@p>_mechs, struct
 * <@p>_state, <@p>_load, <@p>_collect, <@p>_render_text and
 * <@p>_render_json.  The optional callbacks follow in FAMILY_HOOKS. */
#define FAMILY_COMMON(p, family_name, family_summary)			\
	.name = (family_name),						\
	.summary = (family_summary),					\
	FAMILY_MECHS(p##_mechs),					\
	.state_size = FAMILY_STATE_SIZE(struct p##_state),		\
	.load = p##_load,						\
	.collect = p##_collect,						\
	.render_text = p##_render_text,					\
	.render_json = p##_render_json

/* A family's whole declaration, `const struct probe_family <@name>_probe`:
 * FAMILY_COMMON(@p, "<@name>", @family_summary), then what the family has
 * of its own (flags, FAMILY_DROPS, FAMILY_HOOKS ...).  The family's name
 * is its probe_list.h name, so the two cannot disagree. */
#define FAMILY_DEFINE(name, p, family_summary, ...)			\
	const struct probe_family name##_probe = {			\
		FAMILY_COMMON(p, #name, family_summary), __VA_ARGS__	\
	}

/* The optional callbacks of probe_family a family has, from the names its
 * file gives them: FAMILY_HOOKS(samp, prepare, destroy) is
 * .prepare = samp_prepare, .destroy = samp_destroy.  One to nine. */
#define FAMILY_HOOKS(p, ...)						\
	FAMILY_HOOKS_PICK_(__VA_ARGS__, FAMILY_HOOKS_9_, FAMILY_HOOKS_8_, \
			   FAMILY_HOOKS_7_, FAMILY_HOOKS_6_, FAMILY_HOOKS_5_, \
			   FAMILY_HOOKS_4_, FAMILY_HOOKS_3_, FAMILY_HOOKS_2_, \
			   FAMILY_HOOKS_1_)(p, __VA_ARGS__)
#define FAMILY_HOOKS_PICK_(_1, _2, _3, _4, _5, _6, _7, _8, _9, n, ...) n
#define FAMILY_HOOKS_1_(p, h) .h = p##_##h
#define FAMILY_HOOKS_2_(p, h, ...) .h = p##_##h, FAMILY_HOOKS_1_(p, __VA_ARGS__)
#define FAMILY_HOOKS_3_(p, h, ...) .h = p##_##h, FAMILY_HOOKS_2_(p, __VA_ARGS__)
#define FAMILY_HOOKS_4_(p, h, ...) .h = p##_##h, FAMILY_HOOKS_3_(p, __VA_ARGS__)
#define FAMILY_HOOKS_5_(p, h, ...) .h = p##_##h, FAMILY_HOOKS_4_(p, __VA_ARGS__)
#define FAMILY_HOOKS_6_(p, h, ...) .h = p##_##h, FAMILY_HOOKS_5_(p, __VA_ARGS__)
#define FAMILY_HOOKS_7_(p, h, ...) .h = p##_##h, FAMILY_HOOKS_6_(p, __VA_ARGS__)
#define FAMILY_HOOKS_8_(p, h, ...) .h = p##_##h, FAMILY_HOOKS_7_(p, __VA_ARGS__)
#define FAMILY_HOOKS_9_(p, h, ...) .h = p##_##h, FAMILY_HOOKS_8_(p, __VA_ARGS__)

/* probe_family's classic tracepoints: @category/<each of @array>. */
#define FAMILY_CLASSIC(category, array)					\
	.classic_category = (category), .classic_events = (array),	\
	.nr_classic_events = sizeof(array) / sizeof((array)[0])

/* A cause of lost events and the uint64_t counter of the family's state
 * that counts it (probes/family_render.h lists the shared causes). */
struct family_drop_def {
	const char *cause;
	size_t offset;
};

#define FAMILY_DROP(cause, type, member) { (cause), offsetof(type, member) }
#define FAMILY_DROPS(array) .drops = (array), .nr_drops = sizeof(array) / sizeof((array)[0])

/* --- the base's side of struct probe_family, called by the probe set --- */

/* Allocates @fam's state and tries its mechanisms; fills @st.  On failure
 * nothing stays loaded, *@state is NULL and the -errno is returned. */
int family_open(const struct probe_family *fam, const struct probe_env *env, void **state,
		struct probe_status *st);
/* Adds @tgid to the workload filter; 0 for a family without one. */
int family_track_tgid(void *state, pid_t tgid);
/* --probe-toggle: detaches (@on false) or attaches again; -EOPNOTSUPP for
 * a family that stays attached. */
int family_set_attached(void *state, bool on);
void family_set_workload(void *state, const struct probe_workload *wl);
int family_collect(void *state, uint64_t workload_ios);
/* The loaded object, NULL when there is none. */
struct bpf_object *family_object(const void *state);
/* Accepts NULL. */
void family_destroy(void *state);

/* --- for the families --- */

/* The options a family opens its skeleton with (mech_open_opts()). */
struct bpf_object_open_opts *family_open_opts(void *state);

/* The kernel's BTF (probes/probe_cache.h), parsed once per run; NULL
 * when there is none. */
const struct btf *family_btf(void *state);

/* The kernel's symbols (probes/ksyms.h), read once per run.  -errno with
 * the reason in @err when they cannot be read. */
int family_ksyms(void *state, const struct ksyms **out, struct errbuf *err);

/* Where the kernel image's code begins, known without waiting for all of
 * kallsyms (probe_cache_text_start()); 0 when unknown. */
uint64_t family_text_start(void *state);

/*
 * Hands the skeleton a load() just opened (struct <name>_bpf *, NULL when
 * its open failed, errno set) to the base, which sets up the workload
 * filter and from then on loads, attaches and destroys it.  0 or -errno.
 */
int family_adopt_skeleton(void *state, void *skel, struct bpf_object_skeleton *skeleton);

/* Opens skeleton <@prefix>_bpf into s->skel with the base's options and
 * adopts it: the first step of most load()s.  s->skel stays valid while
 * the base holds it: after a failed family_load() the next attempt opens
 * another. */
#define FAMILY_OPEN(s, prefix)						\
	((s)->skel = prefix##_bpf__open_opts(family_open_opts(s)),	\
	 family_adopt_skeleton((s), (s)->skel, (s)->skel ? (s)->skel->skeleton : NULL))

/* The last step of most load()s: loads the adopted skeleton and attaches
 * it (fam->attach, else its SEC names); on failure destroys it and every
 * link, leaving nothing.  0 or -errno. */
int family_load(void *state, struct errbuf *why);

/* Attaches the skeleton's programs by their SEC names: the default
 * attach, and part of a family's own. */
int family_attach_skeleton(void *state);

/* Keeps @link (NULL: the attach failed, errno set) to be destroyed with
 * the skeleton or by a detach.  0 or -errno. */
int family_keep_link(void *state, struct bpf_link *link);

/* Keeps an entry and an exit link together, or neither: when either is
 * NULL (its attach failed, errno set) the other is destroyed and -errno
 * returned. */
int family_keep_pair(void *state, struct bpf_link *entry, struct bpf_link *exit);

/* The default of --probe-toggle, for a family's set_attached() that does
 * more: destroys the kept links and the skeleton's (@on false), or
 * attaches again as family_load() did. */
int family_relink(void *state, bool on);

/* The drops (probes/family_render.h) of a family: its fam->drops, then
 * "recursion" (missed). */
void family_drops_text(const void *state, FILE *out);
struct json_object *family_drops_json(const void *state);

#endif /* IODIG_PROBES_FAMILY_H */
