/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The syscalls probe family's maps, shared by bpf/syscalls.bpf.c and
 * user/probes/syscalls.c: time in the kernel of the calls each engine
 * submits and reaps I/O with.  Fixed-width types only.
 */
#ifndef IODIG_SYSCALLS_H
#define IODIG_SYSCALLS_H

#include "iodig/hist.h"

/* The system calls traced.  Their numbers are per architecture, so user
 * space fills the rodata table sc_nr[] from <sys/syscall.h>. */
enum sc_call {
	SC_CALL_IO_SUBMIT,
	SC_CALL_IO_GETEVENTS,
	SC_CALL_IO_PGETEVENTS,
	SC_CALL_URING_ENTER,
	SC_CALL_PREAD64,
	SC_CALL_PWRITE64,
	SC_CALL_PREADV2,
	SC_CALL_PWRITEV2,
	SC_CALL_NR,
};

/*
 * Rows of the report.  io_uring_enter does either or both jobs in one
 * call, told apart by its arguments (to_submit, min_complete, flags):
 * submit+wait is what io_uring_submit_and_wait() issues.
 */
enum sc_row {
	SC_ROW_IO_SUBMIT,
	SC_ROW_IO_GETEVENTS,
	SC_ROW_IO_PGETEVENTS,
	SC_ROW_URING_SUBMIT,       /* to_submit > 0, no waiting */
	SC_ROW_URING_SUBMIT_WAIT,  /* to_submit > 0, GETEVENTS, min_complete > 0 */
	SC_ROW_URING_WAIT,         /* to_submit == 0, GETEVENTS */
	SC_ROW_URING_OTHER,        /* neither: SQPOLL wake-up, ring flush */
	SC_ROW_PREAD64,
	SC_ROW_PWRITE64,
	SC_ROW_PREADV2,
	SC_ROW_PWRITEV2,
	SC_ROW_NR,
};

/* IORING_ENTER_GETEVENTS (include/uapi/linux/io_uring.h), a #define the
 * BPF side cannot take from vmlinux.h. */
#define SC_IORING_ENTER_GETEVENTS 1u

/* One row's counters, per CPU: each CPU writes only its own copy. */
struct sc_row_counters {
	iodig_u64 calls;     /* calls whose entry and exit were both seen */
	iodig_u64 errors;    /* returned < 0 (EAGAIN, EINTR, ...) */
	iodig_u64 ns_sum;    /* entry -> exit, summed */
	iodig_u64 ns_max;
	iodig_u64 ret_sum;   /* positive returns: iocbs, events, SQEs, bytes */
};

struct sc_counters {
	struct sc_row_counters row[SC_ROW_NR];
	/* entries whose per-thread state could not be had (task storage
	 * busy on this CPU, or the fallback hash full) */
	iodig_u64 state_misses;
	/* exits that did not match the entry recorded for the thread (the
	 * exit of an earlier call was missed): dropped, state reset */
	iodig_u64 mismatched;
};

/* Per-thread "inside a traced call since start_ns" state: a slot of the
 * thread-slot array (or task local storage). */
struct sc_thread_state {
	iodig_u64 start_ns;  /* 0 = not inside a traced call */
	iodig_u64 nr;        /* syscall number at entry, checked at exit */
	iodig_u32 row;
	iodig_u32 tid;       /* owner of a thread slot */
	/* A cache line per slot: threads created together have consecutive
	 * ids, so neighbouring slots are written from different CPUs. */
	iodig_u64 pad[5];
};


/*
 * Thread slots: a thread's state is slot (tid % slots) of a plain array,
 * an address computed inline, cheaper than a task storage get or a hash
 * lookup (docs/overhead.md).  Two traced threads whose ids are equal
 * modulo the slots and inside traced calls at once share a slot: the
 * first one's call is then counted in state_misses, not timed.  This is
 * the default; user/probes/syscalls.c sizes the slots from the job.
 */
#define SC_THREAD_SLOTS 4096

#endif /* IODIG_SYSCALLS_H */
