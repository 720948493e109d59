// SPDX-License-Identifier: GPL-2.0
/*
 * fio's cgroup options, with the group's life the supervisor's: fio's job
 * makes its group and fio's main process removes it; here the supervisor
 * does both, so that a run that fails or is stopped removes what it made.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <mntent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/cgroup_jobs.h"
#include "run/run.h"
#include "workload/io_loop.h"

/* fio's find_cgroup_mnt: the first cgroup v1 mount with blkio, or
 * cgroup2, in /proc/mounts. */
static int find_mount(struct cgroup_jobs *cg, struct errbuf *err)
{
	FILE *f = setmntent("/proc/mounts", "re");
	struct mntent *m, ent;
	char buf[1024];
	int ret = -ENOENT;

	if (!f)
		return err_set(err, errno, "option 'cgroup': cannot read /proc/mounts: %s",
			       strerror(errno));
	while (ret && (m = getmntent_r(f, &ent, buf, sizeof(buf)))) {
		bool v1 = !strcmp(m->mnt_type, "cgroup") && strstr(m->mnt_opts, "blkio");

		if (!v1 && strcmp(m->mnt_type, "cgroup2"))
			continue;
		snprintf(cg->mount, sizeof(cg->mount), "%s", m->mnt_dir);
		cg->v2 = !v1;
		ret = 0;
	}
	endmntent(f);
	if (ret)
		return err_set(err, ENOENT, "option 'cgroup': neither a cgroup blkio hierarchy nor "
			       "cgroup2 is mounted");
	return 0;
}

static int write_weight(const char *dir, unsigned int weight, struct errbuf *err)
{
	char path[PATH_MAX + 16], num[16];
	int fd, len, ret = 0;

	snprintf(path, sizeof(path), "%s/blkio.weight", dir);
	len = snprintf(num, sizeof(num), "%u", weight);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return err_set(err, ENOENT, "option 'cgroup_weight': %s has no blkio.weight: this "
			       "kernel's blkio controller has none (bfq's is blkio.bfq.weight), and fio "
			       "3.33 fails the job too", dir);
	if (fd < 0 || write(fd, num, (size_t)len) < 0)
		ret = err_set(err, errno, "option 'cgroup_weight': cannot write %u to %s: %s",
			      weight, path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return ret;
}

/* Job @j's group, made or found, its weight set; 0 or -errno. */
static int setup_job(struct run_ctx *ctx, size_t j, const struct job *job, bool thread,
		     struct errbuf *err)
{
	struct cgroup_jobs *cg = &ctx->cgroups;
	struct cgroup_place *p = &cg->places[j];
	int ret = cg->mount[0] ? 0 : find_mount(cg, err);

	if (ret)
		return ret;
	if (cg->v2 && job->cgroup_weight)
		return err_set(err, ENOTSUP, "option 'cgroup_weight': the cgroup hierarchy is "
			       "cgroup2 (%s), where fio 3.33 sets no weight (it skips the job)",
			       cg->mount);
	if (cg->v2 && thread)
		return err_set(err, ENOTSUP, "option 'cgroup': cgroup2 (%s) moves whole processes, "
			       "and a thread=1 worker is one of iodig's threads", cg->mount);
	snprintf(p->root, sizeof(p->root), "%s", cg->mount);
	if ((size_t)snprintf(p->dir, sizeof(p->dir), "%s/%s", cg->mount, job->cgroup) >=
	    sizeof(p->dir))
		return err_set(err, ENAMETOOLONG, "option 'cgroup': the path of '%.64s' is too long",
			       job->cgroup);
	p->v2 = cg->v2;
	if (mkdir(p->dir, 0755) == 0)
		cg->made[j] = true;
	else if (errno != EEXIST)
		return err_set(err, errno, "option 'cgroup': cannot create %s: %s", p->dir,
			       strerror(errno));
	return job->cgroup_weight ? write_weight(p->dir, job->cgroup_weight, err) : 0;
}

void cgroup_jobs_setup(struct run_ctx *ctx, unsigned int first, unsigned int count)
{
	struct cgroup_jobs *cg = &ctx->cgroups;
	struct errbuf err = { { 0 } };
	size_t last = SIZE_MAX;
	int ret = 0;

	for (unsigned int i = first; i < first + count; i++) {
		struct worker *w = &ctx->workers[i];

		if (!w->job->cgroup[0] || w->stats->done)
			continue;
		if (!cg->places) {
			cg->places = calloc(ctx->jobs.count, sizeof(*cg->places));
			cg->made = calloc(ctx->jobs.count, sizeof(*cg->made));
		}
		if (!cg->places || !cg->made)
			ret = err_set(&err, ENOMEM, "option 'cgroup': out of memory");
		else if (w->job_index != last) /* once per job: clones follow it */
			ret = setup_job(ctx, w->job_index, w->job, w->job->thread, &err);
		last = w->job_index;
		if (ret) {
			worker_fail(w, ret, "%s", err.msg);
			w->stats->done = true; /* never started */
		} else {
			w->cgroup = &cg->places[w->job_index];
		}
	}
}

void cgroup_jobs_remove(struct run_ctx *ctx)
{
	struct cgroup_jobs *cg = &ctx->cgroups;

	/* the last made first: a group named under an earlier one's */
	for (size_t j = ctx->jobs.count; cg->made && j-- > 0;) {
		if (!cg->made[j])
			continue;
		cg->made[j] = false;
		if (ctx->jobs.jobs[j].cgroup_nodelete)
			continue;
		if (rmdir(cg->places[j].dir) && errno != ENOENT)
			fprintf(stderr, "iodig: cannot remove cgroup %s: %s\n", cg->places[j].dir,
				strerror(errno));
	}
}

void cgroup_jobs_free(struct cgroup_jobs *cg)
{
	free(cg->places);
	free(cg->made);
	memset(cg, 0, sizeof(*cg));
}
