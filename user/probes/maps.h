/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The families' BPF maps from user space: sizes that grow with the job
 * (set before load, within bounds), and reading per-CPU counters and
 * histograms back.
 */
#ifndef IODIG_PROBES_MAPS_H
#define IODIG_PROBES_MAPS_H

#include <stddef.h>
#include <stdint.h>

#include "probes/probe.h"

struct bpf_map;
struct hist;

/*
 * max_entries of a map whose need grows with the job: @want rounded up to
 * a power of two and kept within [@floor, @ceiling] (both powers of two),
 * so memory stays bounded whatever the job; @dflt when @want is 0 (the
 * job is unknown, as for `iodig probe`).
 */
uint32_t map_size(uint64_t want, uint32_t floor, uint32_t ceiling, uint32_t dflt);

/*
 * At most how many io_uring io threads the job makes at once: an SQPOLL
 * thread per worker, and an io-wq worker per punted request in flight,
 * at most 4 per CPU per ring (io-wq's bound for regular I/O).  0 when the
 * job is unknown.
 */
uint64_t map_io_threads(const struct probe_env *env);

/*
 * Sums a per-CPU array whose values are @words u64s over all CPUs, entries
 * [0, @nr) into @out[nr * words]; batched where the kernel allows it.
 */
int map_sum_percpu(int map_fd, unsigned int nr, unsigned int words, uint64_t *out);

struct bpf_map;

/* map_sum_percpu of a family's counters map: a per-CPU array of one
 * struct (@size bytes) of u64 counters, summed into @sum. */
int map_sum_counters(const struct bpf_map *map, void *sum, size_t size);

/* Sums a per-CPU array of @nr histograms, a struct iodig_hist_row each
 * (IODIG_PERCPU_HISTS), into @h[0..nr), totals included. */
int map_read_hists(int map_fd, struct hist *h, size_t nr);

/*
 * Calls @fn with the key and value of each entry of hash map @map until it
 * returns non-zero, which is then returned; entries deleted meanwhile are
 * skipped.  0 or -errno.
 */
int map_each_entry(const struct bpf_map *map,
		   int (*fn)(const void *key, const void *value, void *ctx), void *ctx);

/*
 * Reads hash map @map into an array: one element of @elem_size bytes
 * appended to *@elems (*@nr of them) for each entry that @fill turns into
 * one (it returns 1, 0 to skip the entry, -errno to stop).  0 or -errno.
 */
int map_read_entries(const struct bpf_map *map, void **elems, size_t *nr, size_t elem_size,
		     int (*fill)(void *elem, const void *key, const void *value, void *ctx),
		     void *ctx);

#endif /* IODIG_PROBES_MAPS_H */
