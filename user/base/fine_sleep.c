// SPDX-License-Identifier: GPL-2.0
/* Waits kept to the microsecond, as fio's usec_sleep (base/fine_sleep.h). */
#define _GNU_SOURCE
#include <time.h>

#include "base/clock.h"
#include "base/fine_sleep.h"

/* A stop is seen within one slice of a long wait. */
#define SLICE_NS 10000000ull
/* fio measures its granularity with this many sleeps of 1 us */
#define GRANULARITY_TRIES 10

uint64_t fine_sleep_granularity(void)
{
	uint64_t most = 0;

	for (int i = 0; i < GRANULARITY_TRIES; i++) {
		struct timespec ts = { 0, 1000 };
		uint64_t t = now_ns();

		nanosleep(&ts, NULL);
		t = now_ns() - t;
		if (t > most)
			most = t;
	}
	return most;
}

bool fine_sleep_until(uint64_t until_ns, uint64_t granularity_ns,
		      bool (*stopped)(const void *arg), const void *arg)
{
	for (uint64_t now = now_ns(); now < until_ns; now = now_ns()) {
		uint64_t left = until_ns - now, nap;
		struct timespec ts;

		if (stopped && stopped(arg))
			return false;
		if (left <= granularity_ns)
			continue; /* spin */
		nap = left - granularity_ns;
		ts = (struct timespec){ 0, (long)(nap < SLICE_NS ? nap : SLICE_NS) };
		nanosleep(&ts, NULL);
	}
	return !(stopped && stopped(arg));
}
