// SPDX-License-Identifier: GPL-2.0
/* The one clock every latency is measured with. */
#include <time.h>

#include "base/clock.h"

/* CLOCK_MONOTONIC: unaffected by settimeofday/NTP steps, and the clock the
 * kernel's tracepoint timestamps (bpf_ktime_get_ns) are comparable with. */
uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}
