/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The I/O engine interface, after fio's ioengine_ops: the runner fills an
 * io_unit, calls queue(), commits batches and reaps completions.  A sync
 * engine does the I/O inside queue() and returns IO_COMPLETED; it needs no
 * commit or getevents (unless it holds I/Os for commit(), as vsync does to
 * merge them).
 */
#ifndef IODIG_ENGINE_H
#define IODIG_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/errbuf.h"
#include "base/option.h"
#include "workload/job.h"

struct worker;
struct zbd_dev_ops;

enum io_result {
	IO_COMPLETED, /* done inside queue(); result is set */
	IO_QUEUED,    /* held by the engine until commit() */
	IO_BUSY,      /* no room: the runner must reap first */
};

/* A unit that carries a sync of its file instead of data (fio's
 * DDIR_SYNC, DDIR_DATASYNC and DDIR_SYNC_FILE_RANGE io_u: fsync=,
 * fdatasync= and sync_file_range=). */
enum io_sync { IO_SYNC_NONE, IO_SYNC_FSYNC, IO_SYNC_DATASYNC, IO_SYNC_FILE_RANGE };

struct io_unit {
	void *buf;
	uint64_t offset;
	uint32_t len;
	enum ddir ddir;
	uint64_t start_ns;  /* CLOCK_MONOTONIC when handed to queue() */
	uint64_t issue_ns;  /* when the submitting call returned */
	int64_t result;     /* bytes transferred or -errno */
	unsigned int index; /* position in worker->units, also its buffer */
	int fd;             /* the file this I/O goes to (ENGINE_UNIT_FD) */
	unsigned int file;  /* its index among the job's files */
	struct io_unit *next_free;
	void *engine_priv;  /* per-unit engine state (e.g. a struct iocb) */
	/* io_submit_mode=offload: when its submit thread saw it complete
	 * (workload/offload.c); 0: the completion time is when it is reaped. */
	uint64_t done_ns;
	/* The priority the engine gave this I/O (cmdprio, the kernel's
	 * ioprio value); 0: none, the task's applies. */
	uint16_t ioprio;
	/* Its entry in the worker's latency per priority (prio_stats.h). */
	uint8_t prio_index;
	/* A trim of an engine with multi-range trims (trim_ranges > 1):
	 * its ranges, as struct trim_range in buf; len is their sum and
	 * offset the last one's, as in fio's io_u.  0: one range, offset
	 * and len. */
	unsigned int nr_ranges;
	/* Queued to the engine and not yet completed (serialize_overlap). */
	bool in_flight;
	/* Not IO_SYNC_NONE: a sync of fd, queued beside the I/O in flight
	 * by an engine with ENGINE_QUEUED_SYNC; buf and ddir mean nothing
	 * then, offset and len are IO_SYNC_FILE_RANGE's range. */
	enum io_sync sync;
};

/* One range of a multi-range trim (fio's struct trim_range), in bytes
 * from the start of the target.  At most TRIM_RANGES_MAX fill a unit's
 * buffer, which workload/io_units.c makes large enough for them. */
struct trim_range {
	uint64_t start;
	uint64_t len;
};
#define TRIM_RANGES_MAX 256u
_Static_assert(TRIM_RANGES_MAX * sizeof(struct trim_range) <= 4096,
	       "a unit's buffer (a page or more) holds a trim's ranges");

/* fio's FIO_SYNCIO: each I/O is a system call on the worker's thread, so
 * there is no submission latency.  queue() completes the I/O, or holds it
 * for commit(), which then does it (vsync merges adjacent I/Os so). */
#define ENGINE_SYNC     (1u << 0)
#define ENGINE_MMAP     (1u << 1) /* the engine maps the file itself */
/* fio's FIO_DISKLESSIO: the job's files are neither checked for size nor
 * laid out nor guarded, and the worker opens none (w->fd is -1); the job
 * needs size=. */
#define ENGINE_DISKLESS (1u << 2)
/* fio's null: a sync engine (ENGINE_SYNC) only when iodepth is 1. */
#define ENGINE_SYNC_AT_DEPTH1 (1u << 3)
/* fio's open_file replaced by one operation on each file (create, stat,
 * delete ...): the worker opens nothing; the job's files are served as
 * any job's (workload/file_service.h) and the engine's open_file() does
 * the operation when the job first reaches a file.  As fio's FIO_NOSTATS,
 * the I/O units are only counted; the job's latencies are the timed
 * operations, as completion latencies. */
#define ENGINE_FILE_OPS (1u << 4)
/* The worker opens the file read-write whatever the job's direction
 * (falloc: fallocate needs a writable file even for rw=read). */
#define ENGINE_RDWR     (1u << 5)

/* The engine issues trims itself (null completes them, falloc punches a
 * hole); the worker discards for every other engine (workload/trim.h). */
#define ENGINE_OWN_TRIM (1u << 7)

/* Each I/O goes to io_unit.fd, not worker.fd: the engine spreads a job's
 * I/O over several files (filename=a:b, nrfiles), as fio's engines do. */
#define ENGINE_UNIT_FD  (1u << 6)

/* The engine writes with RWF_ATOMIC when the job says atomic=1
 * (engine_rw_atomic in engines/shared.h). */
#define ENGINE_ATOMIC   (1u << 8)

/* The engine's I/O are SCSI commands (SG_IO), which bypass the page
 * cache: the worker opens the device without O_DIRECT whatever direct=
 * says, as libzbc does (a SCSI generic device refuses O_DIRECT). */
#define ENGINE_NO_ODIRECT (1u << 9)

/* queue() takes sync units (io_unit.sync) and completes them as any I/O,
 * as fio's io_uring (IORING_OP_FSYNC) and posixaio (aio_fsync) queue
 * DDIR_SYNC beside the writes in flight. */
#define ENGINE_QUEUED_SYNC (1u << 10)

/* The engine wants its buffers aligned to iomem_align past a page, as
 * fio's FIO_RAWIO and FIO_MEMALIGN engines do (workload/io_mem.c). */
#define ENGINE_ALIGNED_BUFFERS (1u << 11)

/* Each flag its own bit (two once shared one: atomic engines trimmed as
 * if they issued trims themselves). */
#define ENGINE_ALL_FLAGS (ENGINE_SYNC | ENGINE_MMAP | ENGINE_DISKLESS |		\
			  ENGINE_SYNC_AT_DEPTH1 | ENGINE_FILE_OPS | ENGINE_RDWR |	\
			  ENGINE_OWN_TRIM | ENGINE_UNIT_FD | ENGINE_ATOMIC |	\
			  ENGINE_NO_ODIRECT | ENGINE_QUEUED_SYNC |		\
			  ENGINE_ALIGNED_BUFFERS)
_Static_assert(__builtin_popcount(ENGINE_ALL_FLAGS) == 12, "engine flags share a bit");

/* A device an engine drives by commands of its own (NVMe or SCSI generic
 * passthrough), as its inspect_device() finds it. */
struct engine_device {
	uint64_t size;           /* bytes the commands reach */
	unsigned int block_size; /* the device's logical block */
	char disk[64];           /* the block disk behind it ("nvme0n1"),
				  * "" when it has none */
};

/* One array of w->nr_units elements in an engine's state: where the
 * state keeps its pointer and how big one element is. */
struct engine_array {
	size_t ptr_offset;
	size_t elem_size;   /* 0 ends a list */
};
#define ENGINE_ARRAY(type, field)					\
	{ offsetof(type, field), sizeof(*((type *)0)->field) }

struct engine_ops {
	const char *name;
	unsigned int flags;
	/* Optional: the engine's state, which the worker allocates zeroed
	 * as worker->engine_data before init() and frees after cleanup()
	 * (or after a failed init()): its size, and the arrays of nr_units
	 * elements in it, allocated with it (ENGINE_STATE).  0: the engine
	 * allocates what it needs itself, in init(), and frees it in
	 * cleanup(). */
	size_t state_size;
	const struct engine_array *state_arrays;
	/* Optional: after the target is open, buffers and state allocated;
	 * an engine without state_size may set worker->engine_data. */
	int (*init)(struct worker *w, struct errbuf *err);
	/* Optional: per-unit setup before queue(). */
	int (*prep)(struct worker *w, struct io_unit *u);
	enum io_result (*queue)(struct worker *w, struct io_unit *u);
	/* Submits queued units; sets issue_ns of each submitted unit and
	 * returns how many were submitted, or -errno. */
	int (*commit)(struct worker *w);
	/* Waits for at least @min (may be 0) and at most @max completions
	 * (posixaio, null and vsync: every finished one, as fio's, never
	 * more than are in flight) and stores the units, result set, in
	 * @done[0..n): returns n, or -errno. */
	int (*getevents)(struct worker *w, unsigned int min, unsigned int max,
			 struct io_unit **done);
	/* Optional: undoes what a successful init did. */
	void (*cleanup)(struct worker *w);

	/* The engine's own job options (fio's ioengine_ops.options), ended
	 * by a NULL name; NULL when it has none.  Their storage is the
	 * engine's struct in job->engine_opts (see ENGINE_OPTS_FIT). */
	const struct opt_desc *options;
	/* Optional: checks the engine's options against the rest of the job
	 * once they are parsed (hipri needs direct=1); @where names the job. */
	int (*check_job)(const struct job *job, const char *where,
			 struct errbuf *err);
	/* Optional, for an engine that drives its device by commands: the
	 * runner's inspection of @path before anything is laid out.  1 with
	 * @dev filled: a device the engine drives; 0: the runner inspects
	 * @path as any target (sg takes block devices); -errno with the
	 * reason: the engine cannot drive @path. */
	int (*inspect_device)(const char *path, struct engine_device *dev,
			      struct errbuf *err);
	/* Optional, for an engine that trims several ranges per command
	 * (fio's FIO_MULTI_RANGE_TRIM): how many one trim of @job carries,
	 * 1 to TRIM_RANGES_MAX (fio's num_range).  NULL: one. */
	unsigned int (*trim_ranges)(const struct job *job);
	/* Optional, for an engine that drives a zoned device by commands
	 * (fio's report_zones, reset_wp, get_max_open_zones): how
	 * zonemode=zbd reaches the zones; NULL: the kernel's ioctls. */
	const struct zbd_dev_ops *zone_ops;
	/* Optional, for an engine that issues syncs itself (fio's
	 * DDIR_SYNC/DDIR_DATASYNC in queue(), io_uring's IORING_OP_FSYNC):
	 * with nothing in flight, syncs file @file (descriptor @fd) and waits
	 * for it; 0 or -errno.  NULL: the worker calls fsync(2)/fdatasync(2). */
	int (*sync_file)(struct worker *w, int fd, unsigned int file, bool datasync);
	/* Optional, for ENGINE_FILE_OPS (fio's open_file): the job reaches
	 * file @file in pass @pass over its files, whether or not an I/O
	 * fits in it then; fio opens a file at its first reach in a pass (it
	 * closes each file once done).  1 when the engine timed an operation
	 * there (*@op_ns), 0 when it did none (the file is open), -errno when
	 * it failed (the engine set the worker's error). */
	int (*open_file)(struct worker *w, unsigned int file, unsigned int pass,
			 uint64_t *op_ns);
};

/* Defines <@name>_engine, the engine fio calls @name, with @flags and the
 * rest of its table (callbacks, options, checks) as designated
 * initializers: the name is written once, as the symbol. */
#define ENGINE_DEFINE(name_, flags_, ...)				\
	ENGINE_DEFINE_NAMED(name_, #name_, flags_, __VA_ARGS__)
/* The same for an engine whose fio name is no C identifier ("dev-dax"):
 * symbol <@sym>_engine, fio name @fio_name, listed with ENGINE_NAMED. */
#define ENGINE_DEFINE_NAMED(sym, fio_name, flags_, ...)			\
	const struct engine_ops sym##_engine = {			\
		.name = fio_name, .flags = (flags_), __VA_ARGS__	\
	}

/* The state of an engine, struct @type; ENGINE_STATE_ARRAYS adds its
 * per-unit arrays, the pointer fields of @type named after it (one to
 * four). */
#define ENGINE_STATE(type) .state_size = sizeof(type)
#define ENGINE_STATE_ARRAYS(type, ...)					\
	ENGINE_STATE(type),						\
	.state_arrays = (const struct engine_array[]){			\
		ENGINE_ARRAYS_CAT(ENGINE_ARRAYS_,			\
				  ENGINE_ARRAYS_COUNT(__VA_ARGS__))	\
			(type, __VA_ARGS__), { 0, 0 } }
#define ENGINE_ARRAYS_1(t, a) ENGINE_ARRAY(t, a)
#define ENGINE_ARRAYS_2(t, a, ...) ENGINE_ARRAY(t, a), ENGINE_ARRAYS_1(t, __VA_ARGS__)
#define ENGINE_ARRAYS_3(t, a, ...) ENGINE_ARRAY(t, a), ENGINE_ARRAYS_2(t, __VA_ARGS__)
#define ENGINE_ARRAYS_4(t, a, ...) ENGINE_ARRAY(t, a), ENGINE_ARRAYS_3(t, __VA_ARGS__)
#define ENGINE_ARRAYS_COUNT(...) ENGINE_ARRAYS_NTH(__VA_ARGS__, 4, 3, 2, 1, 0)
#define ENGINE_ARRAYS_NTH(a, b, c, d, n, ...) n
#define ENGINE_ARRAYS_CAT(a, b) ENGINE_ARRAYS_CAT_(a, b)
#define ENGINE_ARRAYS_CAT_(a, b) a##b

/* The callbacks of an engine with state, from the names its file gives
 * them: <@p>_init, <@p>_queue and <@p>_cleanup; ENGINE_QUEUEING_OPS adds
 * <@p>_commit and <@p>_getevents for one that holds I/Os.  The rest of
 * the table stays written out beside it. */
#define ENGINE_STATE_OPS(p)						\
	.init = p##_init, .queue = p##_queue, .cleanup = p##_cleanup
#define ENGINE_QUEUEING_OPS(p)						\
	ENGINE_STATE_OPS(p), .commit = p##_commit, .getevents = p##_getevents

/* An engine's options struct must fit struct job's engine_opts area. */
#define ENGINE_OPTS_FIT(type)                                                \
	_Static_assert(sizeof(type) <= JOB_ENGINE_OPTS_SIZE &&               \
		       _Alignof(type) <= _Alignof(max_align_t),              \
		       #type " does not fit struct job's engine_opts")

/* The job's engine options, as the engine's own struct. */
static inline const void *engine_opts_of(const struct job *job)
{
	return job->engine_opts;
}

/* Allocates the state @w's engine declares (state_size) as
 * w->engine_data; -ENOMEM naming the engine.  Nothing for an engine
 * without one. */
int engine_state_new(struct worker *w, struct errbuf *err);
/* Frees what engine_state_new allocated; NULL or none is fine. */
void engine_state_free(struct worker *w);
/* Gives unit i element i of @array (elements of @elem bytes) as its
 * engine_priv: a per-unit request struct (iocb, aiocb) in the state. */
void engine_units_priv(struct worker *w, void *array, size_t elem);

/* Looks up an engine by its fio name; NULL when unknown. */
const struct engine_ops *engine_find(const char *name);
/* Whether @job's engine counts as fio's FIO_SYNCIO for @job (no
 * submission latency): ENGINE_SYNC, or ENGINE_SYNC_AT_DEPTH1 at iodepth=1. */
bool engine_is_sync(const struct job *job);
/* The i-th engine of the list; NULL past the last. */
const struct engine_ops *engine_at(size_t i);
/* Comma-separated list of engine names, for help and errors. */
const char *engine_names(void);
/* Checks that every engine in the list provides what its flags require
 * and that its option table is sound (names, help, one type per name,
 * room in struct job); returns -EINVAL naming the engine otherwise. */
int engines_check(struct errbuf *err);

#endif /* IODIG_ENGINE_H */
