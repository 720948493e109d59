// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <json-c/json.h>

#include "iodig/tgid_filter.h"
#include "probes/mechanism.h"

#define TRACEFS_DIR      "/sys/kernel/tracing"
/* libbpf prefers this path when it exists (use_debugfs() in libbpf.c). */
#define DEBUGFS_TRACING  "/sys/kernel/debug/tracing"

static bool list_has(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p = list;

	while (p && *p) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		while (n && (*p == ' ' || *p == '\t')) {
			p++;
			n--;
		}
		while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			n--;
		if (n == len && !strncmp(p, name, len))
			return true;
		p = end ? end + 1 : NULL;
	}
	return false;
}

bool mech_is_disabled(const struct probe_env *env, const char *name)
{
	const char *list = env ? env->disabled : NULL;

	if (!list)
		list = getenv("IODIG_DISABLE");
	return list && list_has(list, name);
}

const char *mech_errno_meaning(int err)
{
	static const char *const libbpf_generic = "libbpf could not prepare the program";

	if (err < 0)
		err = -err;
	switch (err) {
	case EPERM:
		return "denied (lockdown or capabilities)";
	case EACCES:
		return "rejected by the verifier or denied";
	case ENOENT:
		return "tracepoint/function not in this kernel";
	case EINVAL:
	case ESRCH:
		return "BTF type or field missing";
	case ENODEV:
		return "tracefs not mounted";
	case EOPNOTSUPP:
	case 524: /* the kernel's internal ENOTSUPP leaks out of bpf() */
		return "not supported by this kernel";
	case ENOMEM:
		return "out of memory (locked memory or map size)";
	case E2BIG:
		return "program too large for this kernel's verifier";
	case EBUSY:
		return "hook busy";
	default:
		/* libbpf's own codes (LIBBPF_ERRNO__*) start at 4000. */
		return err >= 4000 ? libbpf_generic : strerror(err);
	}
}

static const char *tracefs_root(void)
{
	if (access(DEBUGFS_TRACING "/events", F_OK) == 0)
		return DEBUGFS_TRACING;
	if (access(TRACEFS_DIR "/events", F_OK) == 0)
		return TRACEFS_DIR;
	return NULL;
}

/*
 * Mounts tracefs in a mount namespace of iodig's own when it can: nobody
 * else sees the mount, it goes away with the process even after SIGKILL,
 * and two iodig runs cannot unmount it under each other.  unshare() needs
 * a single-threaded process (probes open before any worker starts); when
 * it fails the mount goes to the host's namespace as before.
 */
static void private_mount_namespace(void)
{
	if (unshare(CLONE_NEWNS))
		return;
	/* Keep our mounts from propagating back to the host.  Source and
	 * type are ignored for a propagation change; "none" rather than NULL
	 * keeps valgrind's syscall checks quiet. */
	mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL);
}

int mech_tracefs_ensure(bool *mounted, struct errbuf *err)
{
	*mounted = false;
	if (tracefs_root())
		return 0;
	private_mount_namespace();
	if (mount("tracefs", TRACEFS_DIR, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
		  NULL))
		return err_set(err, errno, "cannot mount tracefs at %s: %s",
			       TRACEFS_DIR, strerror(errno));
	*mounted = true;
	return 0;
}

void mech_tracefs_release(bool mounted)
{
	/* EBUSY means someone started using it meanwhile: leave it. */
	if (mounted)
		umount2(TRACEFS_DIR, 0);
}

int mech_tracepoint_exists(const char *category, const char *event)
{
	const char *root = tracefs_root();
	char path[512];

	if (!root)
		return -ENODEV;
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", root, category, event);
	return access(path, F_OK) ? -ENOENT : 0;
}

/*
 * libbpf's print hook is process-wide and has no user pointer, so what an
 * attempt printed can only be kept in thread-local storage: each thread
 * that loads programs sees its own messages.
 */
static _Thread_local char first_warning[192];
/* The first CO-RE relocation that found no match in the kernel's BTF, as
 * "struct request.io_start_time_ns": the field an unknown kernel renamed. */
static _Thread_local char core_failure[128];

/* "struct task_struct___old.state" -> "struct task_struct.state": the
 * ___flavor is iodig's name for an older layout, not the kernel's. */
static void strip_flavor(char *spec)
{
	char *flavor = strstr(spec, "___");
	char *dot = strchr(spec, '.');

	if (flavor && (!dot || flavor < dot))
		memmove(flavor, dot ? dot : flavor + strlen(flavor),
			strlen(dot ? dot : flavor + strlen(flavor)) + 1);
}

/*
 * libbpf poisons an instruction whose CO-RE relocation found nothing and
 * the verifier then rejects the program; libbpf rewrites that spot of the
 * verifier log to "failed to resolve CO-RE relocation <byte_off> [id]
 * struct request.io_start_time_ns (0:24 @ offset 208)".  Keeps the
 * "struct request.io_start_time_ns" part.
 */
static void note_core_failure(const char *fmt, va_list ap)
{
	static const char marker[] = "failed to resolve CO-RE relocation ";
	const char *p, *end;
	char *text = NULL;
	va_list copy;

	if (core_failure[0] || !strstr(fmt, "LOAD LOG"))
		return;
	va_copy(copy, ap);
	if (vasprintf(&text, fmt, copy) < 0)
		text = NULL;
	va_end(copy);
	p = text ? strstr(text, marker) : NULL;
	if (p) {
		p += sizeof(marker) - 1;
		/* skip "<byte_off> [id] " to the type and field */
		end = strstr(p, "] ");
		if (end && end - p < 48)
			p = end + 2;
		end = p + strcspn(p, "(\n");
		while (end > p && end[-1] == ' ')
			end--;
		snprintf(core_failure, sizeof(core_failure), "%.*s", (int)(end - p), p);
		strip_flavor(core_failure);
	}
	free(text);
}

static int quiet_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	const char *debug = getenv("IODIG_DEBUG");
	char line[sizeof(first_warning) + 16];
	char *p;

	if (debug && *debug && strcmp(debug, "0")) {
		va_list copy;

		va_copy(copy, ap);
		vfprintf(stderr, fmt, copy);
		va_end(copy);
	}
	if (level == LIBBPF_WARN)
		note_core_failure(fmt, ap);
	/* The first warning names the failing program and why; later ones
	 * are the verifier dump and "failed to load object". */
	if (level != LIBBPF_WARN || first_warning[0])
		return 0;
	vsnprintf(line, sizeof(line), fmt, ap);
	p = line;
	if (!strncmp(p, "libbpf: ", 8))
		p += 8;
	p[strcspn(p, "\n")] = '\0';
	snprintf(first_warning, sizeof(first_warning), "%.*s",
		 (int)sizeof(first_warning) - 1, p);
	return 0;
}

static void reason_add(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void reason_add(char *buf, size_t size, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 3 >= size)
		return;
	if (used) {
		memcpy(buf + used, "; ", 3);
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(buf + used, size - used, fmt, ap);
	va_end(ap);
}

static bool mech_offered(const char *const *mechs, size_t nr, const char *name)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(mechs[i], name))
			return true;
	return false;
}

int mech_select(const struct probe_env *env, const char *family,
		const char *const *mechs, size_t nr_mechs, mech_try_fn try_fn,
		void *ctx, struct probe_status *st)
{
	const char *force = env ? env->force_mechanism : NULL;
	libbpf_print_fn_t old_print;
	int last_err = -ENODEV;

	memset(st, 0, sizeof(*st));
	snprintf(st->mechanism, sizeof(st->mechanism), "none");
	st->state = PROBE_MISSING;
	if (mech_is_disabled(env, family)) {
		snprintf(st->reason, sizeof(st->reason), "disabled by IODIG_DISABLE");
		return -ENODEV;
	}
	if (force && !mech_offered(mechs, nr_mechs, force))
		force = NULL;   /* --mechanism names another family's kind */

	old_print = libbpf_set_print(quiet_print);
	for (size_t i = 0; i < nr_mechs; i++) {
		struct errbuf why = { .msg = "" };
		int err;

		if (force && strcmp(force, mechs[i])) {
			reason_add(st->reason, sizeof(st->reason),
				   "%s: skipped (--mechanism=%s)", mechs[i], force);
			continue;
		}
		if (mech_is_disabled(env, mechs[i])) {
			reason_add(st->reason, sizeof(st->reason),
				   "%s: disabled by IODIG_DISABLE", mechs[i]);
			continue;
		}
		first_warning[0] = '\0';
		core_failure[0] = '\0';
		err = try_fn(ctx, mechs[i], &why);
		if (!err) {
			snprintf(st->mechanism, sizeof(st->mechanism), "%s", mechs[i]);
			st->state = i == 0 ? PROBE_ACTIVE : PROBE_DEGRADED;
			break;
		}
		last_err = err < 0 ? err : -err;
		if (core_failure[0] && !why.msg[0])
			reason_add(st->reason, sizeof(st->reason),
				   "%s: CO-RE relocation failed: no %s in %s", mechs[i],
				   core_failure, env && env->btf_path ?
				   "the IODIG_BTF file" : "the kernel's BTF");
		else
			reason_add(st->reason, sizeof(st->reason), "%s: %s (%s)", mechs[i],
				   mech_errno_meaning(err),
				   why.msg[0] ? why.msg :
				   first_warning[0] ? first_warning : strerror(-last_err));
	}
	libbpf_set_print(old_print);
	return st->state == PROBE_MISSING ? last_err : 0;
}

struct bpf_object_open_opts *mech_open_opts(const struct probe_env *env,
					    struct bpf_object_open_opts *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->sz = sizeof(*opts);
	opts->btf_custom_path = env ? env->btf_path : NULL;
	return opts;
}

struct btf *mech_btf_load(const struct probe_env *env)
{
	struct btf *btf;

	if (env && env->btf_path)
		btf = btf__parse(env->btf_path, NULL);
	else
		btf = btf__load_vmlinux_btf();
	/* libbpf 1.x returns NULL and sets errno; keep it so. */
	return libbpf_get_error(btf) ? NULL : btf;
}

uint32_t mech_map_size(uint64_t want, uint32_t floor, uint32_t ceiling, uint32_t dflt)
{
	uint32_t n = floor;

	if (!want)
		return dflt;
	while (n < want && n < ceiling)
		n <<= 1;
	return n;
}

uint64_t mech_io_threads(const struct probe_env *env)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t per_ring = 4 * (uint64_t)(cpus > 0 ? cpus : 1);
	uint64_t iowq;

	if (!env || !env->threads)
		return 0;
	iowq = env->inflight < env->threads * per_ring ? env->inflight
							: env->threads * per_ring;
	return env->threads + iowq;
}

static int sum_one_by_one(int fd, unsigned int nr, unsigned int words, int ncpu,
			  uint64_t *vals, uint64_t *out)
{
	for (unsigned int key = 0; key < nr; key++) {
		if (bpf_map_lookup_elem(fd, &key, vals))
			return -errno;
		for (int c = 0; c < ncpu; c++)
			for (unsigned int w = 0; w < words; w++)
				out[(size_t)key * words + w] += vals[(size_t)c * words + w];
	}
	return 0;
}

int mech_sum_percpu(int map_fd, unsigned int nr, unsigned int words, uint64_t *out)
{
	enum { CHUNK = 256 };
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	int ncpu = libbpf_num_possible_cpus();
	uint32_t *keys = NULL, next = 0;
	uint64_t *vals = NULL;
	unsigned int seen = 0;
	bool first = true;
	int ret = 0;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	memset(out, 0, (size_t)nr * words * sizeof(*out));
	keys = calloc(CHUNK, sizeof(*keys));
	/* Per-CPU values come back as one value_size slot per possible CPU. */
	vals = calloc((size_t)CHUNK * ncpu * words, sizeof(*vals));
	if (!keys || !vals) {
		ret = -ENOMEM;
		goto cleanup;
	}
	while (seen < nr) {
		uint32_t count = CHUNK;
		int err = bpf_map_lookup_batch(map_fd, first ? NULL : &next, &next,
					       keys, vals, &count, &opts);

		if (err && errno != ENOENT) {
			/* Kernels before 5.6 have no batch ops for arrays. */
			if (first && (errno == EINVAL || errno == ENOTSUP ||
				      errno == EOPNOTSUPP)) {
				ret = sum_one_by_one(map_fd, nr, words, ncpu, vals, out);
				goto cleanup;
			}
			ret = -errno;
			goto cleanup;
		}
		for (uint32_t i = 0; i < count; i++) {
			if (keys[i] >= nr)
				continue;
			for (int c = 0; c < ncpu; c++)
				for (unsigned int w = 0; w < words; w++)
					out[(size_t)keys[i] * words + w] +=
						vals[((size_t)i * ncpu + c) * words + w];
		}
		seen += count;
		first = false;
		if (err || !count)
			break;   /* ENOENT: no entries after the last one */
	}
cleanup:
	free(keys);
	free(vals);
	return ret;
}

struct json_object *json_u64(uint64_t v)
{
	return json_object_new_int64(v > INT64_MAX ? INT64_MAX : (int64_t)v);
}

int mech_track_tgid(volatile uint32_t *slots, pid_t tgid)
{
	if (!slots || tgid <= 0)
		return -EINVAL;
	return iodig_tgid_add(slots, (uint32_t)tgid) ? -ENOSPC : 0;
}

bool mech_keep_workload(struct probe_workload *dst, bool *have,
			const struct probe_workload *wl)
{
	if (!wl)
		return false;
	*dst = *wl;
	if (have)
		*have = true;
	return true;
}

uint64_t mech_prog_misses(int prog_fd)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (prog_fd < 0 || bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return 0;
	return info.recursion_misses;
}

void mech_drops_text(FILE *out, const struct mech_drop *drops, size_t nr)
{
	bool any = false;

	for (size_t i = 0; i < nr; i++) {
		if (!drops[i].n)
			continue;
		fprintf(out, "%s%s=%llu", any ? ", " : "    drops: ", drops[i].cause,
			(unsigned long long)drops[i].n);
		any = true;
	}
	if (any)
		fputc('\n', out);
}

struct json_object *mech_drops_json(const struct mech_drop *drops, size_t nr)
{
	struct json_object *o = json_object_new_object();

	for (size_t i = 0; i < nr; i++)
		json_object_object_add(o, drops[i].cause, json_u64(drops[i].n));
	return o;
}
