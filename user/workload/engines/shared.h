/* SPDX-License-Identifier: GPL-2.0 */
/* What several engines do the same way, written once. */
#ifndef IODIG_ENGINES_SHARED_H
#define IODIG_ENGINES_SHARED_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/errbuf.h"
#include "workload/engine.h"
#include "workload/job.h"

struct worker;

/* Option table entries several engines share, over the engine's options
 * struct @opts_t: hipri in @field (help says what polls it), nowait and the
 * FUA pair in the bools of their names. */
#define ENGINE_OPT_HIPRI(opts_t, field, help_)				\
	{ .name = "hipri", .type = OPT_BOOL, .flags = OPT_BARE,		\
	  OPT_FIELD(opts_t, field), .help = help_ }
#define ENGINE_OPT_NOWAIT(opts_t)						\
	{ .name = "nowait", .type = OPT_BOOL, OPT_FIELD(opts_t, nowait),	\
	  .help = "RWF_NOWAIT: fail instead of blocking" }
#define ENGINE_OPTS_FUA(opts_t)						\
	{ .name = "readfua", .type = OPT_BOOL, OPT_FIELD(opts_t, readfua),	\
	  .help = "Force Unit Access on every read command" },		\
	{ .name = "writefua", .type = OPT_BOOL, OPT_FIELD(opts_t, writefua), \
	  .help = "Force Unit Access on every write command" }

/* hipri=1 asks the kernel to poll for completions, which it does only for
 * O_DIRECT I/O: the check_job of every engine that takes hipri. */
int engine_check_hipri(bool hipri, const struct job *job, const char *where,
		       struct errbuf *err);

/* -EINVAL for uncached=N (N > 0) with buffered I/O: fio 3.33 then puts
 * its RWF_UNCACHED (0x40) in each I/O, a flag the kernel never took; with
 * direct=1 fio sends nothing, so neither does iodig. */
int engine_check_uncached(unsigned int uncached, const struct job *job,
			  const char *where, struct errbuf *err);

/* linux/fs.h's since 6.11; older headers lack it. */
#ifndef RWF_ATOMIC
#define RWF_ATOMIC 0x00000040
#endif

/* atomic=1 (fio 3.38): each write of the job is untorn, RWF_ATOMIC. */
static inline int engine_rw_atomic(const struct job *job, const struct io_unit *u)
{
	return job->atomic && u->ddir == DDIR_WRITE ? RWF_ATOMIC : 0;
}

/* A system call's return as an I/O result: bytes transferred or -errno. */
static inline int64_t engine_result(ssize_t ret)
{
	return ret < 0 ? -errno : ret;
}

/* The one system call a sync engine makes for @u on @fd: the bytes done,
 * or -1 with errno set. */
typedef ssize_t engine_syscall_fn(int fd, const struct io_unit *u);

/* queue() of an engine whose I/O is @call on the unit's file: restarted
 * on EINTR, its return the unit's result, completed at once. */
enum io_result engine_syscall_queue(struct io_unit *u, engine_syscall_fn *call);

/* Defines @engine##_engine, the sync engine fio calls @engine, whose every
 * I/O is the system call @call (engine_syscall_queue): that call is all
 * that differs between these engines.  @flags adds to ENGINE_SYNC; @init
 * and @check_job may be NULL. */
#define SYSCALL_ENGINE(engine, call, flags_, init_, check_job_)        \
	static enum io_result engine##_queue(struct worker *w,          \
					     struct io_unit *u)         \
	{                                                               \
		(void)w;                                                \
		return engine_syscall_queue(u, (call));                 \
	}                                                               \
	const struct engine_ops engine##_engine = {                     \
		.name = #engine,                                        \
		.flags = ENGINE_SYNC | (flags_),                        \
		.init = init_,                                          \
		.queue = engine##_queue,                                \
		.check_job = check_job_,                                \
	}

/* Bounds getevents(@min, @max) to an engine's @cap (the size of its
 * event array): no more than @cap reaped, no more waited for than may be
 * reaped. */
static inline void engine_reap_bounds(unsigned int *min, unsigned int *max,
				      unsigned int cap)
{
	if (*max > cap)
		*max = cap;
	if (*min > *max)
		*min = *max;
}

/* One blocking preadv2/pwritev2 of @u on @fd with @rwf (RWF_* flags).
 * Bytes transferred or -errno. */
int64_t engine_rw2(int fd, const struct io_unit *u, int rwf);

/* RWF_NOWAIT answered -EAGAIN: counts it and does the I/O again on this
 * thread, blocking, with @rwf (the other flags), so the unit completes
 * exactly once and the job moves on. */
void engine_nowait_retry(struct worker *w, struct io_unit *u, int rwf);

/* -EOPNOTSUPP naming @engine when the job would write buffered to a block
 * device with RWF_NOWAIT, which the kernel refuses for every write. */
int engine_refuse_nowait_writes(struct worker *w, const char *engine,
				struct errbuf *err);

/* A page-aligned buffer for one read of the job's smallest block (at most
 * the region) at the region's start: the probe read of hipri and nowait.
 * Sets *@len; NULL when out of memory. */
void *engine_probe_buf(const struct worker *w, uint32_t *len);

/* -EINVAL naming @engine unless the worker's target is a regular file:
 * what ftruncate and falloc change (file size, allocation) a block device
 * does not have. */
int engine_need_regular_file(struct worker *w, const char *why,
			     struct errbuf *err);

/* -EINVAL for a job with verify=, the check_job of engines whose writes
 * carry no data to read back (fio skips verify for them silently). */
int engine_refuse_verify(const struct job *job, const char *where,
			 struct errbuf *err);

/* The mapping a mapping engine's (page_fault, libpmem, dev-dax) I/O is a
 * copy to or from: @len bytes at @addr, whose first byte stands for the
 * target's offset @off. */
struct engine_map {
	char *addr;
	size_t len;
	uint64_t off;
};

/* How such an engine stores a write's @len bytes at @dst: a memcpy, or a
 * pmem copy that makes them persistent (@flags: the engine's own). */
typedef void engine_map_store_fn(void *dst, const void *src, size_t len,
				 unsigned int flags);
/* The store that is a memcpy. */
engine_map_store_fn engine_map_memcpy;

/* queue() of a mapping engine: a write stored by @store with @flags, a
 * read copied out; completed at once, -EINVAL when @u is not wholly
 * inside @m. */
enum io_result engine_map_io(struct io_unit *u, const struct engine_map *m,
			     engine_map_store_fn *store, unsigned int flags);

/* munmap()s @m when it is mapped: the cleanup of a mapping from mmap(). */
void engine_map_unmap(struct engine_map *m);

#endif /* IODIG_ENGINES_SHARED_H */
