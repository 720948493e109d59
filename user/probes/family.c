// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "iodig/tgid_filter.h"
#include "base/mem.h"
#include "probes/family.h"
#include "probes/family_render.h"
#include "probes/selection.h"
#include "probes/probe_cache.h"
#include "probes/tracefs.h"

/* What a libbpf call returned, as -errno. */
static int neg(int err)
{
	return err < 0 ? err : -err;
}

struct bpf_object_open_opts *family_open_opts(void *state)
{
	struct family_base *b = state;

	return mech_open_opts(b->env, &b->open_opts);
}

const struct btf *family_btf(void *state)
{
	struct family_base *b = state;

	return probe_cache_btf(b->cache, b->env ? b->env->btf_path : NULL);
}

int family_ksyms(void *state, const struct ksyms **out, struct errbuf *err)
{
	struct family_base *b = state;

	return probe_cache_ksyms(b->cache, out, err);
}

uint64_t family_text_start(void *state)
{
	struct family_base *b = state;

	return probe_cache_text_start(b->cache);
}

/*
 * Where global @name of the object lives, @size bytes: in the image of
 * its section's map (.bss or .rodata), which the skeleton maps over the
 * kernel's map at load at the same address.  NULL when it has none.
 */
static void *find_global(struct bpf_object *obj, const char *name, size_t size)
{
	static const char *const sections[] = { ".bss", ".rodata" };
	const struct btf *btf = bpf_object__btf(obj);

	for (size_t i = 0; btf && i < sizeof(sections) / sizeof(sections[0]); i++) {
		struct bpf_map *map = bpf_object__find_map_by_name(obj, sections[i]);
		int id = btf__find_by_name_kind(btf, sections[i], BTF_KIND_DATASEC);
		const struct btf_var_secinfo *v;
		const struct btf_type *sec;
		size_t image_size = 0;
		char *image;

		if (!map || id <= 0)
			continue;
		image = (char *)bpf_map__initial_value(map, &image_size);
		sec = btf__type_by_id(btf, id);
		v = btf_var_secinfos(sec);
		for (int k = 0; image && k < btf_vlen(sec); k++, v++) {
			const struct btf_type *var = btf__type_by_id(btf, v->type);

			if (var && !strcmp(btf__name_by_offset(btf, var->name_off), name) &&
			    v->size == size && v->offset + size <= image_size)
				return image + v->offset;
		}
	}
	return NULL;
}

/* The workload filter of bpf/workload.bpf.h, when the object has one. */
static void filter_setup(struct family_base *b)
{
	volatile uint32_t *supervisor = find_global(b->obj, IODIG_SUPERVISOR_NAME,
						    sizeof(uint32_t));

	if (supervisor)
		*supervisor = (uint32_t)b->env->supervisor_tid;
	b->filter_tgids = find_global(b->obj, IODIG_TGIDS_NAME,
				      IODIG_MAX_TGIDS * sizeof(uint32_t));
	/* 0: only the process workers track_tgid() adds */
	if (b->filter_tgids && b->env->runner_tgid > 0)
		iodig_tgid_add(b->filter_tgids, (uint32_t)b->env->runner_tgid);
}

int family_adopt_skeleton(void *state, void *skel, struct bpf_object_skeleton *skeleton)
{
	struct family_base *b = state;

	if (!skel || !skeleton)
		return errno ? -errno : -ENOMEM;
	b->skel_mem = skel;
	b->skeleton = skeleton;
	b->obj = *skeleton->obj;
	filter_setup(b);
	return 0;
}

int family_keep_link(void *state, struct bpf_link *link)
{
	struct family_base *b = state;
	struct family_links *l = &b->links;

	if (!link)
		return errno ? -errno : -EINVAL;
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 16;
		struct bpf_link **v = realloc(l->v, cap * sizeof(*v));

		if (!v) {
			bpf_link__destroy(link);
			return -ENOMEM;
		}
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = link;
	return 0;
}

int family_keep_pair(void *state, struct bpf_link *entry, struct bpf_link *exit)
{
	int err = errno ? -errno : -EINVAL;

	if (!entry || !exit) {
		bpf_link__destroy(entry);
		bpf_link__destroy(exit);
		return err;
	}
	err = family_keep_link(state, entry);
	if (err) {
		bpf_link__destroy(exit);
		return err;
	}
	return family_keep_link(state, exit);
}

static void drop_links(struct family_base *b)
{
	for (size_t i = 0; i < b->links.n; i++)
		bpf_link__destroy(b->links.v[i]);
	b->links.n = 0;
}

/* What the skeleton's generated <name>_bpf__destroy() does, and the
 * links first. */
static void unload(struct family_base *b)
{
	drop_links(b);
	if (b->skeleton)
		bpf_object__destroy_skeleton(b->skeleton);
	FREE_AND_NULL(b->skel_mem);
	b->skeleton = NULL;
	b->obj = NULL;
	b->filter_tgids = NULL;
}

int family_attach_skeleton(void *state)
{
	struct family_base *b = state;

	return neg(bpf_object__attach_skeleton(b->skeleton));
}

static int attach(struct family_base *b, struct errbuf *why)
{
	return b->fam->attach ? b->fam->attach(b, why) : family_attach_skeleton(b);
}

int family_load(void *state, struct errbuf *why)
{
	struct family_base *b = state;
	int err;

	if (!b->skeleton)
		return -EINVAL;
	err = neg(bpf_object__load_skeleton(b->skeleton));
	if (!err)
		err = attach(b, why);
	if (err)
		unload(b);
	return err;
}

/* One attempt of mech_select(). */
static int try_mechanism(void *ctx, const char *mechanism, struct errbuf *why)
{
	struct family_base *b = ctx;
	const struct probe_family *fam = b->fam;

	if (!strcmp(mechanism, MECH_TRACEPOINT) && fam->nr_classic_events) {
		int err = tracefs_events_required(fam->classic_category, fam->classic_events,
						  fam->nr_classic_events, why);

		if (err)
			return err;
	}
	for (b->mech = 0; b->mech < fam->nr_mechs; b->mech++)
		if (!strcmp(fam->mechs[b->mech], mechanism))
			return fam->load(b, b->mech, why);
	return err_set(why, EINVAL, "unknown mechanism");
}

static int out_of_memory(struct probe_status *st)
{
	memset(st, 0, sizeof(*st));
	st->state = PROBE_MISSING;
	snprintf(st->mechanism, sizeof(st->mechanism), "none");
	snprintf(st->reason, sizeof(st->reason), "out of memory");
	return -ENOMEM;
}

int family_open(const struct probe_family *fam, const struct probe_env *env, void **state,
		struct probe_status *st)
{
	struct family_base *b;
	int err;

	*state = NULL;
	b = calloc(1, fam->state_size);
	if (!b)
		return out_of_memory(st);
	b->fam = fam;
	b->env = env;
	b->cache = env->cache;
	if (!b->cache) {
		err = probe_cache_new(&b->own_cache);
		if (err) {
			free(b);
			return out_of_memory(st);
		}
		b->cache = b->own_cache;
	}
	if (fam->prepare)
		fam->prepare(b);
	err = mech_select(env, fam->name, fam->mechs, fam->nr_mechs, try_mechanism, b, st);
	if (!err) {
		if (!b->mechanism[0])
			snprintf(b->mechanism, sizeof(b->mechanism), "%s", st->mechanism);
		snprintf(st->mechanism, sizeof(st->mechanism), "%s", b->mechanism);
	}
	if (fam->note_status)
		fam->note_status(b, err, st);
	b->env = NULL;
	if (err) {
		family_destroy(b);
		return err;
	}
	*state = b;
	return 0;
}

int family_track_tgid(void *state, pid_t tgid)
{
	struct family_base *b = state;

	if (!b || !b->obj || !b->filter_tgids)
		return 0;
	if (tgid <= 0)
		return -EINVAL;
	/* .bss is mmapped: the programs see the new slot on their next event. */
	return iodig_tgid_add(b->filter_tgids, (uint32_t)tgid) ? -ENOSPC : 0;
}

int family_relink(void *state, bool on)
{
	struct family_base *b = state;
	struct errbuf why = { .msg = "" };

	if (on)
		return attach(b, &why);
	drop_links(b);
	bpf_object__detach_skeleton(b->skeleton);
	return 0;
}

int family_set_attached(void *state, bool on)
{
	struct family_base *b = state;
	int err;

	if (!b || !b->obj)
		return 0;
	if (b->fam->stays_attached)
		return -EOPNOTSUPP;
	if (on == !b->detached)
		return 0;
	err = b->fam->set_attached ? b->fam->set_attached(b, on) : family_relink(b, on);
	b->detached = !on;
	return err;
}

void family_set_workload(void *state, const struct probe_workload *wl)
{
	struct family_base *b = state;

	if (!b || !wl)
		return;
	b->wl = *wl;
	b->have_wl = true;
	if (b->obj && b->fam->read_at_end)
		b->frozen = !b->fam->read_at_end(b);
}

/* recursion_misses of the loaded programs: events the kernel skipped
 * because the program was already running on that CPU. */
static uint64_t recursion_misses(struct bpf_object *obj)
{
	struct bpf_program *prog;
	uint64_t n = 0;

	bpf_object__for_each_program(prog, obj) {
		struct bpf_prog_info info;
		uint32_t len = sizeof(info);
		int fd = bpf_program__fd(prog);

		memset(&info, 0, sizeof(info));
		if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &info, &len))
			n += info.recursion_misses;
	}
	return n;
}

int family_collect(void *state, uint64_t workload_ios)
{
	struct family_base *b = state;
	int err;

	if (!b || (!b->obj && !b->fam->no_bpf))
		return -EINVAL;
	if (!b->have_wl)
		b->wl.ios = workload_ios;
	if (b->fam->read_at_end && !b->frozen && (err = b->fam->read_at_end(b)))
		return err;
	b->missed = b->obj ? recursion_misses(b->obj) : 0;
	return b->fam->collect(b, workload_ios);
}

struct bpf_object *family_object(const void *state)
{
	const struct family_base *b = state;

	return b ? b->obj : NULL;
}

void family_destroy(void *state)
{
	struct family_base *b = state;

	if (!b)
		return;
	unload(b);
	free(b->links.v);
	if (b->fam->destroy)
		b->fam->destroy(b);
	probe_cache_free(b->own_cache);
	free(b);
}

/* The family's causes and "recursion", at most this many. */
#define MAX_DROPS 8

static size_t drops_of(const struct family_base *b, struct family_drop *d)
{
	size_t n = 0;

	for (size_t i = 0; i < b->fam->nr_drops && n < MAX_DROPS - 1; i++, n++) {
		d[n].cause = b->fam->drops[i].cause;
		memcpy(&d[n].n, (const char *)b + b->fam->drops[i].offset, sizeof(d[n].n));
	}
	d[n++] = (struct family_drop){ "recursion", b->missed };
	return n;
}

void family_drops_text(const void *state, FILE *out)
{
	struct family_drop d[MAX_DROPS];

	drops_text(out, d, drops_of(state, d));
}

struct json_object *family_drops_json(const void *state)
{
	struct family_drop d[MAX_DROPS];

	return drops_json(d, drops_of(state, d));
}
