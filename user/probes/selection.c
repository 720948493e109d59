// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "probes/selection.h"

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

/*
 * libbpf's print hook is process-wide and has no user pointer, so what an
 * attempt printed can only be kept in thread-local storage: each thread
 * that loads programs sees its own messages.
 */
static _Thread_local char first_warning[192];
/* The first CO-RE relocation that found no match in the kernel's BTF, as
 * "struct request.io_start_time_ns": the field an unknown kernel renamed. */
static _Thread_local char core_failure[128];
/* The verifier's last words before its statistics: why it refused. */
static _Thread_local char verifier_said[160];

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
static void note_core_failure(const char *log)
{
	static const char marker[] = "failed to resolve CO-RE relocation ";
	const char *p, *end;

	if (core_failure[0])
		return;
	p = strstr(log, marker);
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
}

/* From the load log libbpf prints, the last line before the verifier's
 * closing "processed N insns" statistics. */
static void note_verifier(const char *log)
{
	const char *end, *line = NULL;

	if (verifier_said[0])
		return;
	end = strstr(log, "-- END PROG LOAD LOG --");
	for (const char *p = log; end && p < end; p += strcspn(p, "\n") + 1) {
		size_t n = strcspn(p, "\n");

		if (!n || !strncmp(p, "processed ", 10) || !strncmp(p, "verification time", 17) ||
		    !strncmp(p, "stack depth", 11) || !strncmp(p, "-- ", 3))
			continue;
		line = p;
	}
	if (line)
		snprintf(verifier_said, sizeof(verifier_said), "%.*s", (int)strcspn(line, "\n"),
			 line);
}

/* A program's load log, as libbpf prints it at WARN: what it says of why. */
static void note_load_log(const char *fmt, va_list ap)
{
	char *log = NULL;
	va_list copy;

	if (!strstr(fmt, "LOAD LOG"))
		return;
	va_copy(copy, ap);
	if (vasprintf(&log, fmt, copy) < 0)
		log = NULL;
	va_end(copy);
	if (!log)
		return;
	note_core_failure(log);
	note_verifier(log);
	free(log);
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
		note_load_log(fmt, ap);
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

void mech_reason_add(char *buf, size_t size, const char *fmt, ...)
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

libbpf_print_fn_t mech_quiet_begin(void)
{
	return libbpf_set_print(quiet_print);
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
			mech_reason_add(st->reason, sizeof(st->reason),
					"%s: skipped (--mechanism=%s)", mechs[i], force);
			continue;
		}
		if (mech_is_disabled(env, mechs[i])) {
			mech_reason_add(st->reason, sizeof(st->reason),
					"%s: disabled by IODIG_DISABLE", mechs[i]);
			continue;
		}
		first_warning[0] = '\0';
		core_failure[0] = '\0';
		verifier_said[0] = '\0';
		err = try_fn(ctx, mechs[i], &why);
		if (!err) {
			snprintf(st->mechanism, sizeof(st->mechanism), "%s", mechs[i]);
			st->state = i == 0 ? PROBE_ACTIVE : PROBE_DEGRADED;
			break;
		}
		last_err = err < 0 ? err : -err;
		if (core_failure[0] && !why.msg[0])
			mech_reason_add(st->reason, sizeof(st->reason),
					"%s: CO-RE relocation failed: no %s in %s", mechs[i],
					core_failure, env && env->btf_path ?
					"the IODIG_BTF file" : "the kernel's BTF");
		else
			mech_reason_add(st->reason, sizeof(st->reason), "%s: %s (%s%s%s)",
					mechs[i], mech_errno_meaning(err),
					why.msg[0] ? why.msg :
					first_warning[0] ? first_warning : strerror(-last_err),
					verifier_said[0] ? "; verifier: " : "", verifier_said);
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
