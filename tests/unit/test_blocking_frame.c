// Blocking frames of context-switch stacks (probes/blocking_frame.c), on stacks seen in the QEMU lab's
// guests: a traced kernel function below its trampoline is the kernel's; a helper, the BPF allocator or
// __bpf_prog_exit below a program or trampoline is the tracing's, symbolized either way.
#include <string.h>

#include "tests/lib/check.h"
#include "probes/blocking_frame.h"

#define NR(a) (sizeof(a) / sizeof((a)[0]))

static void expect(const char *const *frames, size_t nr, const char *function, bool in_bpf)
{
	bool got_bpf;
	size_t i = blocking_frame_pick(frames, nr, &got_bpf);

	CHECK_MSG(i < nr && !strcmp(frames[i], function), "%s: picked %s", function,
		  i < nr ? frames[i] : "(none)");
	CHECK_MSG(got_bpf == in_bpf, "%s: in BPF %d, expected %d", function, got_bpf, in_bpf);
}

int main(void)
{
	/* A tag wait in a function that fentry/fexit trace (6.12). */
	const char *tag[] = { "__schedule", "schedule", "io_schedule", "blk_mq_get_tag",
			      "bpf_trampoline_6442511460 [bpf]", "blk_mq_get_tag",
			      "__blk_mq_alloc_requests", "blk_mq_submit_bio" };
	/* PREEMPT_RT: preempted in local storage called by a program that
	 * symbolizes as its trampoline (no bpf_prog_ symbols listed). */
	const char *storage[] = { "__schedule", "preempt_schedule_irq", "irqentry_exit",
				  "asm_sysvec_apic_timer_interrupt", "bpf_task_storage_get_recur",
				  "bpf_trampoline_6442511460 [bpf]",
				  "bpf_trampoline_6442511460 [bpf]", "blk_mq_get_tag" };
	/* PREEMPT_RT: preempted in migrate_enable on the way out of a program. */
	const char *exit_path[] = { "__schedule", "preempt_schedule_irq", "irqentry_exit",
				    "asm_sysvec_apic_timer_interrupt", "migrate_enable",
				    "__bpf_prog_exit_recur", "bpf_trampoline_6442511460 [bpf]",
				    "io_wq_submit_work", "io_worker_handle_work" };
	/* Preempted in the trampoline's own code. */
	const char *trampoline[] = { "__schedule", "preempt_schedule_irq", "irqentry_exit",
				     "asm_sysvec_apic_timer_interrupt",
				     "bpf_trampoline_6442511460 [bpf]", "io_wq_submit_work" };
	/* The BPF allocator under a named program run from a tracepoint. */
	const char *alloc[] = { "__schedule", "schedule_rtlock", "rtlock_slowlock_locked",
				"unit_alloc", "bpf_mem_alloc", "bpf_selem_alloc",
				"bpf_local_storage_update", "bpf_task_storage_get",
				"bpf_prog_1f2e_iodig_sw_btf [bpf]", "bpf_trace_run4",
				"__bpf_trace_sched_switch", "__schedule" };
	/* A sleep in the kernel that merely runs under a traced caller. */
	const char *deep[] = { "__schedule", "schedule", "io_schedule", "folio_wait_bit_common",
			       "filemap_read", "blkdev_read_iter", "io_read", "io_issue_sqe",
			       "bpf_trampoline_6442511460 [bpf]", "io_issue_sqe", "io_submit_sqes" };
	/* Preempted on the way to user space: all plumbing, the outermost. */
	const char *user[] = { "__schedule", "preempt_schedule_irq", "irqentry_exit" };
	bool in_bpf;

	expect(tag, NR(tag), "blk_mq_get_tag", false);
	expect(storage, NR(storage), "bpf_task_storage_get_recur", true);
	expect(exit_path, NR(exit_path), "migrate_enable", true);
	expect(trampoline, NR(trampoline), "bpf_trampoline_6442511460 [bpf]", true);
	expect(alloc, NR(alloc), "rtlock_slowlock_locked", true);
	expect(deep, NR(deep), "folio_wait_bit_common", false);
	expect(user, NR(user), "irqentry_exit", false);
	CHECK(blocking_frame_pick(user, 0, &in_bpf) == 0 && !in_bpf);
	return CHECK_DONE();
}
