// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "probes/maps.h"
#include "workload/stats.h"

uint32_t map_size(uint64_t want, uint32_t floor, uint32_t ceiling, uint32_t dflt)
{
	uint32_t n = floor;

	if (!want)
		return dflt;
	while (n < want && n < ceiling)
		n <<= 1;
	return n;
}

uint64_t map_io_threads(const struct probe_env *env)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t per_ring = 4 * (uint64_t)(cpus > 0 ? cpus : 1);
	uint64_t iowq;

	if (!env || !env->threads)
		return 0;
	iowq = env->inflight < env->threads * per_ring ? env->inflight
							: env->threads * per_ring;
	return env->threads + iowq;
}

static int sum_one_by_one(int fd, unsigned int nr, unsigned int words, int ncpu,
			  uint64_t *vals, uint64_t *out)
{
	for (unsigned int key = 0; key < nr; key++) {
		if (bpf_map_lookup_elem(fd, &key, vals))
			return -errno;
		for (int c = 0; c < ncpu; c++)
			for (unsigned int w = 0; w < words; w++)
				out[(size_t)key * words + w] += vals[(size_t)c * words + w];
	}
	return 0;
}

/* Entries per batch: up to 256, in a buffer of at most ~256 KiB (a
 * histogram row is 18 KiB per CPU; fresh pages cost a fault each). */
static uint32_t batch_entries(unsigned int words, int ncpu)
{
	size_t per_entry = (size_t)words * (size_t)ncpu * sizeof(uint64_t);
	size_t n = (256u << 10) / per_entry;

	return n < 1 ? 1 : n > 256 ? 256 : (uint32_t)n;
}

int map_sum_percpu(int map_fd, unsigned int nr, unsigned int words, uint64_t *out)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	int ncpu = libbpf_num_possible_cpus();
	uint32_t *keys = NULL, next = 0, chunk;
	uint64_t *vals = NULL;
	unsigned int seen = 0;
	bool first = true;
	int ret = 0;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	memset(out, 0, (size_t)nr * words * sizeof(*out));
	chunk = batch_entries(words, ncpu);
	keys = calloc(chunk, sizeof(*keys));
	/* Per-CPU values come back as one value_size slot per possible CPU. */
	vals = calloc((size_t)chunk * ncpu * words, sizeof(*vals));
	if (!keys || !vals) {
		ret = -ENOMEM;
		goto cleanup;
	}
	while (seen < nr) {
		uint32_t count = chunk;
		int err = bpf_map_lookup_batch(map_fd, first ? NULL : &next, &next,
					       keys, vals, &count, &opts);

		if (err && errno != ENOENT) {
			/* Kernels before 5.6 have no batch ops for arrays. */
			if (first && (errno == EINVAL || errno == ENOTSUP ||
				      errno == EOPNOTSUPP)) {
				ret = sum_one_by_one(map_fd, nr, words, ncpu, vals, out);
				goto cleanup;
			}
			ret = -errno;
			goto cleanup;
		}
		for (uint32_t i = 0; i < count; i++) {
			if (keys[i] >= nr)
				continue;
			for (int c = 0; c < ncpu; c++)
				for (unsigned int w = 0; w < words; w++)
					out[(size_t)keys[i] * words + w] +=
						vals[((size_t)i * ncpu + c) * words + w];
		}
		seen += count;
		first = false;
		if (err || !count)
			break;   /* ENOENT: no entries after the last one */
	}
cleanup:
	free(keys);
	free(vals);
	return ret;
}

int map_sum_counters(const struct bpf_map *map, void *sum, size_t size)
{
	return map_sum_percpu(bpf_map__fd(map), 1, (unsigned int)(size / sizeof(uint64_t)),
			      sum);
}

int map_read_hists(int map_fd, struct hist *h, size_t nr)
{
	uint64_t *slots = calloc(nr * IODIG_HIST_SLOTS, sizeof(*slots));
	int err;

	if (!slots)
		return -ENOMEM;
	/* one row (struct iodig_hist_row) per histogram */
	err = map_sum_percpu(map_fd, (unsigned int)nr, IODIG_HIST_SLOTS, slots);
	for (size_t i = 0; !err && i < nr; i++) {
		h[i].total = 0;
		for (uint32_t k = 0; k < IODIG_HIST_SLOTS; k++) {
			h[i].slot[k] = slots[i * IODIG_HIST_SLOTS + k];
			h[i].total += h[i].slot[k];
		}
	}
	free(slots);
	return err;
}

int map_each_entry(const struct bpf_map *map,
		   int (*fn)(const void *key, const void *value, void *ctx), void *ctx)
{
	int fd = bpf_map__fd(map);
	char *key = calloc(2, bpf_map__key_size(map)), *next;
	void *value = calloc(1, bpf_map__value_size(map));
	bool first = true;
	int ret = 0;

	if (!key || !value) {
		ret = -ENOMEM;
		goto cleanup;
	}
	next = key + bpf_map__key_size(map);
	while (!ret && !bpf_map_get_next_key(fd, first ? NULL : key, next)) {
		first = false;
		memcpy(key, next, bpf_map__key_size(map));
		if (!bpf_map_lookup_elem(fd, key, value))
			ret = fn(key, value, ctx);
	}
	if (!ret && errno != ENOENT && !first)
		ret = -errno;
cleanup:
	free(key);
	free(value);
	return ret;
}

struct entry_reader {
	void **elems;
	size_t *nr, cap, elem_size;
	int (*fill)(void *elem, const void *key, const void *value, void *ctx);
	void *ctx;
};

static int read_one(const void *key, const void *value, void *ctx)
{
	struct entry_reader *r = ctx;
	char *elem;
	int kept;

	if (*r->nr == r->cap) {
		size_t cap = r->cap ? 2 * r->cap : 64;
		void *v = realloc(*r->elems, cap * r->elem_size);

		if (!v)
			return -ENOMEM;
		*r->elems = v;
		r->cap = cap;
	}
	elem = (char *)*r->elems + *r->nr * r->elem_size;
	memset(elem, 0, r->elem_size);
	kept = r->fill(elem, key, value, r->ctx);
	if (kept > 0)
		(*r->nr)++;
	return kept < 0 ? kept : 0;
}

int map_read_entries(const struct bpf_map *map, void **elems, size_t *nr, size_t elem_size,
		     int (*fill)(void *elem, const void *key, const void *value, void *ctx),
		     void *ctx)
{
	struct entry_reader r = { elems, nr, *nr, elem_size, fill, ctx };

	return map_each_entry(map, read_one, &r);
}
