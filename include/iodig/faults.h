/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The faults probe family's maps, shared by bpf/faults.bpf.c and
 * user/probes/faults.c: the workload's user page faults and, where the
 * kernel has the fs_dax tracepoints, how DAX faults were served.
 * Fixed-width types only.
 */
#ifndef IODIG_FAULTS_H
#define IODIG_FAULTS_H

#include "iodig/tgid_filter.h"

/* fs_dax events counted (fs/dax.c, include/trace/events/fs_dax.h). */
enum faults_dax_event {
	DAX_EV_PMD_FAULT,             /* dax_pmd_fault_done: 2 MiB fault */
	DAX_EV_PTE_FAULT,             /* dax_pte_fault_done: 4 KiB fault */
	DAX_EV_PMD_LOAD_HOLE,         /* read of a 2 MiB hole: zero folio */
	DAX_EV_PMD_LOAD_HOLE_FALLBACK,/* ... which fell back to PTEs */
	DAX_EV_PTE_LOAD_HOLE,         /* dax_load_hole: read of a 4 KiB hole */
	DAX_EV_MKWRITE,               /* dax_insert_pfn_mkwrite: write to a
				       * page mapped read-only */
	DAX_EV_MKWRITE_NO_ENTRY,      /* ... whose entry was gone */
	DAX_EV_NR,
};

/* The fault handlers timed: the first two events. */
#define DAX_TIMED_NR 2

/* A fault handler's vm_fault_t, bucketed.  FALLBACK: a PMD fault that
 * could not map 2 MiB (alignment, size, a PTE table already there) and is
 * retried with PTEs; NOPAGE: the handler installed the mapping itself. */
enum faults_dax_result {
	DAX_RES_NOPAGE,
	DAX_RES_FALLBACK,
	DAX_RES_ERROR,                /* OOM, SIGBUS, SIGSEGV, HWPOISON */
	DAX_RES_OTHER,                /* anything else, or no result */
	DAX_RES_NR,
};

/* Per-CPU counters; each CPU writes only its own copy. */
struct faults_counters {
	iodig_u64 user[IODIG_MAX_TGIDS];  /* page_fault_user, by tgid slot */
	/* x86 error-code bits of those faults (X86_PF_*) */
	iodig_u64 write;
	iodig_u64 instr;
	iodig_u64 prot;                   /* page present: protection fault */
	iodig_u64 dax[DAX_EV_NR][DAX_RES_NR];
	/* Time from dax_{pmd,pte}_fault to its _done on the same thread, by
	 * handler (DAX_EV_PMD_FAULT, DAX_EV_PTE_FAULT) and result. */
	iodig_u64 dax_ns[DAX_TIMED_NR][DAX_RES_NR];
	iodig_u64 dax_timed[DAX_TIMED_NR][DAX_RES_NR];
};

/* Threads in a DAX fault handler at once, at most (the start times). */
#define FAULTS_MAX_IN_FAULT 4096

/* x86 page-fault error code bits (arch/x86/include/asm/trap_pf.h). */
#define FAULTS_PF_PROT  (1u << 0)
#define FAULTS_PF_WRITE (1u << 1)
#define FAULTS_PF_INSTR (1u << 4)

#endif /* IODIG_FAULTS_H */
