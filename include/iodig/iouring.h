/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The iouring probe family's maps, shared by bpf/iouring.bpf.c and
 * user/probes/iouring.c: what io_uring did with the workload's requests
 * (inline, punted to io-wq, polled) and how long punted ones took.
 * Fixed-width types only.
 */
#ifndef IODIG_IOURING_H
#define IODIG_IOURING_H

#include "iodig/hist.h"

/* Punted requests timed at once (queue_async_work -> complete), and io-wq
 * worker / SQPOLL threads told apart one by one: the sizes when the job is
 * unknown; user/probes/iouring.c sizes both from the job. */
#define IOURING_MAX_PUNTED 16384
#define IOURING_MAX_THREADS 1024

/* iouring_threads values */
#define IOURING_THREAD_IOWQ   1u   /* iou-wrk-<pid> */
#define IOURING_THREAD_SQPOLL 2u   /* iou-sqp-<pid> */

/* Per-CPU counters; each CPU writes only its own copy. */
struct iouring_counters {
	iodig_u64 submitted;     /* io_uring_submit_req (submit_sqe before 6.0) */
	iodig_u64 punted;        /* io_uring_queue_async_work: handed to io-wq */
	iodig_u64 completed;     /* io_uring_complete: CQEs posted */
	iodig_u64 failed;        /* ... with res < 0 */
	iodig_u64 eagain;        /* ... with res == -EAGAIN */
	iodig_u64 poll_armed;    /* io_uring_poll_arm: waiting on a file's poll */
	iodig_u64 task_add;      /* io_uring_task_add: poll wake-up to task_work */
	iodig_u64 punt_timed;    /* punted requests whose completion was seen */
	iodig_u64 punt_ns_sum;
	iodig_u64 punt_ns_max;
	iodig_u64 punt_untracked;/* punted while the tracking map was full */
	iodig_u64 thread_drops;  /* io thread map full */
	iodig_u64 punt_unhooked; /* punted before io_uring_complete was
				  * attached: counted, not timed */
};

/*
 * Where the arguments sit in each raw tracepoint's prototype on this
 * kernel (its BTF, read by user space): indices into the raw argument
 * array, IOURING_ARG_NONE when the kernel does not pass it.
 */
#define IOURING_ARG_NONE 0xffu

struct iouring_args {
	iodig_u32 qaw_req;       /* queue_async_work: the request */
	iodig_u32 task_add_req;  /* task_add: the request */
	iodig_u32 complete_req;  /* complete: the request (v5.19+) */
	iodig_u32 complete_res;  /* complete: res as a value (before v6.13) */
	iodig_u32 complete_cqe;  /* complete: struct io_uring_cqe * (v6.13+) */
};

#endif /* IODIG_IOURING_H */
