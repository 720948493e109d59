// SPDX-License-Identifier: GPL-2.0
/* After fio 3.33's fixup_options and option callbacks for verify and
 * buffer contents. */
#include <errno.h>

#include "workload/checksums.h"
#include "workload/engine.h"
#include "workload/verify.h"
#include "workload/verify_opts.h"

static void resolve_buffers(struct job *job)
{
	if (job->buffer_compress_percentage == 100) {
		job->zero_buffers.on = true;
		job->scramble_buffers.on = false;
		job->buffer_compress_percentage = 0;
	} else if (job->buffer_compress_percentage && !job->refill_buffers.given) {
		job->refill_buffers.on = true;
	}
	if (job->dedupe_percentage)
		job->refill_buffers.on = true;
	if (job->verify != VERIFY_NONE && !job->refill_buffers.given)
		job->refill_buffers.on = true;
}

/* fio: a variable write size takes its smallest as the interval, and the
 * interval never exceeds the smallest write (or read) block. */
static void resolve_interval(struct job *job)
{
	uint64_t *iv = &job->verify_interval;
	uint32_t wmin = job->bs_min[DDIR_WRITE], rmin = job->bs_min[DDIR_READ];

	if (wmin != job->bs_max[DDIR_WRITE] && !*iv)
		*iv = wmin;
	if (*iv > wmin)
		*iv = wmin;
	else if (rw_has_read(job->rw) && *iv > rmin)
		*iv = rmin;
}

static int check_layout(const struct job *job, const char *where,
			struct errbuf *err)
{
	const char *name = verify_mode_name(job->verify);
	uint32_t wmin = job->bs_min[DDIR_WRITE];
	uint64_t iv = job->verify_interval ? job->verify_interval : wmin;
	unsigned int hsz = verify_hdr_size(job->verify);

	if (job->verify_interval && (wmin % iv || job->bs_max[DDIR_WRITE] % iv))
		return err_set(err, EINVAL, "%s: verify_interval %llu does not "
			       "divide the write block size %u", where,
			       (unsigned long long)iv, job->bs_max[DDIR_WRITE]);
	if (job->verify != VERIFY_NULL && iv <= hsz)
		return err_set(err, EINVAL, "%s: a %llu-byte block or verify_interval "
			       "has no room for verify=%s's %u-byte header", where,
			       (unsigned long long)iv, name, hsz);
	if (job->verify_offset && job->verify_offset < VERIFY_HDR_LEN)
		return err_set(err, EINVAL, "%s: verify_offset %llu is out of range "
			       "(%d min, the header's size)", where,
			       (unsigned long long)job->verify_offset,
			       VERIFY_HDR_LEN);
	if (job->verify_offset && job->verify_offset + hsz > iv)
		return err_set(err, EINVAL, "%s: verify_offset %llu puts verify=%s's "
			       "%u-byte header past the end of a %llu-byte interval",
			       where, (unsigned long long)job->verify_offset, name,
			       hsz, (unsigned long long)iv);
	return 0;
}

int verify_opts_resolve(struct job *job, const char *where, struct errbuf *err)
{
	bool has_pattern = job->verify_pattern.len != 0;
	int ret;

	if (has_pattern && !job->verify_set)
		job->verify = VERIFY_PATTERN;
	resolve_buffers(job);
	if (job->verify == VERIFY_NONE)
		return 0;
	/* fio's null engine (FIO_FAKEIO) does the verify reads and checks
	 * nothing, which is verify=null's meaning */
	if (job->engine && (job->engine->flags & ENGINE_DISKLESS))
		job->verify = VERIFY_NULL;
	if ((job->verify == VERIFY_PATTERN ||
	     job->verify == VERIFY_PATTERN_NO_HDR) && !has_pattern)
		return err_set(err, EINVAL, "%s: verify=pattern needs verify_pattern",
			       where);
	if (job->verify_only && job->time_based)
		return err_set(err, EINVAL, "%s: verify_only replays the job's writes, "
			       "which time_based leaves open-ended", where);
	resolve_interval(job);
	ret = csum_open(job->verify, where, err);
	return ret ? ret : check_layout(job, where, err);
}
