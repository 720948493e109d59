// SPDX-License-Identifier: GPL-2.0
/* fio's write_iolog (workload/io_trace.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "base/append_file.h"
#include "base/clock.h"
#include "workload/files.h"
#include "workload/io_trace.h"
#include "workload/worker.h"

static uint64_t usec_since(const struct io_trace *t, uint64_t ns)
{
	return ns > t->start_ns ? (ns - t->start_ns) / 1000 : 0;
}

/* File @k as fio names it: a name made from the job's (no filename=)
 * has no "./" before it in fio's log without directory=, as iodig's has. */
static const char *file_name(const struct worker *w, unsigned int k, char *buf,
			     size_t len)
{
	const char *name = worker_file_name(w, k, buf, len);

	if (!w->job->filename[0] && !w->job->directory[0] && !strncmp(name, "./", 2))
		return name + 2;
	return name;
}

static void log_file(struct io_trace *t, const struct worker *w, unsigned int k,
		     const char *what, uint64_t ns)
{
	char path[PATH_MAX];

	fprintf(t->mem, "%llu %s %s\n", (unsigned long long)usec_since(t, ns),
		file_name(w, k, path, sizeof(path)), what);
}

/* File @k opened by @ns, when the log has it closed */
static void open_by(struct io_trace *t, const struct worker *w, unsigned int k,
		    uint64_t ns)
{
	if (!t->mem || k >= t->nr || t->open[k])
		return;
	t->open[k] = true;
	log_file(t, w, k, "open", ns);
}

int io_trace_open(struct io_trace *t, const struct worker *w, struct errbuf *err)
{
	memset(t, 0, sizeof(*t));
	if (!w->job->write_iolog[0])
		return 0;
	t->start_ns = now_ns();
	t->nr = w->nr_files ? w->nr_files : 1;
	t->open = calloc(t->nr, sizeof(*t->open));
	t->mem = t->open ? open_memstream(&t->buf, &t->len) : NULL;
	if (!t->mem) {
		io_trace_free(t);
		return err_set(err, ENOMEM, "write_iolog=%s: out of memory",
			       w->job->write_iolog);
	}
	fputs("fio version 3 iolog\n", t->mem);
	for (unsigned int k = 0; k < t->nr; k++)
		log_file(t, w, k, "add", t->start_ns);
	return 0;
}

void io_trace_file_open(struct io_trace *t, const struct worker *w, unsigned int file)
{
	open_by(t, w, file, now_ns());
}

bool io_trace_file_is_open(const struct io_trace *t, unsigned int file)
{
	return t->mem && file < t->nr && t->open[file];
}

void io_trace_file_close(struct io_trace *t, const struct worker *w, unsigned int file)
{
	if (!t->mem || file >= t->nr || !t->open[file])
		return;
	t->open[file] = false;
	log_file(t, w, file, "close", now_ns());
}

void io_trace_close_all(struct io_trace *t, const struct worker *w)
{
	for (unsigned int k = 0; t->mem && k < t->nr; k++)
		io_trace_file_close(t, w, k);
}

void io_trace_io(struct io_trace *t, const struct worker *w, const struct io_unit *u)
{
	char path[PATH_MAX];

	if (!t->mem)
		return;
	open_by(t, w, u->file, u->start_ns);
	fprintf(t->mem, "%llu %s %s %llu %u\n",
		(unsigned long long)usec_since(t, u->start_ns),
		file_name(w, u->file, path, sizeof(path)),
		ddir_name(u->ddir),
		(unsigned long long)u->offset, u->len);
}

void io_trace_sync(struct io_trace *t, const struct worker *w, unsigned int file,
		   enum io_sync k, uint64_t stale_offset)
{
	char path[PATH_MAX];

	if (!t->mem)
		return;
	io_trace_file_open(t, w, file);
	fprintf(t->mem, "%llu %s %s %llu 0\n", (unsigned long long)usec_since(t, now_ns()),
		file_name(w, file, path, sizeof(path)),
		k == IO_SYNC_DATASYNC ? "datasync" : k == IO_SYNC_FILE_RANGE ?
		"sync_file_range" : "sync", (unsigned long long)stale_offset);
}

int io_trace_finish(struct io_trace *t, const struct worker *w, struct errbuf *err)
{
	int ret;

	if (!t->mem)
		return 0;
	io_trace_close_all(t, w);
	ret = fclose(t->mem) ? -errno : 0;
	t->mem = NULL;
	/* fio opens the log to append ("a"): each clone of numjobs adds its
	 * own, after any log already there */
	if (!ret)
		ret = append_file_locked(w->job->write_iolog, t->buf, t->len);
	if (ret)
		err_set(err, -ret, "cannot write write_iolog=%s of job '%s': %s",
			w->job->write_iolog, w->job->name, strerror(-ret));
	io_trace_free(t);
	return ret;
}

void io_trace_free(struct io_trace *t)
{
	if (t->mem)
		fclose(t->mem);
	t->mem = NULL;
	free(t->buf);
	t->buf = NULL;
	free(t->open);
	t->open = NULL;
}
