// SPDX-License-Identifier: GPL-2.0
/* zonemode=zbd's zone size and region (run/zbd_prepare.h). */
#include <errno.h>
#include <string.h>

#include "job/zone_opts.h"
#include "run/zbd_prepare.h"
#include "target/zoned.h"

/* The zone size the job's zones have, into *@zs. */
static int zone_size(const struct job *job, const struct job_target *t,
		     uint64_t *zs, struct errbuf *err)
{
	char model[32] = "none";

	if (target_zoned_model(&t->info, model, sizeof(model)) || !strcmp(model, "none")) {
		/* fio emulates zones of zonesize on any other target */
		*zs = job->zones.size;
		if (*zs)
			return 0;
		return err_set(err, EINVAL, "%s:%d: job '%s': zonemode=zbd: %s is not a zoned block device%s%s%s, and fio needs zonesize= to emulate zones on it",
			job->source, job->source_line, job->name, t->path,
			t->info.is_blockdev ? " (queue/zoned: " : "",
			t->info.is_blockdev ? model : "",
			t->info.is_blockdev ? ")" : "");
	}
	*zs = target_zone_size(&t->info);
	if (!*zs)
		return err_set(err, EIO, "%s:%d: job '%s': zonemode=zbd: %s is zoned (%s) but its zone size cannot be read",
			job->source, job->source_line, job->name, t->path, model);
	if (job->zones.size && job->zones.size != *zs)
		return err_set(err, EINVAL, "%s:%d: job '%s': zonemode=zbd: zonesize %llu does not match %s's zone size %llu",
			job->source, job->source_line, job->name,
			(unsigned long long)job->zones.size, t->path,
			(unsigned long long)*zs);
	return 0;
}

int zbd_prepare_zones(struct job *job, const struct job_target *t,
		      struct errbuf *err)
{
	uint64_t zs = 0;
	int ret;

	if (job->zonemode != ZONEMODE_ZBD)
		return 0;
	ret = zone_size(job, t, &zs, err);
	if (ret)
		return ret;
	job->zones.size = zs;
	zone_opts_apply(job, zs);
	return 0;
}

int zbd_prepare_region(const struct job *job, struct job_target *t,
		       struct errbuf *err)
{
	uint64_t zs = job->zones.size, start, end;

	if (job->zonemode != ZONEMODE_ZBD || !rw_has_write(job->rw))
		return 0;
	start = (t->region_start + zs - 1) / zs * zs;
	end = (t->region_start + t->region_len) / zs * zs;
	if (end <= start)
		return err_set(err, EINVAL, "%s:%d: job '%s': zonemode=zbd: a writing job needs at least one whole zone (%llu bytes) between offset and size",
			       job->source, job->source_line, job->name,
			       (unsigned long long)zs);
	t->region_start = start;
	t->region_len = end - start;
	return 0;
}
