/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workload filter of the probe families that trace the workload's
 * processes (sched, syscalls, sampling, faults, ...): the process ids
 * whose threads are traced.  iodig's own process (thread workers, io-wq
 * workers) takes slot 0; process workers forked later are appended by
 * track_tgid().
 *
 * The slots live in each skeleton's .bss, which libbpf memory-maps, so
 * user space appends a tgid with a plain store and the programs see it on
 * their next event: no map update, no hash lookup on the hot path.
 */
#ifndef IODIG_TGID_FILTER_H
#define IODIG_TGID_FILTER_H

#include "iodig/hist.h"   /* iodig_u32, __always_inline for both sides */

/* Enough for the numjobs=20 process workers of jobs/gup-libaio.fio; an
 * untraced event pays one compare per filled slot, so keep it small.  The
 * runner warns when a worker process finds no slot (thread=1 avoids it). */
#define IODIG_MAX_TGIDS 32

/* The filter's globals in every family's object that has one
 * (bpf/workload.bpf.h), by the names user space finds them by. */
#define IODIG_TGIDS_NAME      "iodig_tgids"
#define IODIG_SUPERVISOR_NAME "iodig_supervisor_tid"

/*
 * Slot of @tgid in @slots, or -1.  Slots are filled in order and never
 * cleared, so the first empty one ends the list: a system with one traced
 * process pays two compares per event of any other process.
 */
static __always_inline int iodig_tgid_slot(const volatile iodig_u32 *slots,
					   iodig_u32 tgid)
{
	for (int i = 0; i < IODIG_MAX_TGIDS; i++) {
		iodig_u32 t = slots[i];

		if (!t)
			return -1;
		if (t == tgid)
			return i;
	}
	return -1;
}

/*
 * Slot of the task @pid_tgid (bpf_get_current_pid_tgid()'s layout: tgid
 * above, thread id below) or -1, which it also is for iodig's supervisor
 * thread @supervisor (0 = none).  The supervisor shares its process with
 * the thread workers but runs no I/O: its sleeps between ticks (nearly
 * the whole run off the CPU, in do_sigtimedwait) and its report building
 * are not the workload's.
 */
static __always_inline int iodig_thread_slot(const volatile iodig_u32 *slots,
					     iodig_u32 supervisor, iodig_u64 pid_tgid)
{
	if (supervisor && (iodig_u32)pid_tgid == supervisor)
		return -1;
	return iodig_tgid_slot(slots, (iodig_u32)(pid_tgid >> 32));
}

/* User side: appends @tgid (idempotent); 0 or -1 when all slots are taken. */
static inline int iodig_tgid_add(volatile iodig_u32 *slots, iodig_u32 tgid)
{
	for (int i = 0; i < IODIG_MAX_TGIDS; i++) {
		if (slots[i] == tgid)
			return 0;
		if (!slots[i]) {
			slots[i] = tgid;
			return 0;
		}
	}
	return -1;
}

#endif /* IODIG_TGID_FILTER_H */
