/* SPDX-License-Identifier: GPL-2.0 */
/* Resolving and checking a job's verify and buffer content options. */
#ifndef IODIG_VERIFY_OPTS_H
#define IODIG_VERIFY_OPTS_H

#include "base/errbuf.h"
#include "workload/job.h"

/* Applies what fio's option fixup does (verify_pattern alone means
 * verify with header and pattern, verify turns refill_buffers on, a 100%
 * compressible buffer is zeros, the verify interval defaults to the
 * smallest write) and refuses what cannot work, where fio would corrupt
 * memory or abort: a header larger than the interval, an interval that
 * does not divide the block size, a verify_offset past the interval,
 * verify=pattern without a pattern, verify_only with time_based.
 * Errors start with @where. */
int verify_opts_resolve(struct job *job, const char *where, struct errbuf *err);

#endif /* IODIG_VERIFY_OPTS_H */
