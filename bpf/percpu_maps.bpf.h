/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-CPU arrays, as every family keeps its counters, histograms and
 * scratch space: each CPU updates its own copy without atomics, and user
 * space sums the copies when it reads them.
 */
#ifndef IODIG_PERCPU_MAPS_BPF_H
#define IODIG_PERCPU_MAPS_BPF_H

#include <bpf/bpf_helpers.h>

#include "iodig/hist.h"

/* @entries values of @value_type per CPU, keyed by index. */
#define IODIG_PERCPU_ARRAY(name, entries, value_type)			\
	struct {							\
		__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);		\
		__uint(max_entries, (entries));				\
		__type(key, __u32);					\
		__type(value, value_type);				\
	} name SEC(".maps")

/* One slot per CPU (key 0): a family's counters, or room for a value
 * larger than the 512-byte BPF stack. */
#define IODIG_PERCPU_SLOT(name, value_type) IODIG_PERCPU_ARRAY(name, 1, value_type)

/* @rows histograms (struct iodig_hist_row) per CPU, keyed by row. */
#define IODIG_PERCPU_HISTS(name, rows) IODIG_PERCPU_ARRAY(name, rows, struct iodig_hist_row)

/* Adds @w to the slot of value @v in row @row of @hists. */
static __always_inline void iodig_hist_add(void *hists, __u32 row, __u64 v, __u64 w)
{
	struct iodig_hist_row *h = bpf_map_lookup_elem(hists, &row);
	__u64 slot = iodig_hist_slot(v);

	/* The compiler knows the slot is in range and drops the check; an
	 * older verifier (Linux 6.1) cannot follow the arithmetic that bounds
	 * it and refuses the access, so the check must stay. */
	barrier_var(slot);
	if (h && slot < IODIG_HIST_SLOTS)
		h->slot[slot] += w;
}

#endif /* IODIG_PERCPU_MAPS_BPF_H */
