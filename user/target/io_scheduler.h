/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's ioscheduler: a disk's I/O scheduler (/sys/block/DISK/queue/
 * scheduler) switched for a job, and the one it had put back when the run
 * ends, so that a run leaves the machine as it found it.
 */
#ifndef IODIG_IO_SCHEDULER_H
#define IODIG_IO_SCHEDULER_H

#include <stdbool.h>

#include "base/errbuf.h"
#include "target/disk_list.h"

#define IO_SCHED_NAME_LEN 64

/* Each disk a run switched: what it had, what the run last gave it. */
struct io_sched_disk {
	char disk[DISK_NAME_LEN];
	char before[IO_SCHED_NAME_LEN]; /* to put back, while switched */
	char used[IO_SCHED_NAME_LEN];   /* the last switch's, kept after */
	bool switched;
};
struct io_sched_state {
	struct io_sched_disk d[DISK_LIST_MAX];
	unsigned int nr;
};

/*
 * Makes @name the scheduler of @disk (a /sys/block name), as fio's
 * set_ioscheduler: writes it, reads the file back and wants "[name]" in
 * it.  The scheduler @disk had before its first switch since the last
 * io_sched_restore() is kept in @st, and @name as the one used.  0 when
 * switched; 1 when the disk cannot switch, fio's two cases that are no
 * error (no scheduler file; "none" alone, not tunable), with fio's
 * message in @err; -EINVAL when the kernel has no such scheduler, with the
 * ones it has in @err; else -errno.
 */
int io_sched_switch(struct io_sched_state *st, const char *disk,
		    const char *name, struct errbuf *err);

/* Puts back the scheduler of every disk @st has switched; all are
 * tried.  The names used stay in @st.  0, or the first failure's -errno
 * with @err naming the disk. */
int io_sched_restore(struct io_sched_state *st, struct errbuf *err);

#endif /* IODIG_IO_SCHEDULER_H */
