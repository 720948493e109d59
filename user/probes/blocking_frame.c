// SPDX-License-Identifier: GPL-2.0
/*
 * The blocking frame of a context switch's stack (probes/blocking_frame.h):
 * the scheduler's and the tracing's own frames are skipped, and a switch
 * inside BPF programs is told apart from one in a traced kernel function.
 */
#include <string.h>

#include "probes/blocking_frame.h"

/*
 * Frames that are the scheduler's or the tracing machinery's own, never
 * the reason a thread left the CPU.  A trailing '*' matches a prefix:
 * "schedule*" covers schedule_timeout, schedule_hrtimeout_range(_clock)
 * and schedule_preempt_disabled, "io_schedule*" io_schedule_timeout.  The
 * in-kernel irq return path is skipped too, so a thread preempted there is
 * attributed to the code it was interrupted in; irqentry_exit_to_user_mode
 * and exit_to_user_mode_loop stay: "preempted on the way to user space".
 * Anything else (do_nanosleep, blk_mq_get_tag, io_wq_worker,
 * rwsem_down_read_slowpath, ...) is the blocking function.
 */
static const char *const plumbing[] = {
	"__schedule", "schedule*", "io_schedule*", "preempt_schedule*",
	"__cond_resched", "_cond_resched", "bpf_prog_*", "bpf_trace_run*",
	"__bpf_trace_*", "__traceiter_*", "perf_trace_*", "perf_tp_event",
	"irqentry_exit", "asm_sysvec_*", "sysvec_*", "asm_common_interrupt",
	"common_interrupt",
};

/* Kernel functions that call BPF programs (BPF JIT code is the rest). */
static const char *const bpf_runners[] = {
	"bpf_prog_*", "bpf_trace_run*", "__bpf_trace_*", "trace_call_bpf",
	"perf_trace_run_bpf_submit",
};

/* @name may carry a " [module]" suffix, which never matches. */
static bool name_in(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *p = list[i];
		size_t len = strlen(p);

		if (p[len - 1] == '*' ? !strncmp(name, p, len - 1) : !strcmp(name, p))
			return true;
	}
	return false;
}

/* Programs and trampolines, JIT code listed with the "[bpf]" module. */
static bool is_jit_frame(const char *name)
{
	size_t n = strlen(name);

	return n > 6 && !strcmp(name + n - 6, " [bpf]");
}

static bool runs_bpf(const char *name)
{
	return is_jit_frame(name) ||
	       name_in(name, bpf_runners, sizeof(bpf_runners) / sizeof(bpf_runners[0]));
}

static bool is_bpf_code(const char *name)
{
	return !strncmp(name, "bpf_", 4) || !strncmp(name, "__bpf_", 6);
}

/*
 * Inside the tracing: the blocking frame is BPF JIT code itself, or the
 * frame right below the nearest caller that runs BPF (a program, a
 * trampoline, a tracepoint's runner) is BPF's own code: a helper, local
 * storage, __bpf_prog_enter/exit, below which anything (a lock, the BPF
 * allocator, migrate_enable) is still the tracing's.  A traced function
 * runs right below its trampoline, so a kernel name there means the thread
 * was in the kernel.  Program frames may symbolize as the nearest
 * trampoline when the kernel lists no bpf_prog_ symbols.
 */
static bool in_bpf_program(const char *const *frames, size_t from, size_t nr)
{
	if (is_jit_frame(frames[from]))
		return true;
	for (size_t i = from + 1; i < nr; i++)
		if (runs_bpf(frames[i]))
			return is_bpf_code(frames[i - 1]);
	return false;
}

size_t blocking_frame_pick(const char *const *frames, size_t nr, bool *in_bpf)
{
	size_t i = 0;

	*in_bpf = false;
	if (!nr)
		return nr;
	while (i < nr && name_in(frames[i], plumbing, sizeof(plumbing) / sizeof(plumbing[0])))
		i++;
	/* All plumbing (preempted on the way to user space): the outermost. */
	if (i == nr)
		i = nr - 1;
	*in_bpf = in_bpf_program(frames, i, nr);
	return i;
}
