/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's flow control between jobs (flow, flow_id, flow_sleep): the jobs
 * of one flow_id share a counter of the I/Os they issued, and a job holds
 * back while its share of that counter is above its share of the flow's
 * weights, so their I/O keeps the ratio of their flow= values.
 */
#ifndef IODIG_FLOW_H
#define IODIG_FLOW_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

/* One flow_id, in memory the workers (threads or processes) share. */
struct flow_counter {
	_Atomic uint64_t issued;      /* starts at 1, as fio's */
	_Atomic uint32_t weight;      /* flow= of the workers in the flow */
	uint32_t id;
	bool used;
};

/* Every flow of a run: at most one per worker. */
#define FLOW_TABLE_MAX 4096
struct flow_table {
	unsigned int nr;
	struct flow_counter flows[FLOW_TABLE_MAX];
};

/* Adds a worker of weight @weight to flow @id, before any worker starts
 * (fio adds each job when it parses it); NULL when the table is full. */
struct flow_counter *flow_table_join(struct flow_table *t, uint32_t id,
				     uint32_t weight);

/* One worker's side of its flow. */
struct flow_state {
	struct flow_counter *flow;    /* NULL: the job has no flow= */
	uint64_t issued;              /* this worker's I/Os counted there */
	uint32_t weight;
};

void flow_state_init(struct flow_state *s, struct flow_counter *flow,
		     uint32_t weight);
/* fio's flow_threshold_exceeded, negated: true (and the I/O counted)
 * when the worker may issue one more I/O now. */
bool flow_may_issue(struct flow_state *s);
/* The worker ends: its weight and its I/Os leave the flow, so the jobs
 * still running share it among themselves. */
void flow_state_leave(struct flow_state *s);

#endif /* IODIG_FLOW_H */
