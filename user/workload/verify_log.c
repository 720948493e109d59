// SPDX-License-Identifier: GPL-2.0
/*
 * An array of pending writes.  In offset order (fio's rb tree) the
 * pending part is sorted and its overlaps dropped when it is read, and
 * also whenever it has doubled, so that a long job rewriting the same
 * blocks keeps one entry per block.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "workload/verify_log.h"

#define VLOG_MIN_COMPACT 4096

void vlog_init(struct verify_log *l, bool by_offset)
{
	memset(l, 0, sizeof(*l));
	l->by_offset = by_offset;
	l->sorted = true;
	l->compact_at = VLOG_MIN_COMPACT;
}

void vlog_free(struct verify_log *l)
{
	free(l->e);
	l->e = NULL;
	l->head = l->tail = l->cap = 0;
}

size_t vlog_pending(const struct verify_log *l)
{
	return l->tail - l->head;
}

/* Whether @b starts inside @a, or before it in (file, offset) order. */
static bool reaches_into(const struct vlog_entry *a, const struct vlog_entry *b)
{
	return a->file > b->file ||
	       (a->file == b->file && a->offset + a->len > b->offset);
}

static int by_offset_then_age(const void *a, const void *b)
{
	const struct vlog_entry *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sorts the pending entries and keeps, of overlapping ones, the newest. */
static void compact(struct verify_log *l)
{
	struct vlog_entry *p = l->e + l->head;
	size_t n = vlog_pending(l), kept = 0;

	qsort(p, n, sizeof(*p), by_offset_then_age);
	for (size_t i = 0; i < n; i++) {
		bool drop = false;

		while (kept && reaches_into(&p[kept - 1], &p[i])) {
			if (p[kept - 1].seq > p[i].seq) {
				drop = true;
				break;
			}
			kept--;
		}
		if (!drop)
			p[kept++] = p[i];
	}
	l->tail = l->head + kept;
	l->sorted = true;
	l->compact_at = 2 * kept > VLOG_MIN_COMPACT ? 2 * kept : VLOG_MIN_COMPACT;
}

static int make_room(struct verify_log *l)
{
	size_t cap;
	struct vlog_entry *e;

	if (l->head) { /* reuse what was popped */
		memmove(l->e, l->e + l->head, vlog_pending(l) * sizeof(*l->e));
		l->tail -= l->head;
		l->head = 0;
		if (l->tail < l->cap)
			return 0;
	}
	cap = l->cap ? 2 * l->cap : 1024;
	e = realloc(l->e, cap * sizeof(*e));
	if (!e)
		return -ENOMEM;
	l->e = e;
	l->cap = cap;
	return 0;
}

int vlog_add(struct verify_log *l, const struct vlog_entry *e)
{
	const struct vlog_entry *last;

	if (l->tail == l->cap && make_room(l))
		return -ENOMEM;
	last = l->tail > l->head ? &l->e[l->tail - 1] : NULL;
	/* sequential writes arrive in order: no sort needed */
	if (last && reaches_into(last, e))
		l->sorted = false;
	l->e[l->tail] = *e;
	l->e[l->tail].seq = l->seq++;
	l->tail++;
	if (l->by_offset && !l->sorted && vlog_pending(l) >= l->compact_at)
		compact(l);
	return 0;
}

bool vlog_pop(struct verify_log *l, struct vlog_entry *out)
{
	if (l->by_offset && !l->sorted)
		compact(l);
	if (l->head == l->tail)
		return false;
	*out = l->e[l->head++];
	if (l->head == l->tail)
		l->head = l->tail = 0;
	return true;
}
