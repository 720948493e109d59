// SPDX-License-Identifier: GPL-2.0
/*
 * fio 3.33's verify bookkeeping (backend.c, io_u.c, verify.c), per worker.
 * What fio checks depends on the job: the header's rand_seed only in mixed
 * read/write jobs without a backlog (elsewhere fio takes the header's own
 * seed), its write number only in writing jobs of one block size that are
 * not time_based, with verify_write_sequence (fio's newer option).
 * The seed a read of the log expects is not the one its write drew but
 * the next of fio's verify_state, which writes and reads of the log share
 * and which starts over at each verify phase (and each loop with
 * randrepeat): a block passes only when both draws coincide.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload/verify_run.h"

/* fio's verify_write_sequence as given, else its default: off for
 * verify_only (3.33 never checked there), and off with norandommap at
 * depth > 1 on an asynchronous engine, where a block may be written
 * again while its earlier write is still in flight. */
static bool write_sequence(const struct job *job)
{
	if (job->verify_write_sequence.given)
		return job->verify_write_sequence.on;
	if (job->verify_only)
		return false;
	if (job->norandommap && job->iodepth > 1 && !engine_is_sync(job))
		return false;
	return job->verify_write_sequence.on;
}

static void make_spec(struct verify_run *vr, unsigned int thread_number)
{
	const struct job *job = vr->job;
	bool mixed = rw_has_read(job->rw) && rw_has_write(job->rw);
	uint32_t bmin = job->bs_min[DDIR_READ] < job->bs_min[DDIR_WRITE] ?
			job->bs_min[DDIR_READ] : job->bs_min[DDIR_WRITE];
	uint32_t bmax = job->bs_max[DDIR_READ] > job->bs_max[DDIR_WRITE] ?
			job->bs_max[DDIR_READ] : job->bs_max[DDIR_WRITE];

	vr->spec = (struct verify_spec){
		.mode = job->verify,
		.interval = (uint32_t)job->verify_interval,
		.hdr_offset = (uint32_t)job->verify_offset,
		.pattern = job->verify_pattern.len ? &job->verify_pattern : NULL,
		.buffer_pattern = job->buffer_pattern.len ? &job->buffer_pattern : NULL,
		.compress_pct = job->buffer_compress_percentage,
		.thread = (uint16_t)thread_number,
		.check_seed = mixed && !job->verify_backlog,
		.check_numberio = rw_has_write(job->rw) && bmin == bmax &&
				  !job->time_based && write_sequence(job),
		.fatal = job->verify_fatal,
	};
}

int verify_run_init(struct verify_run *vr, const struct job *job,
		    unsigned int nr_units, unsigned int thread_number,
		    struct frand_base seed_base, struct errbuf *err)
{
	int ret;

	memset(vr, 0, sizeof(*vr));
	vr->job = job;
	vr->last_done = DDIR_WRITE;
	make_spec(vr, thread_number);
	vr->seed = frand_job_seed(seed_base, thread_number, FRAND_VERIFY);
	frand_seed(&vr->seeds, vr->seed, false);
	/* fio verifies in write order only with a random map */
	vlog_init(&vr->log, !(rw_is_random(job->rw) && !job->norandommap));
	vr->check_reads = !rw_has_write(job->rw);
	vr->units = calloc(nr_units, sizeof(*vr->units));
	vr->recent = calloc(job->iodepth, sizeof(*vr->recent));
	if (!vr->units || !vr->recent)
		return err_set(err, ENOMEM, "no memory for verify bookkeeping");
	if (job->verify_state_load) {
		ret = verify_state_load(&vr->state, job->name, thread_number - 1, err);
		if (ret)
			return ret;
		vr->has_state = true;
	}
	return 0;
}

void verify_run_free(struct verify_run *vr)
{
	vlog_free(&vr->log);
	free(vr->units);
	free(vr->recent);
	free(vr->state.comps);
	vr->units = NULL;
	vr->recent = NULL;
	vr->state.comps = NULL;
}

/* fio draws a fresh seed per write unless a pattern gives the data, and
 * one per read of the verify log, the seed it expects there (verify.c's
 * get_next_verify; verify=null checks nothing, so its draws show nowhere). */
static uint64_t next_seed(struct verify_run *vr)
{
	if (vr->spec.pattern || vr->spec.mode == VERIFY_NULL)
		return 0;
	return frand_buf_seed(&vr->seeds);
}

void verify_run_new_loop(struct verify_run *vr, bool reseed)
{
	if (reseed)
		frand_seed(&vr->seeds, vr->seed, false);
}

void verify_run_start_phase(struct verify_run *vr)
{
	frand_seed(&vr->seeds, vr->seed, false);
}

void verify_run_write(struct verify_run *vr, struct io_unit *u, uint64_t now_ns)
{
	struct verify_unit *vu = &vr->units[u->index];

	vu->check = false;
	vu->logged = false;
	vu->io = (struct verify_io){
		.file = u->file, .offset = u->offset, .len = u->len,
		.seed = next_seed(vr), .numberio = (uint16_t)vr->write_issues++,
		.time_ns = now_ns,
	};
	verify_fill(&vr->spec, u->buf, &vu->io);
}

static int log_write(struct verify_run *vr, const struct verify_io *io)
{
	struct vlog_entry e = { .file = io->file, .offset = io->offset,
				.len = io->len, .numberio = io->numberio };

	vr->recent[vr->writes_done++ % vr->job->iodepth] = io->offset;
	return vlog_add(&vr->log, &e);
}

/* fio's do_dry_run fills no buffer, so draws no seed. */
int verify_run_dry_write(struct verify_run *vr, const struct io_unit *u)
{
	struct verify_io io = { .file = u->file, .offset = u->offset, .len = u->len,
				.numberio = (uint16_t)vr->write_issues++ };

	return log_write(vr, &io);
}

static bool state_stops(struct verify_run *vr, uint64_t offset)
{
	if (vr->has_state &&
	    verify_state_should_stop(&vr->state, vr->reads_done, offset))
		vr->stop = true;
	return vr->stop;
}

/* fio's check_get_verify: a batch starts once verify_backlog writes wait
 * and the last completion was not a read.  With do_verify=0 fio logs no
 * write for verify, so none waits. */
static bool backlog_due(struct verify_run *vr)
{
	const struct job *job = vr->job;

	if (!job->verify_backlog || !job->do_verify || !vlog_pending(&vr->log))
		return false;
	if (!vr->batch_left && vlog_pending(&vr->log) >= job->verify_backlog &&
	    vr->last_done != DDIR_READ)
		vr->batch_left = job->verify_backlog_batch ?
				 job->verify_backlog_batch : job->verify_backlog;
	return vr->batch_left != 0;
}

bool verify_run_next(struct verify_run *vr, struct io_unit *u, bool verify_phase)
{
	struct verify_unit *vu = &vr->units[u->index];
	struct vlog_entry e;

	if (vr->stop || (!verify_phase && !backlog_due(vr)))
		return false;
	if (!vlog_pop(&vr->log, &e))
		return false;
	if (!verify_phase)
		vr->batch_left--;
	if (state_stops(vr, e.offset))
		return false;
	u->ddir = DDIR_READ;
	u->file = e.file;
	u->offset = e.offset;
	u->len = e.len;
	u->result = 0;
	vu->check = true;
	vu->logged = true;
	vu->io = (struct verify_io){ .offset = e.offset, .len = e.len,
				     .seed = next_seed(vr), .numberio = e.numberio };
	return true;
}

bool verify_run_plain_read(struct verify_run *vr, struct io_unit *u)
{
	struct verify_unit *vu = &vr->units[u->index];

	vu->check = false;
	vu->logged = false;
	if (!vr->check_reads)
		return true;
	if (state_stops(vr, u->offset))
		return false;
	vu->check = true;
	vu->io = (struct verify_io){ .offset = u->offset, .len = u->len };
	return true;
}

/* fio's dump_buf: BASENAME.OFFSET.KIND in the current directory. */
static int dump(const char *path, uint64_t at, const char *kind,
		const uint8_t *buf, size_t len, char *name, size_t name_len)
{
	const char *base = strrchr(path, '/');
	ssize_t w;
	int fd;

	snprintf(name, name_len, "%s.%llu.%s", base ? base + 1 : path,
		 (unsigned long long)at, kind);
	fd = open(name, O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	w = write(fd, buf, len);
	close(fd);
	return w == (ssize_t)len ? 0 : -EIO;
}

/* What was read, and what should have been (regenerated from the
 * header's seed), as fio's verify_dump writes them. */
static void dump_block(struct verify_run *vr, const struct verify_failure *f,
		       const struct verify_io *io, const uint8_t *got,
		       const char *path, char *msg, size_t len)
{
	size_t at = (size_t)(f->at - io->offset), used = strlen(msg);
	struct verify_spec spec = vr->spec;
	struct verify_io want = *io;
	char rname[300], ename[300];
	uint8_t *exp;

	if (f->fault != VF_SUM && f->fault != VF_PATTERN) {
		if (!dump(path, f->at, "hdr_fail", got + at, f->len, rname,
			  sizeof(rname)))
			snprintf(msg + used, len - used, "; dumped as %s", rname);
		return;
	}
	exp = malloc(io->len);
	if (!exp)
		return;
	want.seed = f->hdr_seed;
	spec.hdr_offset = 0; /* the check moved the read header back too */
	verify_fill(&spec, exp, &want);
	if (!dump(path, f->at, "received", got + at, f->len, rname, sizeof(rname)) &&
	    !dump(path, f->at, "expected", exp + at, f->len, ename, sizeof(ename)))
		snprintf(msg + used, len - used, "; dumped as %.*s{received,expected}",
			 (int)(strlen(rname) - strlen("received")), rname);
	free(exp);
}

/* fio logs each bad block as its check finds it, one after another under
 * continue_on_error=verify: so many that they stream to stderr from here,
 * where the block is understood, rather than being returned. */
static void log_bad_block(const struct verify_run *vr, const struct verify_failure *f,
			  const struct verify_io *io, const char *path)
{
	char text[1024];

	verify_failure_log_text(&vr->spec, f, path, io, text, sizeof(text));
	fprintf(stderr, "%s\n", text);
}

int verify_run_done(struct verify_run *vr, struct io_unit *u,
		    const char *path, char *msg, size_t len)
{
	struct verify_unit *vu = &vr->units[u->index];
	struct verify_failure f;

	vr->last_done = u->ddir;
	if (u->ddir == DDIR_WRITE)
		return log_write(vr, &vu->io);
	if (!vu->check)
		return 0;
	vu->check = false;
	vr->reads_done++;
	if (!verify_check(&vr->spec, u->buf, &vu->io, &f))
		return 0;
	log_bad_block(vr, &f, &vu->io, path);
	verify_failure_describe(&vr->spec, &f, path, &vu->io, msg, len);
	if (vr->job->verify_dump)
		dump_block(vr, &f, &vu->io, u->buf, path, msg, len);
	return -EILSEQ;
}

int verify_run_save_state(struct verify_run *vr, struct errbuf *err)
{
	const struct job *job = vr->job;
	uint32_t depth = job->iodepth;
	uint32_t n = vr->writes_done < depth ? (uint32_t)vr->writes_done : depth;
	struct verify_state s = {
		.depth = depth, .numberio = vr->write_issues,
		.index = (uint64_t)vr->spec.thread - 1, .nr_comps = n,
		.comps = calloc(n ? n : 1, sizeof(uint64_t)),
	};
	int ret;

	if (!s.comps)
		return err_set(err, ENOMEM, "no memory for the verify state");
	snprintf(s.name, sizeof(s.name), "%s", job->name);
	for (uint32_t i = 0; i < n; i++)
		s.comps[i] = vr->recent[(vr->writes_done - 1 - i) % depth];
	ret = verify_state_save(&s, err);
	free(s.comps);
	return ret;
}
