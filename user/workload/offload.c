// SPDX-License-Identifier: GPL-2.0
/*
 * io_submit_mode=offload (workload/offload.h).  Unit k always goes to
 * submit thread k: there are as many threads as units, as in fio, so a
 * unit never waits for a thread, and each engine instance only ever sees
 * its own unit (engines keep per-unit state in io_unit.engine_priv).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "workload/file_lock.h"
#include "workload/offload.h"
#include "workload/worker.h"

struct submit_slot {
	pthread_t thread;
	pthread_cond_t wake;
	struct offload_pool *pool;
	struct worker engine_view;   /* the worker as its engine sees it */
	struct io_unit *reaped[1];
	struct io_unit *unit;        /* handed over; NULL: idle */
	bool started;
};

struct offload_pool {
	pthread_mutex_t lock;
	pthread_cond_t done_cond;    /* a unit completed, or a thread is ready */
	const struct engine_ops *engine;
	struct submit_slot *slots;
	unsigned int nr;
	struct io_unit **done;       /* completed units, a ring of nr */
	unsigned int done_head, done_count;
	unsigned int handed;         /* queued since the last commit */
	unsigned int ready;          /* threads whose engine init ended */
	int init_error;
	struct errbuf init_err;      /* the first thread's failure */
	bool exit;
};

/* The engine of slot @s sees one unit, the worker's unit of its index,
 * and that unit's buffer as its whole buffer area (one registered
 * buffer for io_uring's fixedbufs). */
static void slot_view_init(struct submit_slot *s, const struct worker *w,
			   unsigned int k)
{
	s->engine_view = *w;
	s->engine_view.units = &w->units[k];
	s->engine_view.nr_units = 1;
	s->engine_view.reaped = s->reaped;
	s->engine_view.buf_area = w->units[k].buf;
	s->engine_view.buf_area_size = w->buf_unit_size;
	s->engine_view.engine_data = NULL;
}

/* Issues @u on the slot's engine and waits for it, as fio's
 * io_workqueue_fn does at depth 1; the result lands in @u.  With
 * serialize_overlap it first waits for any offloaded I/O in flight over
 * its range, as fio's check_overlap does. */
static void submit_and_wait(struct submit_slot *s, struct io_unit *u)
{
	const struct engine_ops *e = s->pool->engine;
	struct worker *w = &s->engine_view;
	unsigned int index = u->index;
	enum io_result r;
	int n = 0;

	if (w->overlap)
		overlap_board_claim(w->overlap, w->overlap_first + index,
				    u->offset, u->len, w->stop);
	u->index = 0; /* its buffer is the engine's buffer 0 */
	u->issue_ns = now_ns();
	file_lock_take(w, u);
	r = e->queue(w, u);
	file_lock_drop(w, u);
	if (r == IO_BUSY) {
		u->result = -EBUSY;
	} else if (r == IO_QUEUED) {
		while (e->commit && (n = e->commit(w)) == 0)
			;
		if (n >= 0)
			n = e->getevents(w, 1, 1, s->reaped);
		if (n < 0)
			u->result = n;
	}
	u->index = index;
	u->done_ns = now_ns();
	if (w->overlap)
		overlap_board_release(w->overlap, w->overlap_first + index);
}

static void slot_report_init(struct submit_slot *s, int ret, const struct errbuf *err)
{
	struct offload_pool *p = s->pool;

	pthread_mutex_lock(&p->lock);
	if (ret && !p->init_error) {
		p->init_error = ret;
		p->init_err = *err;
	}
	p->ready++;
	pthread_cond_broadcast(&p->done_cond);
	pthread_mutex_unlock(&p->lock);
}

/* One submit thread: its engine is set up and torn down on this thread,
 * as io_uring's single-issuer rings need. */
static void *submit_thread(void *arg)
{
	struct submit_slot *s = arg;
	struct offload_pool *p = s->pool;
	const struct engine_ops *e = p->engine;
	struct errbuf err = { { 0 } };
	int ret = engine_state_new(&s->engine_view, &err);

	if (!ret && e->init)
		ret = e->init(&s->engine_view, &err);
	slot_report_init(s, ret, &err);
	pthread_mutex_lock(&p->lock);
	while (!ret && !p->exit) {
		struct io_unit *u = s->unit;

		if (!u) {
			pthread_cond_wait(&s->wake, &p->lock);
			continue;
		}
		pthread_mutex_unlock(&p->lock);
		submit_and_wait(s, u);
		pthread_mutex_lock(&p->lock);
		s->unit = NULL;
		p->done[(p->done_head + p->done_count++) % p->nr] = u;
		pthread_cond_signal(&p->done_cond);
	}
	pthread_mutex_unlock(&p->lock);
	if (!ret && e->cleanup)
		e->cleanup(&s->engine_view);
	engine_state_free(&s->engine_view);
	return NULL;
}

static void pool_stop(struct offload_pool *p)
{
	pthread_mutex_lock(&p->lock);
	p->exit = true;
	for (unsigned int k = 0; k < p->nr; k++)
		pthread_cond_signal(&p->slots[k].wake);
	pthread_mutex_unlock(&p->lock);
	for (unsigned int k = 0; k < p->nr; k++)
		if (p->slots[k].started)
			pthread_join(p->slots[k].thread, NULL);
}

static void pool_free(struct offload_pool *p)
{
	for (unsigned int k = 0; p->slots && k < p->nr; k++)
		pthread_cond_destroy(&p->slots[k].wake);
	pthread_cond_destroy(&p->done_cond);
	pthread_mutex_destroy(&p->lock);
	free(p->slots);
	free(p->done);
	free(p);
}

/* Starts the threads and waits until each has its engine ready. */
static int pool_start(struct offload_pool *p, struct worker *w, struct errbuf *err)
{
	unsigned int started = 0;
	int ret = 0;

	for (unsigned int k = 0; k < p->nr && !ret; k++) {
		struct submit_slot *s = &p->slots[k];

		s->pool = p;
		slot_view_init(s, w, k);
		ret = -pthread_create(&s->thread, NULL, submit_thread, s);
		if (ret)
			err_set(err, -ret, "cannot start submit thread %u of %u: %s",
				k + 1, p->nr, strerror(-ret));
		s->started = !ret;
		started += !ret;
	}
	pthread_mutex_lock(&p->lock);
	while (p->ready < started)
		pthread_cond_wait(&p->done_cond, &p->lock);
	if (!ret && p->init_error)
		ret = err_set(err, -p->init_error, "%s (in a submit thread of "
			      "io_submit_mode=offload)", p->init_err.msg);
	pthread_mutex_unlock(&p->lock);
	return ret;
}

static int offload_init(struct worker *w, struct errbuf *err)
{
	struct offload_pool *p = calloc(1, sizeof(*p));
	int ret;

	if (!p)
		return err_set(err, ENOMEM, "out of memory for the submit threads");
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->done_cond, NULL);
	p->engine = w->job->engine;
	p->nr = w->nr_units;
	p->slots = calloc(p->nr, sizeof(*p->slots));
	p->done = calloc(p->nr, sizeof(*p->done));
	if (!p->slots || !p->done) {
		pool_free(p);
		return err_set(err, ENOMEM, "out of memory for %u submit threads", w->nr_units);
	}
	for (unsigned int k = 0; k < p->nr; k++)
		pthread_cond_init(&p->slots[k].wake, NULL);
	ret = pool_start(p, w, err);
	if (ret) {
		pool_stop(p);
		pool_free(p);
		return ret;
	}
	w->engine_data = p;
	return 0;
}

static enum io_result offload_queue(struct worker *w, struct io_unit *u)
{
	struct offload_pool *p = w->engine_data;
	struct submit_slot *s = &p->slots[u->index];

	pthread_mutex_lock(&p->lock);
	s->unit = u;
	pthread_cond_signal(&s->wake);
	pthread_mutex_unlock(&p->lock);
	p->handed++;
	return IO_QUEUED;
}

/* The units went to their threads as they were queued (fio's
 * workqueue_enqueue); commit only counts them for the statistics. */
static int offload_commit(struct worker *w)
{
	struct offload_pool *p = w->engine_data;
	int n = (int)p->handed;

	p->handed = 0;
	return n;
}

static int offload_getevents(struct worker *w, unsigned int min, unsigned int max,
			     struct io_unit **done)
{
	struct offload_pool *p = w->engine_data;
	unsigned int n = 0;

	pthread_mutex_lock(&p->lock);
	while (p->done_count < min)
		pthread_cond_wait(&p->done_cond, &p->lock);
	while (n < max && p->done_count) {
		done[n++] = p->done[p->done_head];
		p->done_head = (p->done_head + 1) % p->nr;
		p->done_count--;
	}
	pthread_mutex_unlock(&p->lock);
	return (int)n;
}

static void offload_cleanup(struct worker *w)
{
	struct offload_pool *p = w->engine_data;

	if (!p)
		return;
	pool_stop(p);
	pool_free(p);
	w->engine_data = NULL;
}

const struct engine_ops offload_engine = {
	.name = "offload",
	ENGINE_QUEUEING_OPS(offload),
};
