/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Choosing how a probe family hooks the kernel: mechanisms are tried best
 * first by really loading and attaching (never by kernel version), each
 * failure is turned into a sentence for the user, and IODIG_DISABLE can
 * take any family or mechanism away so tests reach the fallbacks.
 */
#ifndef IODIG_PROBES_SELECTION_H
#define IODIG_PROBES_SELECTION_H

#include <stdbool.h>
#include <stddef.h>

#include <bpf/libbpf.h>

#include "base/errbuf.h"
#include "probes/probe.h"

struct bpf_object_open_opts;

#define MECH_TP_BTF     "tp_btf"
#define MECH_RAW_TP     "raw_tp"
#define MECH_TRACEPOINT "tracepoint"

/*
 * True when @name (a family such as "block" or a mechanism such as
 * "tp_btf") is in the comma list env->disabled, or in $IODIG_DISABLE when
 * env->disabled is NULL.
 */
bool mech_is_disabled(const struct probe_env *env, const char *name);

/* What a load/attach errno (positive or negative) means, e.g. ENOENT ->
 * "tracepoint/function not in this kernel". */
const char *mech_errno_meaning(int err);

/*
 * One attempt of one mechanism: load and attach everything with @mechanism
 * or leave nothing loaded and return -errno.  @why may be filled with a
 * detail better than libbpf's own message.
 */
typedef int (*mech_try_fn)(void *ctx, const char *mechanism, struct errbuf *why);

/*
 * Tries @mechs (best first) for @family until one works; skips those
 * disabled and, when env->force_mechanism names one of @mechs, all others.
 * Fills @st: ACTIVE when the best one worked, DEGRADED with the reason
 * the better ones failed, MISSING when none did (returns its -errno then).
 * libbpf's messages are kept off the terminal unless IODIG_DEBUG is set;
 * the first warning of each failed attempt goes into the reason.
 */
int mech_select(const struct probe_env *env, const char *family,
		const char *const *mechs, size_t nr_mechs, mech_try_fn try_fn,
		void *ctx, struct probe_status *st);

/* Installs mech_select()'s libbpf print hook and returns the one before,
 * for the caller to put back once every family has opened: families that
 * open side by side must not put back each other's hook. */
libbpf_print_fn_t mech_quiet_begin(void);

/* Appends a clause to a status reason, "; " between clauses; what does
 * not fit is cut. */
void mech_reason_add(char *reason, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The options every family opens its skeleton with: env->btf_path
 * (IODIG_BTF) as the kernel's BTF for CO-RE relocations.  libbpf 1.1 uses
 * that file only for CO-RE: tp_btf attach targets and the verifier's view
 * of BTF-typed pointers still come from the running kernel.  Returns @opts.
 */
struct bpf_object_open_opts *mech_open_opts(const struct probe_env *env,
					    struct bpf_object_open_opts *opts);

#endif /* IODIG_PROBES_SELECTION_H */
