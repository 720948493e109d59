/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Work done side by side, on a thread per CPU at most, whose threads do
 * not exit when the work is done but park, asleep, until released.
 *
 * Why not join them: a joined thread has only cleared its thread id; it
 * still runs its exit and switches off its CPU one last time, after the
 * joiner went on.  A caller that starts counting its own process's events
 * once the work is done (the probe families, whose workload filter takes
 * iodig's process) would count that.  parked_threads_run() returns only
 * when every thread is off its CPU, asleep in its park, and a parked
 * thread makes no event until parked_threads_release().
 */
#ifndef IODIG_BASE_PARKED_THREADS_H
#define IODIG_BASE_PARKED_THREADS_H

#include <stdbool.h>
#include <stddef.h>

struct parked_threads;

/*
 * Calls @fn(@items[i]) for each of the @n items, side by side: as many
 * threads as CPUs (fewer with fewer items) each take the next item left;
 * when no thread can start the caller runs them all.  Returns when all
 * are done and every thread is parked (*@out, NULL when no thread
 * started).  *@exact is false when the kernel could not confirm
 * that a thread was off its CPU (no /proc/<tid>/syscall): then it had at
 * least reached its park.
 */
void parked_threads_run(void (*fn)(void *item), void *const *items, size_t n,
			struct parked_threads **out, bool *exact);

/* Wakes the parked threads, joins and frees them.  Accepts NULL. */
void parked_threads_release(struct parked_threads *pt);

#endif /* IODIG_BASE_PARKED_THREADS_H */
