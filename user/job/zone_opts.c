// SPDX-License-Identifier: GPL-2.0
/* zonemode's cross-option checks and fio's 'Nz' sizes (job/zone_opts.h). */
#include <errno.h>

#include "job/zone_opts.h"

static uint64_t zones_to_bytes(uint64_t *count, uint64_t *bytes,
			       uint64_t zone_size)
{
	if (*count)
		*bytes = *count * zone_size;
	*count = 0;
	return *bytes;
}

void zone_opts_apply(struct job *job, uint64_t zone_size)
{
	struct job_zone_counts *n = &job->zone_counts;
	bool size_in_zones = n->size != 0;

	zones_to_bytes(&n->size, &job->size, zone_size);
	zones_to_bytes(&n->io_size, &job->io_size, zone_size);
	zones_to_bytes(&n->offset, &job->offset, zone_size);
	zones_to_bytes(&n->offset_increment, &job->offset_increment, zone_size);
	zones_to_bytes(&n->skip, &job->zones.skip, zone_size);
	/* fio's io_size defaults to size, which only now has its bytes */
	if (size_in_zones && !job->io_size)
		job->io_size = job->size;
}

int zone_opts_resolve(struct job *job, const char *where, struct errbuf *err)
{
	struct job_zones *z = &job->zones;

	if (job->zonemode == ZONEMODE_NONE && z->size)
		return err_set(err, EINVAL, "%s: zonemode=none and zonesize "
			       "are not compatible (give zonemode=strided or "
			       "zbd)", where);
	if (job->zonemode == ZONEMODE_STRIDED && !z->size)
		return err_set(err, EINVAL, "%s: zonemode=strided needs "
			       "zonesize", where);
	if (job->zonemode == ZONEMODE_STRIDED && !z->range)
		z->range = z->size;
	if (job->zonemode != ZONEMODE_ZBD)
		zone_opts_apply(job, job->zonemode == ZONEMODE_STRIDED ?
				z->size : 0);
	return 0;
}
