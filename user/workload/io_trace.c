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

static void log_files(struct io_trace *t, const struct worker *w, const char *what)
{
	char path[PATH_MAX];
	uint64_t usec = usec_since(t, now_ns());
	bool limited = w->fds && worker_files_limited(w);

	/* files opened as picked (worker_files_limited): each open is
	 * logged as it happens (io_trace_file), and at the end the close
	 * of those still open */
	if (limited && !strcmp(what, "open"))
		return;
	for (unsigned int k = 0; k < (w->nr_files ? w->nr_files : 1); k++)
		if (!limited || !strcmp(what, "add") || w->fds[k] >= 0)
			fprintf(t->mem, "%llu %s %s\n", (unsigned long long)usec,
				file_name(w, k, path, sizeof(path)), what);
}

int io_trace_open(struct io_trace *t, const struct worker *w, struct errbuf *err)
{
	memset(t, 0, sizeof(*t));
	if (!w->job->write_iolog[0])
		return 0;
	t->start_ns = now_ns();
	t->mem = open_memstream(&t->buf, &t->len);
	if (!t->mem)
		return err_set(err, ENOMEM, "write_iolog=%s: out of memory",
			       w->job->write_iolog);
	fputs("fio version 3 iolog\n", t->mem);
	log_files(t, w, "add");
	log_files(t, w, "open");
	return 0;
}

void io_trace_file(struct io_trace *t, const struct worker *w, unsigned int file,
		   const char *what)
{
	char path[PATH_MAX];

	if (t->mem)
		fprintf(t->mem, "%llu %s %s\n", (unsigned long long)usec_since(t, now_ns()),
			file_name(w, file, path, sizeof(path)), what);
}

void io_trace_io(struct io_trace *t, const struct worker *w, const struct io_unit *u)
{
	char path[PATH_MAX];

	if (!t->mem)
		return;
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
	fprintf(t->mem, "%llu %s %s %llu 0\n", (unsigned long long)usec_since(t, now_ns()),
		file_name(w, file, path, sizeof(path)),
		k == IO_SYNC_DATASYNC ? "datasync" : k == IO_SYNC_FILE_RANGE ?
		"sync_file_range" : "sync", (unsigned long long)stale_offset);
}

void io_trace_reopen(struct io_trace *t, const struct worker *w)
{
	if (!t->mem)
		return;
	log_files(t, w, "close");
	log_files(t, w, "open");
}

int io_trace_finish(struct io_trace *t, const struct worker *w, struct errbuf *err)
{
	int ret;

	if (!t->mem)
		return 0;
	log_files(t, w, "close");
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
}
