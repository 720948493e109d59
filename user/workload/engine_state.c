// SPDX-License-Identifier: GPL-2.0
/*
 * An engine's state as its table declares it (ENGINE_STATE): one zeroed
 * block with the per-unit arrays after the struct, which the worker
 * allocates before init() and frees after cleanup(), so an engine file
 * holds no allocation and no free of its own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "workload/engine.h"
#include "workload/worker.h"

/* Each array starts aligned for any element type. */
static size_t align_up(size_t n)
{
	size_t a = _Alignof(max_align_t);

	return (n + a - 1) / a * a;
}

int engine_state_new(struct worker *w, struct errbuf *err)
{
	const struct engine_ops *e = w->job->engine;
	size_t total = align_up(e->state_size), at = total;
	char *d;

	if (!e->state_size)
		return 0;
	for (const struct engine_array *a = e->state_arrays; a && a->elem_size; a++)
		total += align_up(a->elem_size * w->nr_units);
	d = calloc(1, total);
	if (!d)
		return err_set(err, ENOMEM, "%s on %s: out of memory",
			       e->name, w->path);
	for (const struct engine_array *a = e->state_arrays; a && a->elem_size; a++) {
		void *array = d + at;

		memcpy(d + a->ptr_offset, &array, sizeof(array));
		at += align_up(a->elem_size * w->nr_units);
	}
	w->engine_data = d;
	return 0;
}

void engine_state_free(struct worker *w)
{
	if (!w->job->engine->state_size)
		return;
	free(w->engine_data);
	w->engine_data = NULL;
}

void engine_units_priv(struct worker *w, void *array, size_t elem)
{
	for (unsigned int i = 0; i < w->nr_units; i++)
		w->units[i].engine_priv = (char *)array + i * elem;
}
