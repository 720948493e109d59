/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every family's probe_family hooks do the same way.
 */
#ifndef IODIG_PROBES_FAMILY_H
#define IODIG_PROBES_FAMILY_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "probes/probe.h"

/*
 * A track_tgid() body: appends @tgid to a skeleton's .bss tgid slots
 * (iodig/tgid_filter.h; NULL when the family has no skeleton).  .bss is
 * mmapped: the programs see the new slot on their next event.  -EINVAL
 * without slots or for tgid <= 0, -ENOSPC when all slots are taken.
 */
int family_track_tgid_in(volatile uint32_t *slots, pid_t tgid);

/* A set_workload() body: keeps a copy of @wl in @dst and sets *@have (when
 * @have is not NULL); false, leaving both alone, when @wl is NULL. */
bool family_keep_workload(struct probe_workload *dst, bool *have,
			  const struct probe_workload *wl);

/* Defines @fn, a family's set_attached() hook for a state of @type whose
 * ->skel is a <@prefix>_bpf skeleton attached by <@prefix>_bpf__attach():
 * the skeleton's links are destroyed and made again (both idempotent). */
#define FAMILY_DEFINE_SET_ATTACHED(fn, type, prefix)			\
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
#define FAMILY_DEFINE_OBJECT(fn, type)					\
	static struct bpf_object *fn(const void *state)			\
	{								\
		const type *s_ = state;					\
									\
		return s_ && s_->skel ? s_->skel->obj : NULL;		\
	}

/* recursion_misses of a loaded program: events the kernel skipped because
 * the program was already running on that CPU (0 when not reported). */
uint64_t family_prog_misses(int prog_fd);

#endif /* IODIG_PROBES_FAMILY_H */
