/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's usec_sleep: a wait shorter than nanosleep's granularity is spun,
 * a longer one slept for what lies past the granularity and the rest
 * spun, so a pause of a few microseconds keeps to the microsecond where
 * one nanosleep would overrun it by the timer slack.  The granularity is
 * fio_time_init's: the longest of ten sleeps of 1 us.
 */
#ifndef IODIG_FINE_SLEEP_H
#define IODIG_FINE_SLEEP_H

#include <stdbool.h>
#include <stdint.h>

/* Ten sleeps of 1 us, the longest: about half a millisecond in all on
 * an idle CPU, longer on a busy one (then more of each wait is spun, as
 * fio spins more on the same machine). */
uint64_t fine_sleep_granularity(void);

/*
 * Waits until @until_ns on now_ns()'s clock, sleeping in slices of at
 * most 10 ms and asking @stopped(@arg) (may be NULL) before each sleep
 * and spin: false as soon as it answers true, else true at @until_ns.
 */
bool fine_sleep_until(uint64_t until_ns, uint64_t granularity_ns,
		      bool (*stopped)(const void *arg), const void *arg);

#endif /* IODIG_FINE_SLEEP_H */
