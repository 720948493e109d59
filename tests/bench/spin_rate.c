// SPDX-License-Identifier: GPL-2.0
/*
 * Bench tool for tests/bench/sample_irq.sh: spins on fixed chunks of
 * arithmetic for SECONDS of wall time and prints the chunks done per
 * millisecond of its own CPU time.  Without IRQ time accounting the
 * kernel charges an interrupt to the task it interrupted, so timer
 * interrupts on the spinning CPU lower the rate by the share of its time
 * they take, however loaded the rest of the machine is.
 *
 * usage: spin_rate SECONDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double clock_ms(clockid_t id)
{
	struct timespec t;

	clock_gettime(id, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	volatile unsigned long x = 1;
	unsigned long chunks = 0;
	double secs, wall0, cpu0, cpu;
	char *end = NULL;

	secs = argc == 2 ? strtod(argv[1], &end) : 0;
	if (argc != 2 || !end || *end || secs <= 0) {
		fprintf(stderr, "usage: spin_rate SECONDS (a positive number)\n");
		return 2;
	}
	wall0 = clock_ms(CLOCK_MONOTONIC);
	cpu0 = clock_ms(CLOCK_THREAD_CPUTIME_ID);
	while (clock_ms(CLOCK_MONOTONIC) - wall0 < secs * 1e3) {
		for (int i = 0; i < 100000; i++)
			x = x * 6364136223846793005ul + 1;
		chunks++;
	}
	cpu = clock_ms(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	if (cpu <= 0) {
		fprintf(stderr, "spin_rate: no CPU time measured\n");
		return 1;
	}
	printf("%.4f\n", (double)chunks / cpu);
	return 0;
}
