/* SPDX-License-Identifier: GPL-2.0 */
/* The one clock every latency is measured with. */
#ifndef IODIG_CLOCK_H
#define IODIG_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t now_ns(void);

#endif /* IODIG_CLOCK_H */
