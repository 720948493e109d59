// SPDX-License-Identifier: GPL-2.0
/*
 * Bench-only programs (tests/bench/overhead.sh): programs that return at
 * once, attached beside iodig's on the hooks its default families use and
 * by the same mechanisms.  bpf_stats charges every program run its own
 * clock reads and dispatch; an empty program's run_time_ns / run_cnt over
 * the same run, on the same events, is that share as the machine paid it
 * then, so the bench subtracts it run for run instead of a figure taken
 * at another time on another hook.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

char LICENSE[] SEC("license") = "GPL";

/* sched's mechanism (tp_btf) on sched's hook */
SEC("tp_btf/sched_switch")
int floor_sw_btf(void *ctx)
{
	return 0;
}

/* biolatency's mechanism (tp_btf) on the block completion */
SEC("tp_btf/block_rq_complete")
int floor_rq_btf(void *ctx)
{
	return 0;
}

/* block's, faults', iouring's and bpftrace's mechanism (the classic
 * tracepoint) on the block completion */
SEC("tracepoint/block/block_rq_complete")
int floor_rq_tp(void *ctx)
{
	return 0;
}
