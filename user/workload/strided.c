// SPDX-License-Identifier: GPL-2.0
/* zonemode=strided's zone base (workload/strided.h). */
#include <string.h>

#include "workload/strided.h"

void strided_init(struct strided *z, const struct job *job, uint64_t file_len)
{
	memset(z, 0, sizeof(*z));
	if (job->zonemode != ZONEMODE_STRIDED || !job->zones.size)
		return;
	z->on = true;
	z->size = job->zones.size;
	z->range = job->zones.range ? job->zones.range : job->zones.size;
	z->skip = job->zones.skip;
	z->file_len = file_len;
}

bool strided_enter(struct strided *z, bool *moved)
{
	*moved = false;
	if (z->bytes >= z->size) {
		z->bytes = 0;
		z->base += z->range + z->skip;
		/* fio wraps to the job's offset past the file's end */
		if (z->base >= z->file_len)
			z->base = 0;
		*moved = true;
	}
	return z->bytes % z->range == 0;
}
