// SPDX-License-Identifier: GPL-2.0
/*
 * A job's files, named and sized fio's way (nrfiles, filesize, the
 * jobname.clone.file names), for the runner that lays them out and the
 * engines that reach each of them.
 */
#include <errno.h>
#include <stdio.h>

#include "workload/files.h"
#include "workload/worker.h"

bool job_engine_takes_files(const struct job *job)
{
	return job->engine->flags & (ENGINE_DISKLESS | ENGINE_FILE_OPS);
}

int job_check_files(const struct job *job, const char *where,
		    struct errbuf *err)
{
	if (job->nrfiles > 1 && !job->filename[0] && !job_engine_takes_files(job))
		return err_set(err, ENOTSUP, "%s: nrfiles=%u: ioengine=%s does "
			       "its I/O on one file per job in iodig (fio "
			       "spreads it over the files); only null and the "
			       "file-operation engines take more than one",
			       where, job->nrfiles, job->engine->name);
	return 0;
}

int job_file_name(const struct job *job, unsigned int clone, unsigned int k,
		  char *buf, size_t len)
{
	const char *dir = job->directory[0] ? job->directory : ".";

	if ((size_t)snprintf(buf, len, "%s/%s.%u.%u", dir, job->name, clone,
			     k) >= len)
		return -ENAMETOOLONG;
	return 0;
}

int job_file_sizes(const struct job *job, unsigned int nr,
		   uint64_t *file_size, uint64_t *region)
{
	if (job->filesize) {
		*file_size = job->filesize;
		*region = job->filesize * nr;
	} else if (job->size) {
		*file_size = job->size / nr;
		*region = *file_size * nr;
	} else {
		return -ENODATA;
	}
	return 0;
}

int worker_file_path(const struct worker *w, unsigned int k, char *buf,
		     size_t len)
{
	if (w->nr_files <= 1) {
		if ((size_t)snprintf(buf, len, "%s", w->path) >= len)
			return -ENAMETOOLONG;
		return 0;
	}
	return job_file_name(w->job, w->clone_index, k, buf, len);
}
