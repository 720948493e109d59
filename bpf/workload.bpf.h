/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload filter, one for every family that traces the workload's
 * threads (iodig/tgid_filter.h): iodig_tgids, the process ids whose
 * threads are traced, and iodig_supervisor_tid, iodig's supervisor
 * thread, which is not.  User space finds both by these names in any
 * family's object (user/probes/family.c) and fills them: the supervisor
 * before load, the runner's tgid once every family is loaded (the probe
 * set's opening threads are iodig's too) and process workers as they
 * fork, both through the mmapped .bss.
 */
#ifndef IODIG_WORKLOAD_BPF_H
#define IODIG_WORKLOAD_BPF_H

#include <bpf/bpf_helpers.h>

#include "iodig/tgid_filter.h"

__u32 iodig_tgids[IODIG_MAX_TGIDS];
const volatile __u32 iodig_supervisor_tid = 0;

/* A thread of a traced process, the supervisor included (a caller that
 * must leave it out compares its thread id). */
static __always_inline bool iodig_traced_tgid(__u32 tgid)
{
	return iodig_tgid_slot(iodig_tgids, tgid) >= 0;
}

/* The slot of the current task's process, -1 when it is not traced or
 * is the supervisor. */
static __always_inline int iodig_current_slot(void)
{
	return iodig_thread_slot(iodig_tgids, iodig_supervisor_tid,
				 bpf_get_current_pid_tgid());
}

#endif /* IODIG_WORKLOAD_BPF_H */
