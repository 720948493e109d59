/* SPDX-License-Identifier: GPL-2.0 */
/* What several engines do the same way, written once. */
#ifndef IODIG_ENGINES_SHARED_H
#define IODIG_ENGINES_SHARED_H

#include <stdbool.h>

#include "base/errbuf.h"
#include "workload/job.h"

/* hipri=1 asks the kernel to poll for completions, which it does only for
 * O_DIRECT I/O: the check_job of every engine that takes hipri. */
int engine_check_hipri(bool hipri, const struct job *job, const char *where,
		       struct errbuf *err);

#endif /* IODIG_ENGINES_SHARED_H */
