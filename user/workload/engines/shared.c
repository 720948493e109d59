// SPDX-License-Identifier: GPL-2.0
/* What several engines do the same way, written once. */
#include <errno.h>

#include "workload/engines/shared.h"

int engine_check_hipri(bool hipri, const struct job *job, const char *where,
		       struct errbuf *err)
{
	if (hipri && !job->direct)
		return err_set(err, EINVAL, "%s: hipri needs direct=1: the "
			       "kernel polls only O_DIRECT I/O", where);
	return 0;
}
