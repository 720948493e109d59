// SPDX-License-Identifier: GPL-2.0
/*
 * sampling: where the workload's threads spend CPU time in the kernel,
 * split into inside-submission, inside-reaping, other kernel and user.
 *
 * Hook: a perf_event program on a cpu-clock software event per CPU (the
 * hrtimer-driven event works in VMs without a PMU).  User space opens the
 * events and attaches with bpf_program__attach_perf_event().  Being an
 * hrtimer, not an NMI, it cannot sample code that runs with interrupts
 * off: that time lands where they are turned back on, so
 * _raw_spin_unlock_irq{,restore} carry it as their own.
 *
 * Classification needs no state shared with the syscalls family: the
 * system call a thread is in is the number its entry code saved in the
 * user registers at the top of its kernel stack (syscall_get_nr() on
 * bpf_task_pt_regs()), with the call's arguments beside it, so
 * io_uring_enter splits into submit or wait exactly as the syscalls family
 * splits it, even for calls that began before attach.  While a thread
 * handles an exception from user mode the slot holds the x86 error code,
 * which never equals one of the numbers below (user faults set bit 2 and
 * never bit 8); interrupt entry stores the vector's negation or a vector
 * below 0x80, neither of which is one of them either.
 *
 * io-wq and SQPOLL threads copy their creator's registers at creation
 * (copy_thread()), so they would look like they are inside the
 * io_uring_enter that spawned them: PF_IO_WORKER threads are always
 * "other kernel".
 *
 * Cost: one sample per CPU per ~10 ms (SAMPLING_FREQ_HZ, 99) of CPU time;
 * each kernel sample unwinds its stack (bpf_get_stack) into a per-CPU scratch
 * key and counts it in a hash keyed by the whole stack (see
 * iodig/sampling.h for why not bpf_get_stackid).  Not on the per-I/O path.
 */
#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "iodig/sampling.h"
#include "iodig/syscalls.h"
#include "workload.bpf.h"
#include "percpu_maps.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* Syscall number of each enum sc_call, -1 when absent; set before load. */
const volatile __s64 sc_nr[SC_CALL_NR] = { -1, -1, -1, -1, -1, -1, -1, -1 };

/* PF_IO_WORKER (include/linux/sched.h, v5.12+). */
#define IODIG_PF_IO_WORKER 0x00000010

/* The key is larger than the 512-byte BPF stack: built in place here. */
IODIG_PERCPU_SLOT(scratch, struct sampling_key);

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, SAMPLING_MAX_AGG);
	__type(key, struct sampling_key);
	__type(value, __u64);
} agg SEC(".maps");

IODIG_PERCPU_SLOT(counters, struct sampling_counters);

/*
 * user_mode() of the sampled registers.  The perf_event context only
 * allows full 8-byte loads of its registers, hence the volatile read
 * (clang would narrow "cs & 3" to a 2-byte load the verifier rejects).
 *
 * x86 reads cs through the UAPI layout (arch/x86/include/uapi/asm/
 * ptrace.h), a fixed ABI, without CO-RE: the kernel's own pt_regs.cs
 * became a u16 in a union with FRED (v6.9), and on older kernels, where
 * it is an unsigned long, CO-RE then rejects the 8-byte load ("unexpected
 * mem size", seen on 6.1 in the QEMU lab).
 */
#if defined(__TARGET_ARCH_x86)
struct iodig_uapi_pt_regs {
	unsigned long r15, r14, r13, r12, bp, bx, r11, r10, r9, r8;
	unsigned long ax, cx, dx, si, di, orig_ax, ip, cs, flags, sp, ss;
};
#define REGS_USER_MODE(regs) \
	((*(volatile unsigned long *)&((const struct iodig_uapi_pt_regs *)(regs))->cs & 3) == 3)
#define REGS_NR(regs)        ((regs)->orig_ax)
#elif defined(__TARGET_ARCH_arm64)
#define REGS_USER_MODE(regs) ((*(volatile __u64 *)&(regs)->pstate & 0xf) == 0)
#define REGS_NR(regs)        ((regs)->syscallno)
#else
#error "sampling.bpf.c: no user-mode test for this architecture"
#endif

static __always_inline __u32 class_of_call(const struct pt_regs *regs)
{
	long nr = REGS_NR(regs);

	if (nr == sc_nr[SC_CALL_IO_SUBMIT] || nr == sc_nr[SC_CALL_PREAD64] ||
	    nr == sc_nr[SC_CALL_PWRITE64] || nr == sc_nr[SC_CALL_PREADV2] ||
	    nr == sc_nr[SC_CALL_PWRITEV2])
		return SAMPLE_SUBMIT;
	if (nr == sc_nr[SC_CALL_IO_GETEVENTS] || nr == sc_nr[SC_CALL_IO_PGETEVENTS])
		return SAMPLE_REAP;
	if (nr == sc_nr[SC_CALL_URING_ENTER]) {
		/* Same split as the syscalls family: any SQE to submit makes
		 * it a submitting call, else GETEVENTS makes it a reaping one. */
		if (PT_REGS_PARM2_SYSCALL(regs))
			return SAMPLE_SUBMIT;
		if (PT_REGS_PARM4_SYSCALL(regs) & SC_IORING_ENTER_GETEVENTS)
			return SAMPLE_REAP;
	}
	return SAMPLE_OTHER_KERNEL;
}

static __always_inline void agg_add(struct sampling_counters *c, struct sampling_key *key)
{
	__u64 one = 1, *v;

	v = bpf_map_lookup_elem(&agg, key);
	if (v) {
		__sync_fetch_and_add(v, 1);
		return;
	}
	if (!bpf_map_update_elem(&agg, key, &one, BPF_NOEXIST))
		return;
	/* Another CPU may have inserted it meanwhile; else the map is full. */
	v = bpf_map_lookup_elem(&agg, key);
	if (v)
		__sync_fetch_and_add(v, 1);
	else
		c->agg_full++;
}

SEC("perf_event")
int iodig_sample(struct bpf_perf_event_data *ctx)
{
	struct sampling_counters *c;
	struct sampling_key *key;
	struct task_struct *task;
	__u32 zero = 0, cls;

	if (iodig_current_slot() < 0)
		return 0;
	c = bpf_map_lookup_elem(&counters, &zero);
	if (!c)
		return 0;
	if (REGS_USER_MODE(&ctx->regs)) {
		c->samples[SAMPLE_USER]++;
		return 0;   /* counted only: the user stack is not ours to explain */
	}
	task = bpf_get_current_task_btf();
	if (task->flags & IODIG_PF_IO_WORKER)
		cls = SAMPLE_OTHER_KERNEL;
	else
		cls = class_of_call((struct pt_regs *)bpf_task_pt_regs(task));
	if (cls >= SAMPLE_CLASS_NR)
		return 0;
	c->samples[cls]++;
	key = bpf_map_lookup_elem(&scratch, &zero);
	if (!key)
		return 0;
	key->cls = cls;
	key->pad = 0;
	/* Fills the frames the unwinder found and zeroes the rest, so equal
	 * stacks make equal keys. */
	if (bpf_get_stack(ctx, key->ips, sizeof(key->ips), 0) < 0) {
		c->stack_errors++;
		return 0;
	}
	agg_add(c, key);
	return 0;
}
