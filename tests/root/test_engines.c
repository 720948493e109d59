/* Every engine writes a pattern and reads it back (tmpfs file buffered, scratch loop device direct), each I/O completing exactly once. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/fs.h>
#include <linux/loop.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/lib/check.h"
#include "workload/engine.h"
#include "workload/engine_opts.h"
#include "workload/worker.h"

#define FILE_SIZE (16u << 20)
#define NOT_DONE INT64_MIN

/* Scratch objects.  The tmpfs files are unlinked as soon as they are
 * open or attached and the loop device is autoclear, so even SIGKILL
 * leaves nothing behind; cleanup_scratch() runs from main and atexit. */
struct scratch {
	char file[64];        /* "/proc/self/fd/N" of the unlinked work file */
	int file_fd;
	char loop_back[64];   /* loop backing file until it is attached */
	char loop_dev[64];    /* "/dev/loopN", empty when none */
	int loop_hold;        /* our open of loop_dev */
};

static struct scratch scratch = { .file_fd = -1, .loop_hold = -1 };

static void cleanup_scratch(void)
{
	/* LOOP_CLR_FD through our own open file detaches exactly the device
	 * we attached (no path lookup that could hit someone else's loop
	 * device); it completes when this last opener closes. */
	if (scratch.loop_hold >= 0) {
		ioctl(scratch.loop_hold, LOOP_CLR_FD, 0);
		close(scratch.loop_hold);
		scratch.loop_hold = -1;
	}
	if (scratch.loop_back[0])
		unlink(scratch.loop_back);
	scratch.loop_back[0] = '\0';
	if (scratch.file_fd >= 0)
		close(scratch.file_fd);
	scratch.file_fd = -1;
}

/* Async-signal-safe subset of cleanup_scratch(). */
static void on_signal(int sig)
{
	if (scratch.loop_back[0])
		unlink(scratch.loop_back);
	if (scratch.loop_hold >= 0)
		close(scratch.loop_hold);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* A zeroed FILE_SIZE file in /dev/shm; returns its fd or -errno. */
static int make_shm_file(char *path, size_t len)
{
	int fd;

	snprintf(path, len, "/dev/shm/iodig-test-engines-XXXXXX");
	fd = mkostemp(path, O_CLOEXEC);
	if (fd >= 0 && ftruncate(fd, FILE_SIZE) < 0) {
		close(fd);
		unlink(path);
		fd = -1;
	}
	return fd < 0 ? -errno : fd;
}

static int make_work_file(void)
{
	char path[64];
	int fd = make_shm_file(path, sizeof(path));

	if (fd < 0)
		return fd;
	unlink(path);
	scratch.file_fd = fd;
	snprintf(scratch.file, sizeof(scratch.file), "/proc/self/fd/%d", fd);
	return 0;
}

/* losetup -f --show over a tmpfs file, then autoclear.  Returns 0, or -1
 * with the reason in @why. */
static int make_loop(char *why, size_t whylen)
{
	struct loop_info64 info;
	char cmd[160];
	FILE *p;
	int fd;

	if (geteuid() != 0)
		return snprintf(why, whylen, "not root"), -1;
	fd = make_shm_file(scratch.loop_back, sizeof(scratch.loop_back));
	if (fd < 0)
		return snprintf(why, whylen, "cannot create a /dev/shm file"), -1;
	close(fd);
	snprintf(cmd, sizeof(cmd), "losetup -f --show %s 2>/dev/null", scratch.loop_back);
	p = popen(cmd, "r");
	if (!p || !fgets(scratch.loop_dev, sizeof(scratch.loop_dev), p)) {
		if (p)
			pclose(p);
		scratch.loop_dev[0] = '\0';
		return snprintf(why, whylen, "losetup -f --show failed"), -1;
	}
	pclose(p);
	scratch.loop_dev[strcspn(scratch.loop_dev, "\n")] = '\0';
	scratch.loop_hold = open(scratch.loop_dev, O_RDONLY | O_CLOEXEC);
	/* The device holds the file now. */
	unlink(scratch.loop_back);
	scratch.loop_back[0] = '\0';
	if (scratch.loop_hold < 0) {
		/* Cannot reach it through an fd; detach by name right away,
		 * before anyone else can have reused the number. */
		snprintf(cmd, sizeof(cmd), "losetup -d %s 2>/dev/null", scratch.loop_dev);
		if (system(cmd) != 0)
			fprintf(stderr, "could not detach %s\n", scratch.loop_dev);
		return snprintf(why, whylen, "cannot open %s", scratch.loop_dev), -1;
	}
	if (ioctl(scratch.loop_hold, LOOP_GET_STATUS64, &info) == 0) {
		info.lo_flags |= LO_FLAGS_AUTOCLEAR;
		ioctl(scratch.loop_hold, LOOP_SET_STATUS64, &info);
	}
	return 0;
}

/* ---- a minimal runner ------------------------------------------------- */

struct setup {
	const char *engine;
	const char *path;
	bool direct;
	bool writes;
	unsigned int iodepth;
	unsigned int batch;
	uint32_t bs;
	uint64_t region_start;
	uint64_t region_len;
	bool random;
	bool fixedbufs, registerfiles, sqpoll, hipri, nowait;
};

struct fixture {
	struct job job;
	struct worker w;
	struct worker_stats stats;
	volatile sig_atomic_t stop;
	const struct engine_ops *e;
	bool inited;
};

static void fixture_free(struct fixture *f)
{
	if (f->inited && f->e->cleanup)
		f->e->cleanup(&f->w);
	engine_state_free(&f->w);
	if (f->w.fd >= 0)
		close(f->w.fd);
	free(f->w.units);
	free(f->w.reaped);
	free(f->w.buf_area);
	free(f);
}

/* Turns engine option @name on in @job's engine options, as a parsed job
 * has it (without the engine's check_job, so init's own checks are what
 * the refusals test); false when the engine has no such option. */
static bool set_engine_opt(struct job *job, const char *name, bool on)
{
	const struct opt_desc *o = opt_find(job->engine->options, name);

	if (!on)
		return true;
	return o && opt_set(job->engine_opts, o, "1", name, NULL) == 0;
}

/* Opens the target the way the runner does and calls init.  Returns NULL
 * with the engine's message in @err when init fails. */
static struct fixture *fixture_new(const struct setup *s, struct errbuf *err,
				   int *init_ret)
{
	struct fixture *f = calloc(1, sizeof(*f));
	unsigned int i;
	int flags;

	*init_ret = 0;
	if (!f)
		abort();
	f->w.fd = -1;
	f->e = engine_find(s->engine);
	if (!f->e) {
		fprintf(stderr, "engine %s not found\n", s->engine);
		abort();
	}
	snprintf(f->job.name, sizeof(f->job.name), "test-%s", s->engine);
	snprintf(f->job.ioengine, sizeof(f->job.ioengine), "%s", s->engine);
	f->job.engine = f->e;
	f->job.rw = s->writes ? (s->random ? RW_RANDRW : RW_RW)
			      : (s->random ? RW_RANDREAD : RW_READ);
	f->job.bs[DDIR_READ] = f->job.bs[DDIR_WRITE] = s->bs;
	f->job.bs_min[DDIR_READ] = f->job.bs_min[DDIR_WRITE] = s->bs;
	f->job.bs_max[DDIR_READ] = f->job.bs_max[DDIR_WRITE] = s->bs;
	f->job.iodepth = s->iodepth;
	f->job.iodepth_batch_submit = s->batch;
	f->job.direct = s->direct;
	engine_opts_reset(&f->job);
	if (!set_engine_opt(&f->job, "fixedbufs", s->fixedbufs) ||
	    !set_engine_opt(&f->job, "registerfiles", s->registerfiles) ||
	    !set_engine_opt(&f->job, "sqthread_poll", s->sqpoll) ||
	    !set_engine_opt(&f->job, "hipri", s->hipri) ||
	    !set_engine_opt(&f->job, "nowait", s->nowait)) {
		fprintf(stderr, "engine %s lacks an option the test sets\n", s->engine);
		abort();
	}
	f->job.size = s->region_len;
	f->job.offset = s->region_start;

	flags = (s->writes || (f->e->flags & ENGINE_RDWR) ? O_RDWR : O_RDONLY) |
		(s->direct ? O_DIRECT : 0) | O_CLOEXEC;
	f->w.fd = open(s->path, flags);
	if (f->w.fd < 0) {
		fprintf(stderr, "open %s: %s\n", s->path, strerror(errno));
		abort();
	}
	f->w.job = &f->job;
	snprintf(f->w.path, sizeof(f->w.path), "%s", s->path);
	f->w.region_start = s->region_start;
	f->w.region_len = s->region_len;
	f->w.nr_units = s->iodepth;
	f->w.buf_unit_size = s->bs;
	f->w.buf_area_size = (size_t)s->iodepth * s->bs;
	if (posix_memalign(&f->w.buf_area, 4096, f->w.buf_area_size))
		abort();
	f->w.units = calloc(s->iodepth, sizeof(*f->w.units));
	f->w.reaped = calloc(s->iodepth, sizeof(*f->w.reaped));
	if (!f->w.units || !f->w.reaped)
		abort();
	for (i = 0; i < s->iodepth; i++) {
		f->w.units[i].index = i;
		f->w.units[i].fd = f->w.fd; /* the worker's one file */
		f->w.units[i].buf = (char *)f->w.buf_area + (size_t)i * s->bs;
	}
	f->w.stats = &f->stats;
	f->w.stop = &f->stop;

	/* as the worker does: the declared state, then init */
	*init_ret = engine_state_new(&f->w, err);
	if (!*init_ret && f->e->init)
		*init_ret = f->e->init(&f->w, err);
	if (*init_ret) {
		fixture_free(f);
		return NULL;
	}
	f->inited = true;
	return f;
}

/* The 8-byte word at absolute offset @off of pattern @seed. */
static uint64_t pattern_word(uint64_t off, uint64_t seed)
{
	return (off + 1) * 0x9E3779B97F4A7C15ull ^ seed;
}

static void pattern_fill(void *buf, uint64_t off, uint32_t len, uint64_t seed)
{
	uint64_t *p = buf;
	uint32_t i;

	for (i = 0; i < len / 8; i++)
		p[i] = pattern_word(off + (uint64_t)i * 8, seed);
}

/* Offset of the first mismatching byte, or UINT64_MAX when equal. */
static uint64_t pattern_mismatch(const void *buf, uint64_t off, uint32_t len,
				 uint64_t seed)
{
	const uint64_t *p = buf;
	uint32_t i;

	for (i = 0; i < len / 8; i++)
		if (p[i] != pattern_word(off + (uint64_t)i * 8, seed))
			return off + (uint64_t)i * 8;
	return UINT64_MAX;
}

enum unit_state { U_FREE, U_QUEUED, U_SUBMITTED };

struct pass {
	uint64_t blocks;
	uint64_t completed;
	uint64_t submitted;
	uint64_t mismatches;
	uint64_t bad_results;
};

static void complete_unit(struct fixture *f, struct io_unit *u, enum ddir d,
			  uint64_t seed, struct pass *ps, const char *what)
{
	uint64_t bad;

	ps->completed++;
	if (u->result != (int64_t)u->len) {
		if (ps->bad_results++ < 3)
			fprintf(stderr, "%s: %s at %" PRIu64 ": result %" PRId64 " (%s), want %u\n",
				what, d == DDIR_WRITE ? "write" : "read", u->offset,
				u->result, u->result < 0 ? strerror((int)-u->result) : "short",
				u->len);
		return;
	}
	if (f->e->commit && (u->issue_ns < u->start_ns || !u->issue_ns)) {
		ps->bad_results++;
		fprintf(stderr, "%s: issue_ns %" PRIu64 " not after start_ns %" PRIu64 "\n",
			what, u->issue_ns, u->start_ns);
	}
	if (d == DDIR_READ) {
		bad = pattern_mismatch(u->buf, u->offset, u->len, seed);
		if (bad != UINT64_MAX && ps->mismatches++ < 3)
			fprintf(stderr, "%s: data differs at offset %" PRIu64 "\n", what, bad);
	}
}

/*
 * One pass over the whole region in @bs blocks (sequential or a fixed
 * shuffle): writes pattern @seed, or reads and compares with it.  Commits
 * every @batch queued units (0: when out of units or blocks), reaps
 * without waiting while units are free and waits for one when none is.
 */
static void run_pass(struct fixture *f, enum ddir d, uint64_t seed, bool random,
		     struct pass *ps, const char *what)
{
	struct worker *w = &f->w;
	const struct engine_ops *e = f->e;
	uint32_t bs = w->buf_unit_size;
	uint64_t nblocks = w->region_len / bs, next = 0, *order, i;
	unsigned int nq = 0, nsub = 0, *free_stack, nfree = 0;
	enum unit_state *state;
	uint64_t lcg = 12345;

	memset(ps, 0, sizeof(*ps));
	ps->blocks = nblocks;
	order = calloc(nblocks, sizeof(*order));
	state = calloc(w->nr_units, sizeof(*state));
	free_stack = calloc(w->nr_units, sizeof(*free_stack));
	if (!order || !state || !free_stack)
		abort();
	for (i = 0; i < nblocks; i++)
		order[i] = i;
	for (i = nblocks; random && i > 1; i--) {
		uint64_t j, t;

		lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
		j = (lcg >> 33) % i;
		t = order[i - 1];
		order[i - 1] = order[j];
		order[j] = t;
	}
	for (i = w->nr_units; i > 0; i--)
		free_stack[nfree++] = (unsigned int)(i - 1);

	while (next < nblocks || nq || nsub) {
		bool busy = false;

		while (next < nblocks && nfree) {
			struct io_unit *u = &w->units[free_stack[--nfree]];
			enum io_result r;

			u->offset = w->region_start + order[next] * bs;
			u->len = bs;
			u->ddir = d;
			u->result = NOT_DONE;
			u->issue_ns = 0;
			if (d == DDIR_WRITE)
				pattern_fill(u->buf, u->offset, bs, seed);
			else
				memset(u->buf, 0xa5, bs);
			u->start_ns = now_ns();
			if (e->prep && e->prep(w, u)) {
				ps->bad_results++;
				fprintf(stderr, "%s: prep failed\n", what);
				goto out;
			}
			r = e->queue(w, u);
			if (r == IO_BUSY) {
				free_stack[nfree++] = u->index;
				busy = true;
				break;
			}
			next++;
			if (r == IO_COMPLETED) {
				CHECK(u->result != NOT_DONE);
				complete_unit(f, u, d, seed, ps, what);
				free_stack[nfree++] = u->index;
				continue;
			}
			CHECK_MSG(e->commit, "%s: engine without commit() queued", what);
			state[u->index] = U_QUEUED;
			nq++;
			if (w->job->iodepth_batch_submit && nq >= w->job->iodepth_batch_submit)
				break;
		}
		if (!e->commit)
			continue;
		if (nq && (!nfree || next == nblocks || busy ||
			   (w->job->iodepth_batch_submit && nq >= w->job->iodepth_batch_submit))) {
			int ret = e->commit(w);
			unsigned int j, marked = 0;

			if (ret < 0 || (unsigned int)ret > nq) {
				fprintf(stderr, "%s: commit returned %d with %u queued\n", what, ret, nq);
				ps->bad_results++;
				goto out;
			}
			for (j = 0; j < w->nr_units; j++) {
				if (state[j] == U_QUEUED && w->units[j].issue_ns) {
					state[j] = U_SUBMITTED;
					marked++;
				}
			}
			CHECK_MSG(marked == (unsigned int)ret,
				  "%s: commit returned %d but %u units got issue_ns", what, ret, marked);
			nq -= (unsigned int)ret;
			nsub += (unsigned int)ret;
			ps->submitted += (unsigned int)ret;
		}
		if (nsub) {
			/* vsync keeps only its last commit's completions, as
			 * fio's does: they are reaped before the next commit */
			bool keeps_last = !strcmp(e->name, "vsync");
			unsigned int min = (!nfree || next == nblocks || keeps_last) ? 1 : 0;
			int n = e->getevents(w, min, w->nr_units, w->reaped), k;

			if (n < 0 || (unsigned int)n < min || (unsigned int)n > nsub) {
				fprintf(stderr, "%s: getevents(%u, %u) returned %d with %u in flight\n",
					what, min, w->nr_units, n, nsub);
				ps->bad_results++;
				goto out;
			}
			for (k = 0; k < n; k++) {
				struct io_unit *u = w->reaped[k];

				if (!u || u < w->units || u >= w->units + w->nr_units ||
				    state[u->index] != U_SUBMITTED) {
					fprintf(stderr, "%s: event %d is not a submitted unit\n", what, k);
					ps->bad_results++;
					goto out;
				}
				state[u->index] = U_FREE;
				nsub--;
				complete_unit(f, u, d, seed, ps, what);
				free_stack[nfree++] = u->index;
			}
		}
	}
out:
	free(order);
	free(state);
	free(free_stack);
}

static void pass_ok(const struct fixture *f, const struct pass *ps, const char *what)
{
	bool ok = ps->completed == ps->blocks && !ps->mismatches && !ps->bad_results &&
		  (!f->e->commit || ps->submitted == ps->blocks);

	CHECK_MSG(ok, "%s: %" PRIu64 " blocks, %" PRIu64 " submitted, %" PRIu64
		  " completed, %" PRIu64 " bad results, %" PRIu64 " mismatches",
		  what, ps->blocks, ps->submitted, ps->completed, ps->bad_results,
		  ps->mismatches);
}

/* Writes with the engine under test, reads back with psync (so the data
 * really reached the file) and with the engine itself. */
static void roundtrip(const struct setup *s, uint64_t seed)
{
	struct setup rd = *s, ps_rd = *s;
	struct fixture *f;
	struct errbuf err = { "" };
	struct pass ps;
	char what[256];
	int ret;

	snprintf(what, sizeof(what), "%s %s%s%s%s%s%s%s%s iodepth=%u batch=%u bs=%u @%" PRIu64,
		 s->engine, s->path, s->direct ? " direct" : "",
		 s->fixedbufs ? " fixedbufs" : "", s->registerfiles ? " registerfiles" : "",
		 s->sqpoll ? " sqpoll" : "", s->hipri ? " hipri" : "",
		 s->nowait ? " nowait" : "", s->random ? " random" : "",
		 s->iodepth, s->batch, s->bs, s->region_start);

	f = fixture_new(s, &err, &ret);
	CHECK_MSG(f, "%s: init for write: %s", what, err.msg);
	if (!f)
		return;
	run_pass(f, DDIR_WRITE, seed, s->random, &ps, what);
	pass_ok(f, &ps, what);
	fixture_free(f);

	ps_rd.engine = "psync";
	ps_rd.writes = false;
	ps_rd.iodepth = 1;
	ps_rd.fixedbufs = ps_rd.registerfiles = ps_rd.sqpoll = false;
	ps_rd.nowait = ps_rd.hipri = false;
	f = fixture_new(&ps_rd, &err, &ret);
	CHECK_MSG(f, "%s: psync init: %s", what, err.msg);
	if (f) {
		run_pass(f, DDIR_READ, seed, false, &ps, what);
		pass_ok(f, &ps, what);
		fixture_free(f);
	}

	rd.writes = false;
	f = fixture_new(&rd, &err, &ret);
	CHECK_MSG(f, "%s: init for read: %s", what, err.msg);
	if (f) {
		run_pass(f, DDIR_READ, seed, s->random, &ps, what);
		pass_ok(f, &ps, what);
		fixture_free(f);
	}
}

/* ---- individual tests ------------------------------------------------- */

static void test_lookup(void)
{
	static const char *const names[] = {
		"psync", "sync", "vsync", "pvsync", "pvsync2", "libaio",
		"io_uring", "mmap", "posixaio", "null", "filecreate",
		"filestat", "filedelete", "dircreate", "dirstat", "dirdelete",
		"ftruncate", "falloc", "e4defrag", "io_uring_cmd", "sg",
		"page_fault", "libpmem", "libzbc", "dev-dax", "mtd",
	};
	struct errbuf err = { "" };

	/* every engine under its own fio name, no aliases */
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct engine_ops *e = engine_find(names[i]);

		CHECK_MSG(e && !strcmp(e->name, names[i]), "engine %s", names[i]);
		CHECK_MSG(engine_at(i) == e, "engine %zu is not %s", i, names[i]);
	}
	CHECK(engine_at(sizeof(names) / sizeof(names[0])) == NULL);
	CHECK(engine_find("Psync") == NULL);
	/* a fio name that is no C identifier, under that name only */
	CHECK(engine_find("dev_dax") == NULL);
	CHECK(engine_find(NULL) == NULL);
	CHECK_MSG(!strcmp(engine_names(), "psync, sync, vsync, pvsync, pvsync2, "
			  "libaio, io_uring, mmap, posixaio, null, filecreate, filestat, "
			  "filedelete, dircreate, dirstat, dirdelete, ftruncate, falloc, e4defrag, "
			  "io_uring_cmd, sg, page_fault, libpmem, libzbc, dev-dax, mtd"),
		  "engine_names() = \"%s\"", engine_names());
	CHECK_MSG(engines_check(&err) == 0, "engines_check: %s", err.msg);
	for (const char *const *n = names; n < names + 5; n++)
		CHECK_MSG(engine_find(*n)->flags & ENGINE_SYNC, "%s is sync", *n);
	CHECK(engine_find("vsync")->commit && engine_find("vsync")->getevents);
	CHECK(!engine_find("psync")->options && !engine_find("sync")->options);
	CHECK(opt_find(engine_find("pvsync2")->options, "hipri_percentage"));
	CHECK(engine_find("mmap")->flags & ENGINE_SYNC);
	CHECK(engine_find("mmap")->flags & ENGINE_MMAP);
	CHECK(!(engine_find("libaio")->flags & ENGINE_SYNC));
	CHECK(!(engine_find("io_uring")->flags & ENGINE_SYNC));
	CHECK(!(engine_find("posixaio")->flags & ENGINE_SYNC));
	CHECK(engine_find("null")->flags & ENGINE_DISKLESS);
	for (const char *const *n = names + 10; n < names + 16; n++)
		CHECK_MSG(engine_find(*n)->flags & ENGINE_FILE_OPS, "%s", *n);
	CHECK(!(engine_find("filestat")->flags & ENGINE_DISKLESS));
	CHECK(engine_find("dirstat")->flags & ENGINE_DISKLESS);
}

/* One file-operation engine over the 4 files of clone 1 of job "fo" in
 * @dir, 2 blocks each, reached in the order of @blocks: each file's
 * operation runs once, timed, the first time the job reaches it; every
 * I/O completes at once, moving nothing. */
static void file_ops_pass(const char *engine, const char *dir,
			  const unsigned int *blocks, int want_errno)
{
	struct setup s = { .engine = engine, .path = dir, .iodepth = 1,
			   .bs = 4096, .region_len = 8 * 4096 };
	struct errbuf err = { "" };
	struct fixture *f;
	unsigned int timed = 0, failed = 0;
	int ret;

	f = fixture_new(&s, &err, &ret);
	CHECK_MSG(f, "%s init: %s", engine, err.msg);
	if (!f)
		return;
	/* the fixture inits before the names are known: init again */
	f->e->cleanup(&f->w);
	snprintf(f->job.directory, sizeof(f->job.directory), "%s", dir);
	snprintf(f->job.name, sizeof(f->job.name), "fo");
	f->job.nrfiles = 4;
	f->w.nr_files = 4;
	f->w.file_size = 2 * 4096;
	f->w.clone_index = 1;
	ret = f->e->init(&f->w, &err);
	CHECK_MSG(!ret, "%s init with files: %s", engine, err.msg);
	for (unsigned int i = 0; !ret && i < 8; i++) {
		struct io_unit *u = &f->w.units[0];
		uint64_t op_ns = 0;
		int r = f->e->open_file(&f->w, blocks[i] / 2, 1, &op_ns);

		timed += r == 1;
		u->ddir = DDIR_READ;
		u->len = 4096;
		u->offset = (uint64_t)(blocks[i] % 2) * 4096;
		CHECK(f->e->queue(&f->w, u) == IO_COMPLETED && u->result == 4096);
		if (r >= 0)
			continue;
		failed++;
		CHECK_MSG(r == -want_errno, "%s block %u: open_file %d",
			  engine, blocks[i], r);
	}
	CHECK_MSG(timed + failed == 4, "%s: %u timed operations, want 4",
		  engine, timed + failed);
	CHECK_MSG(failed == (want_errno ? 4u : 0u), "%s: %u failed", engine, failed);
	if (want_errno)
		CHECK_MSG(strstr(f->stats.errmsg, "fo.1.0"), "%s: error '%s'",
			  engine, f->stats.errmsg);
	fixture_free(f);
}

static bool exists_as(const char *dir, unsigned int k, mode_t type)
{
	char path[256];
	struct stat st;

	snprintf(path, sizeof(path), "%s/fo.1.%u", dir, k);
	return !lstat(path, &st) && (st.st_mode & S_IFMT) == type;
}

static unsigned int count_as(const char *dir, mode_t type)
{
	unsigned int n = 0;

	for (unsigned int k = 0; k < 4; k++)
		n += exists_as(dir, k, type);
	return n;
}

/* One I/O of @ddir at @off through a sync engine; its result. */
static int64_t one_io(struct fixture *f, enum ddir ddir, uint64_t off)
{
	struct io_unit *u = &f->w.units[0];

	u->ddir = ddir;
	u->len = 4096;
	u->offset = off;
	u->result = NOT_DONE;
	CHECK(f->e->queue(&f->w, u) == IO_COMPLETED);
	return u->result;
}

static uint64_t size_of(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? 0 : (uint64_t)st.st_size;
}

/* ftruncate sets the size to each write's offset; falloc allocates the
 * range, keeping the size on reads and extending it on writes. */
static void test_truncate_falloc(void)
{
	struct setup s = { .path = "", .writes = true, .iodepth = 1,
			   .bs = 4096, .region_len = 1 << 20 };
	struct errbuf err = { "" };
	struct fixture *f;
	char path[64];
	struct stat st;
	int fd = make_shm_file(path, sizeof(path)), ret;

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	s.path = path;
	s.engine = "ftruncate";
	f = fixture_new(&s, &err, &ret);
	CHECK_MSG(f, "ftruncate init: %s", err.msg);
	if (f) {
		CHECK(one_io(f, DDIR_WRITE, 8192) == 4096 && size_of(fd) == 8192);
		CHECK(one_io(f, DDIR_WRITE, 3u << 20) == 4096 &&
		      size_of(fd) == 3u << 20);
		fixture_free(f);
	}
	CHECK(ftruncate(fd, 0) == 0);
	s.engine = "falloc";
	s.writes = false; /* ENGINE_RDWR: the worker opens it read-write */
	f = fixture_new(&s, &err, &ret);
	CHECK_MSG(f, "falloc init: %s", err.msg);
	if (f) {
		CHECK(one_io(f, DDIR_READ, 65536) == 4096 && size_of(fd) == 0);
		CHECK(fstat(fd, &st) == 0 && st.st_blocks >= 8);
		CHECK(one_io(f, DDIR_WRITE, 65536) == 4096 &&
		      size_of(fd) == 65536 + 4096);
		fixture_free(f);
	}
	unlink(path);
	close(fd);
}

static void test_file_ops(void)
{
	static const unsigned int seq[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
	static const unsigned int mixed[8] = { 5, 0, 7, 2, 1, 4, 6, 3 };
	char dir[] = "/dev/shm/iodig-test-fileops-XXXXXX";

	if (!mkdtemp(dir)) {
		CHECK_MSG(0, "mkdtemp: %s", strerror(errno));
		return;
	}
	file_ops_pass("filecreate", dir, seq, 0);
	CHECK_MSG(count_as(dir, S_IFREG) == 4, "filecreate made %u files",
		  count_as(dir, S_IFREG));
	CHECK(!exists_as(dir, 4, S_IFREG));
	file_ops_pass("filestat", dir, mixed, 0);
	file_ops_pass("filedelete", dir, mixed, 0);
	CHECK_MSG(count_as(dir, S_IFREG) == 0, "filedelete left %u files",
		  count_as(dir, S_IFREG));
	file_ops_pass("filestat", dir, seq, ENOENT);
	file_ops_pass("dircreate", dir, mixed, 0);
	CHECK(count_as(dir, S_IFDIR) == 4);
	file_ops_pass("dircreate", dir, seq, EEXIST);
	file_ops_pass("dirstat", dir, seq, 0);
	file_ops_pass("dirdelete", dir, mixed, 0);
	CHECK(count_as(dir, S_IFDIR) == 0);
	/* dirstat makes the directories it stats, as fio's setup does */
	file_ops_pass("dirstat", dir, mixed, 0);
	CHECK(count_as(dir, S_IFDIR) == 4);
	file_ops_pass("dirdelete", dir, seq, 0);
	CHECK_MSG(rmdir(dir) == 0, "%s not empty: %s", dir, strerror(errno));
}

/* null: nothing happens, at once.  At iodepth=1 queue() completes; deeper
 * it holds I/Os until commit(), then refuses more until they are reaped,
 * and getevents(0, ...) reaps nothing (fio's null). */
static void test_null(const char *path)
{
	struct setup s = { .engine = "null", .path = path, .iodepth = 4,
			   .bs = 4096, .region_len = 1 << 20 };
	struct errbuf err = { "" };
	struct fixture *f;
	struct io_unit *u;
	int ret;

	f = fixture_new(&s, &err, &ret);
	CHECK_MSG(f, "null init: %s", err.msg);
	if (!f)
		return;
	for (unsigned int i = 0; i < 3; i++) {
		u = &f->w.units[i];
		u->ddir = DDIR_READ;
		u->len = 4096;
		u->offset = (uint64_t)i * 4096;
		u->start_ns = now_ns();
		CHECK(f->e->queue(&f->w, u) == IO_QUEUED);
	}
	CHECK(f->e->commit(&f->w) == 3);
	CHECK(f->e->queue(&f->w, &f->w.units[3]) == IO_BUSY);
	CHECK(f->e->commit(&f->w) == 0);
	CHECK(f->e->getevents(&f->w, 0, 4, f->w.reaped) == 0);
	CHECK(f->e->getevents(&f->w, 1, 4, f->w.reaped) == 3);
	for (unsigned int i = 0; i < 3; i++) {
		u = f->w.reaped[i];
		CHECK(u == &f->w.units[i] && u->result == 4096 && u->issue_ns);
	}
	CHECK(f->e->queue(&f->w, &f->w.units[3]) == IO_QUEUED);
	fixture_free(f);

	s.iodepth = 1;
	f = fixture_new(&s, &err, &ret);
	CHECK_MSG(f, "null init: %s", err.msg);
	if (!f)
		return;
	u = &f->w.units[0];
	u->ddir = DDIR_WRITE;
	u->len = 512;
	CHECK(f->e->queue(&f->w, u) == IO_COMPLETED && u->result == 512);
	fixture_free(f);
}

/* libaio with iodepth=8, iodepth_batch_submit=4: one commit of 8 queued
 * units is two io_submit calls, visible as two issue_ns groups of 4. */
static void test_libaio_batch(const char *path, bool direct)
{
	struct setup s = { .engine = "libaio", .path = path, .direct = direct,
			   .iodepth = 8, .batch = 4, .bs = 4096,
			   .region_start = 0, .region_len = 8 * 4096 };
	struct errbuf err = { "" };
	struct fixture *f;
	uint64_t t0 = 0, t1 = 0;
	unsigned int i, n0 = 0, n1 = 0, seen[8] = { 0 };
	int ret, got = 0;

	f = fixture_new(&s, &err, &ret);
	CHECK_MSG(f, "libaio batch init: %s", err.msg);
	if (!f)
		return;
	for (i = 0; i < 8; i++) {
		struct io_unit *u = &f->w.units[i];

		u->offset = (uint64_t)i * 4096;
		u->len = 4096;
		u->ddir = DDIR_READ;
		u->start_ns = now_ns();
		u->issue_ns = 0;
		CHECK(f->e->queue(&f->w, u) == IO_QUEUED);
	}
	ret = f->e->commit(&f->w);
	CHECK_MSG(ret == 8, "libaio commit returned %d, want 8", ret);
	for (i = 0; i < 8; i++) {
		uint64_t t = f->w.units[i].issue_ns;

		if (!t0 || t == t0) {
			t0 = t;
			n0++;
		} else if (!t1 || t == t1) {
			t1 = t;
			n1++;
		}
	}
	CHECK_MSG(n0 == 4 && n1 == 4 && t0 && t1 && t0 < t1,
		  "libaio batch=4: issue_ns groups of %u and %u, want 4 and 4", n0, n1);
	while (got < 8) {
		int n = f->e->getevents(&f->w, 1, 8, f->w.reaped), k;

		CHECK_MSG(n >= 1, "libaio getevents returned %d", n);
		if (n < 1)
			break;
		for (k = 0; k < n; k++) {
			struct io_unit *u = f->w.reaped[k];

			CHECK(u && u->result == 4096);
			if (u)
				seen[u->index]++;
		}
		got += n;
	}
	CHECK_MSG(got == 8, "libaio reaped %d of 8", got);
	for (i = 0; i < 8; i++)
		CHECK_MSG(seen[i] == 1, "unit %u completed %u times", i, seen[i]);
	CHECK(f->e->getevents(&f->w, 0, 8, f->w.reaped) == 0);
	fixture_free(f);
}

/* A read crossing EOF transfers what is there: a short result, not an
 * error. */
static void test_short_read(const char *file, const char *engine)
{
	struct setup s = { .engine = engine, .path = file, .iodepth = 2,
			   .bs = 4096, .region_start = FILE_SIZE - 2048,
			   .region_len = 4096 };
	struct errbuf err = { "" };
	struct fixture *f;
	struct io_unit *u;
	int ret, n;

	f = fixture_new(&s, &err, &ret);
	CHECK_MSG(f, "%s short read init: %s", engine, err.msg);
	if (!f)
		return;
	u = &f->w.units[1];
	u->offset = FILE_SIZE - 2048;
	u->len = 4096;
	u->ddir = DDIR_READ;
	u->result = NOT_DONE;
	u->start_ns = now_ns();
	if (f->e->queue(&f->w, u) == IO_QUEUED) {
		ret = f->e->commit(&f->w);
		CHECK_MSG(ret == 1, "%s short read: commit returned %d", engine, ret);
		n = f->e->getevents(&f->w, 1, 2, f->w.reaped);
		CHECK_MSG(n == 1 && f->w.reaped[0] == u,
			  "%s short read: getevents returned %d", engine, n);
	}
	CHECK_MSG(u->result == 2048, "%s read across EOF: result %" PRId64 ", want 2048",
		  engine, u->result);
	fixture_free(f);
}

/* An init that must fail: with @want_ret, and a message naming the target
 * and containing @want (the option or the remedy). */
static void expect_refusal(const char *what, const struct setup *s, int want_ret,
			   const char *want)
{
	struct errbuf err = { "" };
	struct fixture *f;
	int ret;

	f = fixture_new(s, &err, &ret);
	CHECK_MSG(!f && ret == want_ret && strstr(err.msg, want) &&
		  strstr(err.msg, s->path),
		  "%s: init returned %d (want %d), message \"%s\" (want \"%s\")",
		  what, ret, want_ret, err.msg, want);
	printf("%s: %s\n", what, err.msg);
	if (f)
		fixture_free(f);
}

static void test_refusals_file(const char *file)
{
	struct setup s = { .path = file, .iodepth = 4, .bs = 4096,
			   .region_len = 1 << 20 };

	s.engine = "io_uring";
	s.hipri = true;
	expect_refusal("io_uring hipri buffered", &s, -EINVAL, "needs direct=1");
	s.hipri = false;
	s.nowait = true;
	/* tmpfs files lack FMODE_NOWAIT. */
	expect_refusal("io_uring nowait on tmpfs", &s, -EOPNOTSUPP, "drop nowait");
	s.engine = "pvsync2";
	expect_refusal("pvsync2 nowait on tmpfs", &s, -EOPNOTSUPP, "drop nowait");
	s.engine = "libaio";
	expect_refusal("libaio nowait on tmpfs", &s, -EOPNOTSUPP, "drop nowait");
	s.nowait = false;
	s.engine = "mmap";
	s.region_start = FILE_SIZE - 4096;
	s.region_len = 8192;
	expect_refusal("mmap past EOF", &s, -EINVAL, "SIGBUS");
}

static void test_refusals_dev(const char *dev)
{
	struct setup s = { .path = dev, .writes = true, .iodepth = 4,
			   .bs = 4096, .region_len = 1 << 20, .nowait = true };
	struct errbuf err = { "" };
	struct fixture *f;
	int ret;

	/* The kernel refuses RWF_NOWAIT on buffered block device writes. */
	s.engine = "pvsync2";
	expect_refusal("pvsync2 nowait buffered writes", &s, -EOPNOTSUPP, "use direct=1");
	s.engine = "libaio";
	expect_refusal("libaio nowait buffered writes", &s, -EOPNOTSUPP, "use direct=1");
	s.engine = "io_uring";
	expect_refusal("io_uring nowait buffered writes", &s, -EOPNOTSUPP, "use direct=1");

	/* IOPOLL needs poll queues, which loop lacks: init must say so.
	 * Should loop ever gain them, polled I/O must then work. */
	s.nowait = false;
	s.direct = s.hipri = true;
	f = fixture_new(&s, &err, &ret);
	if (f) {
		fixture_free(f);
		roundtrip(&s, 0x10);
	} else {
		expect_refusal("io_uring hipri on loop", &s, -EOPNOTSUPP, "cannot be polled");
	}
	/* libzbc's SCSI backend: a loop device answers no SG_IO. */
	s.direct = s.hipri = false;
	s.engine = "libzbc";
	expect_refusal("libzbc on loop", &s, -ENODEV, "not a SCSI device");
}

/* RWF_NOWAIT on buffered reads of a device whose page cache was just
 * dropped must hit -EAGAIN; the engine counts it and still completes. */
static void test_nowait(const char *engine, const char *dev)
{
	struct setup s = { .engine = "psync", .path = dev, .writes = true,
			   .iodepth = 1, .bs = 4096, .region_len = 4 << 20 };
	struct errbuf err = { "" };
	struct fixture *f;
	struct pass ps;
	char what[128];
	int ret, fd;

	snprintf(what, sizeof(what), "%s nowait on %s", engine, dev);
	f = fixture_new(&s, &err, &ret);
	CHECK_MSG(f, "%s: %s", what, err.msg);
	if (!f)
		return;
	run_pass(f, DDIR_WRITE, 0x77, false, &ps, what);
	pass_ok(f, &ps, what);
	fixture_free(f);

	fd = open(dev, O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0);
	if (fd < 0)
		return;
	/* sync_blockdev + invalidate: the device's page cache is empty. */
	CHECK_MSG(ioctl(fd, BLKFLSBUF, 0) == 0, "BLKFLSBUF %s: %s", dev, strerror(errno));
	close(fd);

	s.engine = engine;
	s.writes = false;
	s.nowait = true;
	s.iodepth = engine_find(engine)->flags & ENGINE_SYNC ? 1 : 4;
	f = fixture_new(&s, &err, &ret);
	CHECK_MSG(f, "%s: %s", what, err.msg);
	if (!f)
		return;
	run_pass(f, DDIR_READ, 0x77, true, &ps, what);
	pass_ok(f, &ps, what);
	CHECK_MSG(f->stats.nowait_eagain > 0,
		  "%s: no -EAGAIN counted on an uncached device", what);
	printf("%s: %" PRIu64 " of %" PRIu64 " reads answered -EAGAIN\n", what,
	       f->stats.nowait_eagain, ps.blocks);
	fixture_free(f);
}

static void run_matrix(const char *path, bool direct)
{
	static const struct setup base[] = {
		{ .engine = "psync", .iodepth = 1 },
		{ .engine = "psync", .iodepth = 1, .random = true },
		{ .engine = "sync", .iodepth = 1 },
		{ .engine = "sync", .iodepth = 1, .random = true },
		{ .engine = "pvsync", .iodepth = 1, .random = true },
		{ .engine = "pvsync2", .iodepth = 1, .random = true },
		/* vsync merges what a batch holds: sequential 8 per readv,
		 * random mostly one, and one per commit with batch 1 */
		{ .engine = "vsync", .iodepth = 8, .batch = 8 },
		{ .engine = "vsync", .iodepth = 8, .batch = 8, .random = true },
		{ .engine = "vsync", .iodepth = 4, .batch = 1 },
		{ .engine = "libaio", .iodepth = 8, .batch = 4, .random = true },
		{ .engine = "libaio", .iodepth = 16 },
		{ .engine = "io_uring", .iodepth = 8, .batch = 4, .random = true },
		{ .engine = "io_uring", .iodepth = 8, .fixedbufs = true,
		  .registerfiles = true, .random = true },
		{ .engine = "io_uring", .iodepth = 8, .batch = 2, .sqpoll = true,
		  .fixedbufs = true, .random = true },
		{ .engine = "io_uring", .iodepth = 1 },
		{ .engine = "mmap", .iodepth = 1 },
		{ .engine = "mmap", .iodepth = 1, .random = true },
		{ .engine = "posixaio", .iodepth = 8, .random = true },
		{ .engine = "posixaio", .iodepth = 16, .batch = 4 },
	};
	size_t i;

	for (i = 0; i < sizeof(base) / sizeof(base[0]); i++) {
		struct setup s = base[i];

		s.path = path;
		s.direct = direct;
		s.writes = true;
		s.bs = 4096;
		/* A region that starts 1 MiB + 4 KiB in and stops short of
		 * the end, so offsets are absolute, not region-relative. */
		s.region_start = (1u << 20) + 4096;
		s.region_len = 8u << 20;
		roundtrip(&s, 0x1000 + i);
	}
}

int main(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT,
				    SIGBUS, SIGSEGV, SIGABRT };
	struct sigaction sa = { .sa_handler = on_signal };
	char why[128] = "";
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	atexit(cleanup_scratch);

	test_lookup();

	if (make_work_file())
		SKIP("cannot create a 16 MiB file in /dev/shm");
	run_matrix(scratch.file, false);
	test_libaio_batch(scratch.file, false);
	test_refusals_file(scratch.file);
	test_null(scratch.file);
	test_file_ops();
	test_truncate_falloc();
	test_short_read(scratch.file, "psync");
	test_short_read(scratch.file, "sync");
	test_short_read(scratch.file, "vsync");
	test_short_read(scratch.file, "posixaio");
	test_short_read(scratch.file, "libaio");
	test_short_read(scratch.file, "io_uring");
	/* mmap of a region that does not start on a page boundary. */
	roundtrip(&(struct setup){ .engine = "mmap", .path = scratch.file,
				   .writes = true, .iodepth = 1, .bs = 512,
				   .region_start = 1536, .region_len = 64 * 512,
				   .random = true }, 0x55);

	if (make_loop(why, sizeof(why))) {
		printf("loop device part not run: %s\n", why);
	} else {
		printf("scratch loop device %s\n", scratch.loop_dev);
		run_matrix(scratch.loop_dev, true);
		test_libaio_batch(scratch.loop_dev, true);
		/* pvsync2 hipri: RWF_HIPRI on a device without poll queues. */
		roundtrip(&(struct setup){ .engine = "pvsync2", .path = scratch.loop_dev,
					   .direct = true, .writes = true, .iodepth = 1,
					   .bs = 4096, .region_len = 1 << 20, .hipri = true }, 0x66);
		test_nowait("pvsync2", scratch.loop_dev);
		test_nowait("io_uring", scratch.loop_dev);
		test_nowait("libaio", scratch.loop_dev);
		test_refusals_dev(scratch.loop_dev);
		expect_refusal("falloc on a device", &(struct setup){
			.engine = "falloc", .path = scratch.loop_dev, .iodepth = 1,
			.bs = 4096, .region_len = 1 << 20 }, -EINVAL, "not a regular file");
		expect_refusal("ftruncate on a device", &(struct setup){
			.engine = "ftruncate", .path = scratch.loop_dev, .writes = true,
			.iodepth = 1, .bs = 4096, .region_len = 1 << 20 }, -EINVAL,
			"not a regular file");
		/* O_DIRECT writes and reads with RWF_NOWAIT are accepted. */
		roundtrip(&(struct setup){ .engine = "pvsync2", .path = scratch.loop_dev,
					   .direct = true, .writes = true, .iodepth = 1,
					   .bs = 4096, .region_len = 1 << 20, .nowait = true }, 0x67);
		roundtrip(&(struct setup){ .engine = "io_uring", .path = scratch.loop_dev,
					   .direct = true, .writes = true, .iodepth = 8,
					   .bs = 4096, .region_len = 1 << 20, .nowait = true,
					   .random = true }, 0x68);
		roundtrip(&(struct setup){ .engine = "libaio", .path = scratch.loop_dev,
					   .direct = true, .writes = true, .iodepth = 8,
					   .bs = 4096, .region_len = 1 << 20, .nowait = true,
					   .random = true }, 0x69);
	}
	cleanup_scratch();
	return CHECK_DONE();
}
