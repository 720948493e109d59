// The lab guest's holder of perf's software-event static keys: opens, on
// itself, one software event of each kind iodig's workload counters open,
// then sleeps until killed.  While it lives, the kernel's static branches
// for those events (perf_sw_event's in do_user_addr_fault right after
// `sti`, the context-switch and migration ones, perf_sched_events in
// __schedule) stay enabled, so iodig's runs open and close their counters
// without live-patching that text.  Under QEMU TCG a vCPU sometimes runs a
// stale int3 left by that patching and the guest dies (`Oops: int3`);
// real hardware does not, so this belongs to the lab, not to iodig.
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static const unsigned long long held[] = {
	PERF_COUNT_SW_PAGE_FAULTS,     PERF_COUNT_SW_PAGE_FAULTS_MIN,
	PERF_COUNT_SW_PAGE_FAULTS_MAJ, PERF_COUNT_SW_CONTEXT_SWITCHES,
	PERF_COUNT_SW_CPU_MIGRATIONS,
};

int main(void)
{
	size_t n = sizeof(held) / sizeof(held[0]), opened = 0;

	for (size_t i = 0; i < n; i++) {
		struct perf_event_attr attr;

		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_SOFTWARE;
		attr.config = held[i];
		/* this task, any CPU: a task event also holds perf_sched_events */
		if (syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0) >= 0)
			opened++;
		else
			perror("swkeys_hold: perf_event_open");
	}
	printf("swkeys_hold: holding %zu of %zu software event keys\n", opened, n);
	fflush(stdout);
	for (;;)
		pause();
}
