// SPDX-License-Identifier: GPL-2.0
/* fio's flow control between jobs (flow.c of fio 3.33's semantics). */
#include <stddef.h>

#include "workload/flow.h"

struct flow_counter *flow_table_join(struct flow_table *t, uint32_t id,
				     uint32_t weight)
{
	struct flow_counter *f = NULL;

	for (unsigned int i = 0; i < t->nr && !f; i++)
		if (t->flows[i].id == id)
			f = &t->flows[i];
	if (!f) {
		if (t->nr >= FLOW_TABLE_MAX)
			return NULL;
		f = &t->flows[t->nr++];
		f->id = id;
		f->used = true;
		atomic_init(&f->issued, 1);
		atomic_init(&f->weight, 0);
	}
	atomic_fetch_add(&f->weight, weight);
	return f;
}

void flow_state_init(struct flow_state *s, struct flow_counter *flow,
		     uint32_t weight)
{
	s->flow = weight ? flow : NULL;
	s->issued = 0;
	s->weight = weight;
}

bool flow_may_issue(struct flow_state *s)
{
	uint64_t all;
	uint32_t weights;

	if (!s->flow)
		return true;
	all = atomic_load_explicit(&s->flow->issued, memory_order_relaxed);
	weights = atomic_load_explicit(&s->flow->weight, memory_order_relaxed);
	/* mine / all > weight / weights, without division */
	if (weights && (double)s->issued * weights > (double)s->weight * all)
		return false;
	atomic_fetch_add_explicit(&s->flow->issued, 1, memory_order_relaxed);
	s->issued++;
	return true;
}

void flow_state_leave(struct flow_state *s)
{
	if (!s->flow)
		return;
	atomic_fetch_sub(&s->flow->issued, s->issued);
	atomic_fetch_sub(&s->flow->weight, s->weight);
	s->flow = NULL;
}
