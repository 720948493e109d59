// SPDX-License-Identifier: GPL-2.0
/*
 * Test-only program (tests/bpf/test_cmdprio_ioprio.c): the priority
 * classes of the requests the block layer issues to one disk, read at
 * block_rq_issue (tp_btf), so a test sees what the kernel got, not what
 * iodig meant to send.  Read from the request's first bio: the kernel's
 * req_get_ioprio() does the same since struct request lost its own ioprio
 * field (6.18 has none), and before that the field was copied from it.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

char LICENSE[] SEC("license") = "GPL";

const volatile __u32 targ_major = 0;
const volatile __u32 targ_minor = 0;

/* requests by class (ioprio >> 13: none, rt, be, idle), and those whose
 * whole value equals want_ioprio */
__u64 by_class[4] = {};
__u64 exact = 0;
const volatile __u32 want_ioprio = 0;

SEC("tp_btf/block_rq_issue")
int BPF_PROG(rq_ioprio_issue, struct request *rq)
{
	struct gendisk *disk = BPF_CORE_READ(rq, q, disk);
	__u16 prio = BPF_CORE_READ(rq, bio, bi_ioprio);

	if (!disk || BPF_CORE_READ(disk, major) != (int)targ_major ||
	    BPF_CORE_READ(disk, first_minor) != (int)targ_minor)
		return 0;
	__sync_fetch_and_add(&by_class[(prio >> 13) & 3], 1);
	if (prio == want_ioprio)
		__sync_fetch_and_add(&exact, 1);
	return 0;
}
