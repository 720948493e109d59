// SPDX-License-Identifier: GPL-2.0
/*
 * faults: the workload's user page faults, and how DAX faults were served.
 *
 * Hooks, each in three variants that are thin SEC() wrappers over one
 * handler; user space enables one mechanism, and of the fs_dax events only
 * those this kernel has (it checks tracefs first):
 *   exceptions:page_fault_user (x86; fires for every user fault, before
 *     the mm handles it: one per hardware fault, fault-around included);
 *   fs_dax: dax_pmd_fault_done, dax_pte_fault_done (the result tells a
 *     mapped fault from a PMD fallback to PTEs), timed from
 *     dax_pmd_fault and dax_pte_fault on the same thread, dax_pmd_load_hole[_fallback],
 *     dax_load_hole, dax_insert_pfn_mkwrite[_no_entry].
 *   tp_btf / raw_tp  the arguments are scalars (address, error code,
 *                    result), read straight from the context: no pointer
 *                    is followed, so both variants share their code;
 *   tracepoint       the classic records.
 *
 * Cost: a tgid compare, then one per-CPU array increment or two.  Page
 * faults are not on the per-I/O path of the block engines; for mmap I/O
 * they are the I/O, and cost the same few instructions.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "iodig/faults.h"
#include "tp_progs.bpf.h"
#include "vm_fault.bpf.h"
#include "workload.bpf.h"
#include "percpu_maps.bpf.h"

char LICENSE[] SEC("license") = "GPL";

IODIG_PERCPU_SLOT(counters, struct faults_counters);

/* When each thread entered a DAX fault handler (dax_pmd_fault,
 * dax_pte_fault), to time it at the handler's _done event. */
struct dax_start {
	__u64 ns;
	__u32 ev;
	__u32 pad;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FAULTS_MAX_IN_FAULT);
	__type(key, __u32);
	__type(value, struct dax_start);
} dax_starts SEC(".maps");

/* Marks a tracepoint without a result argument. */
#define NO_RESULT 0x7fffffff

static __always_inline struct faults_counters *counters_of_workload(int *slot)
{
	__u32 zero = 0;

	*slot = iodig_current_slot();
	if (*slot < 0)
		return NULL;
	return bpf_map_lookup_elem(&counters, &zero);
}

static __always_inline int on_user_fault(__u64 error_code)
{
	struct faults_counters *c;
	int slot;

	c = counters_of_workload(&slot);
	if (!c || slot >= IODIG_MAX_TGIDS)
		return 0;
	c->user[slot]++;
	if (error_code & FAULTS_PF_WRITE)
		c->write++;
	if (error_code & FAULTS_PF_INSTR)
		c->instr++;
	if (error_code & FAULTS_PF_PROT)
		c->prot++;
	return 0;
}

static __always_inline __u32 dax_result(int result)
{
	if (result == NO_RESULT)
		return DAX_RES_OTHER;
	return iodig_vm_fault_class(result, DAX_RES_NOPAGE, DAX_RES_FALLBACK, DAX_RES_ERROR,
				    DAX_RES_OTHER);
}

static __always_inline int on_dax(__u32 ev, int result)
{
	struct faults_counters *c;
	int slot;

	__u32 res = dax_result(result), tid = (__u32)bpf_get_current_pid_tgid();
	struct dax_start *st;

	c = counters_of_workload(&slot);
	if (!c || ev >= DAX_EV_NR || res >= DAX_RES_NR)
		return 0;
	c->dax[ev][res]++;
	if (ev >= DAX_TIMED_NR)
		return 0;
	st = bpf_map_lookup_elem(&dax_starts, &tid);
	if (st && st->ev == ev) {
		c->dax_ns[ev][res] += bpf_ktime_get_ns() - st->ns;
		c->dax_timed[ev][res]++;
	}
	if (st)
		bpf_map_delete_elem(&dax_starts, &tid);
	return 0;
}

/* A DAX fault handler starts: dax_pmd_fault, dax_pte_fault. */
static __always_inline int on_dax_start(__u32 ev)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	struct dax_start st = { .ns = bpf_ktime_get_ns(), .ev = ev };

	if (iodig_current_slot() < 0)
		return 0;
	bpf_map_update_elem(&dax_starts, &tid, &st, BPF_ANY);
	return 0;
}

/* page_fault_user(address, regs, error_code) */
IODIG_TP_PROGS(page_fault_user, pf, on_user_fault(ctx[2]))

SEC("tracepoint/exceptions/page_fault_user")
int iodig_pf_tp(struct trace_event_raw_exceptions *ctx)
{
	return on_user_fault(ctx->error_code);
}

/* The result among the tracepoint's arguments @ctx, at @arg (-1: none). */
#define DAX_ARG_RESULT(ctx, arg) \
	((arg) >= 0 ? (int)(ctx)[(arg) >= 0 ? (arg) : 0] : NO_RESULT)

/*
 * One fs_dax event's three variants.  @arg is the position of its result
 * among the tracepoint's arguments (-1: none), @rec its classic record.
 */
#define DAX_PROGS(ev, event, short, arg, rec)                                   \
IODIG_TP_PROGS(event, short, on_dax(ev, DAX_ARG_RESULT(ctx, arg)))              \
SEC("tracepoint/fs_dax/" #event)                                                \
int iodig_##short##_tp(struct rec *ctx)                                         \
{                                                                               \
	return on_dax(ev, DAX_TP_RESULT_##rec(ctx));                            \
}

/* A timed handler's start event's three variants. */
#define DAX_START_PROGS(ev, event, short, rec)                                  \
IODIG_TP_PROGS(event, short, on_dax_start(ev))                                  \
SEC("tracepoint/fs_dax/" #event)                                                \
int iodig_##short##_tp(struct rec *ctx)                                         \
{                                                                               \
	return on_dax_start(ev);                                                \
}

/* dax_pmd_fault(inode, vmf, max_pgoff, result), dax_pte_fault(inode, vmf,
 * result): the handlers' entries */
DAX_START_PROGS(DAX_EV_PMD_FAULT, dax_pmd_fault, dpmds, trace_event_raw_dax_pmd_fault_class)
DAX_START_PROGS(DAX_EV_PTE_FAULT, dax_pte_fault, dptes, trace_event_raw_dax_pte_fault_class)

/* The classic records' result field, where the class has one. */
#define DAX_TP_RESULT_trace_event_raw_dax_pmd_fault_class(ctx) ((ctx)->result)
#define DAX_TP_RESULT_trace_event_raw_dax_pte_fault_class(ctx) ((ctx)->result)
#define DAX_TP_RESULT_trace_event_raw_dax_pmd_load_hole_class(ctx) NO_RESULT

/* dax_pmd_fault_done(inode, vmf, max_pgoff, result) */
DAX_PROGS(DAX_EV_PMD_FAULT, dax_pmd_fault_done, dpmd, 3,
	  trace_event_raw_dax_pmd_fault_class)
/* dax_pte_fault_done(inode, vmf, result) */
DAX_PROGS(DAX_EV_PTE_FAULT, dax_pte_fault_done, dpte, 2,
	  trace_event_raw_dax_pte_fault_class)
/* dax_pmd_load_hole(inode, vmf, zero_folio, radix_entry): no result */
DAX_PROGS(DAX_EV_PMD_LOAD_HOLE, dax_pmd_load_hole, dpmdh, -1,
	  trace_event_raw_dax_pmd_load_hole_class)
DAX_PROGS(DAX_EV_PMD_LOAD_HOLE_FALLBACK, dax_pmd_load_hole_fallback, dpmhf, -1,
	  trace_event_raw_dax_pmd_load_hole_class)
/* dax_load_hole(inode, vmf, result) */
DAX_PROGS(DAX_EV_PTE_LOAD_HOLE, dax_load_hole, dpteh, 2,
	  trace_event_raw_dax_pte_fault_class)
DAX_PROGS(DAX_EV_MKWRITE, dax_insert_pfn_mkwrite, dmkw, 2,
	  trace_event_raw_dax_pte_fault_class)
DAX_PROGS(DAX_EV_MKWRITE_NO_ENTRY, dax_insert_pfn_mkwrite_no_entry, dmkwn, 2,
	  trace_event_raw_dax_pte_fault_class)
