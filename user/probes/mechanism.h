/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Choosing how a probe family hooks the kernel, shared by every family:
 * mechanisms are tried best first by really loading and attaching (never by
 * kernel version), each failure is turned into a sentence for the user, and
 * IODIG_DISABLE can take any family or mechanism away so tests reach the
 * fallbacks.  Also what every family needs around its maps: the readers,
 * sizes from the job, one way to report the events it lost, and the JSON
 * number.
 */
#ifndef IODIG_PROBES_MECHANISM_H
#define IODIG_PROBES_MECHANISM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <stdio.h>

#include "base/errbuf.h"
#include "probes/probe.h"

struct bpf_object_open_opts;
struct btf;
struct json_object;

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
 * tracefs, where classic tracepoints are found.  mech_tracefs_ensure()
 * mounts it at /sys/kernel/tracing when neither that nor the debugfs copy
 * is there, and sets *mounted so the caller can undo it with
 * mech_tracefs_release() (which does nothing when @mounted is false).
 */
int mech_tracefs_ensure(bool *mounted, struct errbuf *err);
void mech_tracefs_release(bool mounted);
/* 0 when tracefs lists @category/@event; -ENODEV when tracefs is not
 * mounted; -ENOENT when this kernel has no such tracepoint. */
int mech_tracepoint_exists(const char *category, const char *event);

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

/*
 * The options every family opens its skeleton with: env->btf_path
 * (IODIG_BTF) as the kernel's BTF for CO-RE relocations.  libbpf 1.1 uses
 * that file only for CO-RE: tp_btf attach targets and the verifier's view
 * of BTF-typed pointers still come from the running kernel.  Returns @opts.
 */
struct bpf_object_open_opts *mech_open_opts(const struct probe_env *env,
					    struct bpf_object_open_opts *opts);

/* The kernel's BTF as CO-RE sees it (env->btf_path, else the running
 * kernel's), for families that read tracepoint prototypes from it; NULL
 * with errno set when there is none.  Free with btf__free(). */
struct btf *mech_btf_load(const struct probe_env *env);

/*
 * max_entries of a map whose need grows with the job: @want rounded up to
 * a power of two and kept within [@floor, @ceiling] (both powers of two),
 * so memory stays bounded whatever the job; @dflt when @want is 0 (the
 * job is unknown, as for `iodig probe`).
 */
uint32_t mech_map_size(uint64_t want, uint32_t floor, uint32_t ceiling, uint32_t dflt);

/*
 * At most how many io_uring io threads the job makes at once: an SQPOLL
 * thread per worker, and an io-wq worker per punted request in flight,
 * at most 4 per CPU per ring (io-wq's bound for regular I/O).  0 when the
 * job is unknown.
 */
uint64_t mech_io_threads(const struct probe_env *env);

/*
 * Sums a per-CPU array whose values are @words u64s over all CPUs, entries
 * [0, @nr) into @out[nr * words]; batched where the kernel allows it.
 */
int mech_sum_percpu(int map_fd, unsigned int nr, unsigned int words,
		    uint64_t *out);

/* A counter as a JSON integer: json-c's are signed 64-bit, so a value
 * above INT64_MAX is written as INT64_MAX. */
struct json_object *json_u64(uint64_t v);

/*
 * What every family's probe_family hooks do the same way.
 *
 * mech_track_tgid() is a track_tgid() body: appends @tgid to a skeleton's
 * .bss tgid slots (iodig/tgid_filter.h; NULL when the family has no
 * skeleton).  .bss is mmapped: the programs see the new slot on their next
 * event.  -EINVAL without slots or for tgid <= 0, -ENOSPC when all slots
 * are taken.
 */
int mech_track_tgid(volatile uint32_t *slots, pid_t tgid);

/* A set_workload() body: keeps a copy of @wl in @dst and sets *@have (when
 * @have is not NULL); false, leaving both alone, when @wl is NULL. */
bool mech_keep_workload(struct probe_workload *dst, bool *have,
			const struct probe_workload *wl);

/* Defines @fn, a family's set_attached() hook for a state of @type whose
 * ->skel is a <@prefix>_bpf skeleton attached by <@prefix>_bpf__attach():
 * the skeleton's links are destroyed and made again (both idempotent). */
#define MECH_DEFINE_SET_ATTACHED(fn, type, prefix)			\
	static int fn(void *state, bool on)				\
	{								\
		type *s_ = state;					\
		int e_;							\
									\
		if (!s_ || !s_->skel)					\
			return 0;					\
		if (!on) {						\
			prefix##_bpf__detach(s_->skel);			\
			return 0;					\
		}							\
		e_ = prefix##_bpf__attach(s_->skel);			\
		return e_ < 0 ? e_ : -e_;				\
	}

/* Defines @fn, a family's object() hook for the probe set's BPF run-time
 * accounting: the bpf_object of the skeleton a state of @type keeps in
 * ->skel, NULL before it is loaded. */
#define MECH_DEFINE_OBJECT(fn, type)					\
	static struct bpf_object *fn(const void *state)			\
	{								\
		const type *s_ = state;					\
									\
		return s_ && s_->skel ? s_->skel->obj : NULL;		\
	}

/* recursion_misses of a loaded program: events the kernel skipped because
 * the program was already running on that CPU (0 when not reported). */
uint64_t mech_prog_misses(int prog_fd);

/*
 * Events a family lost, by cause.  Every family reports them the same
 * way: JSON "drops": {"<cause>": N, ...} with each of its causes (zeros
 * included, so the keys do not come and go), and the text line
 * "    drops: <cause>=N, ..." listing the non-zero ones, only when there
 * are some.  Causes shared by families:
 *   recursion     program runs the kernel skipped (recursion_misses)
 *   stack         a kernel stack could not be taken or stored
 *   agg_full      the aggregation hash was full: a new key not counted
 *   threads_full  the io thread hash was full: a thread not counted
 *   thread_state  a thread's record could not be had: its slot was
 *                 taken by another traced thread, or task storage refused
 */
struct mech_drop {
	const char *cause;
	uint64_t n;
};

void mech_drops_text(FILE *out, const struct mech_drop *drops, size_t nr);
struct json_object *mech_drops_json(const struct mech_drop *drops, size_t nr);

#endif /* IODIG_PROBES_MECHANISM_H */
