// SPDX-License-Identifier: GPL-2.0
/* fio's read_iolog logs, read (workload/replay_log.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/read_whole.h"
#include "workload/replay_blktrace.h"
#include "workload/replay_log.h"

#define LINE_MAX_BYTES 4096
#define FIELDS_MAX 6

struct parser {
	struct replay_log *log;
	const struct job_replay_opts *o;
	const char *redirect;
	const char *name;
	unsigned int line;
	uint64_t last_time;  /* version 3: the time of the line before */
	size_t cap_entries;
	size_t cap_files;
	struct errbuf *err;
};

struct fields {
	char *f[FIELDS_MAX];
	unsigned int n;
};

static int bad_line(const struct parser *p, const char *fmt, const char *what)
{
	return err_set(p->err, EINVAL, "%s:%u: %s%s", p->name, p->line, fmt, what);
}

static bool parse_u64(const char *s, uint64_t *out)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*out = strtoull(s, &end, 10);
	return !errno && !*end;
}

/* Splits @line in place at blanks; more than FIELDS_MAX fields count as
 * FIELDS_MAX + 1, which no line shape has. */
static void split_fields(char *line, struct fields *fl)
{
	char *save = NULL;

	fl->n = 0;
	for (char *t = strtok_r(line, " \t\r", &save); t;
	     t = strtok_r(NULL, " \t\r", &save)) {
		if (fl->n == FIELDS_MAX) {
			fl->n++;
			return;
		}
		fl->f[fl->n++] = t;
	}
}

/* fio's delay_since_ttime: the gap to the line before, scaled; none for
 * the first line, with replay_no_stall, or when time runs backwards. */
static uint64_t delay_since(const struct parser *p, uint64_t t)
{
	uint64_t last = p->last_time;

	if (!last || p->o->no_stall || t < last)
		return 0;
	return replay_scaled_gap(t - last, p->o->time_scale);
}

static int find_file(const struct replay_log *log, const char *name)
{
	for (unsigned int i = 0; i < log->nr_files; i++)
		if (!strcmp(log->files[i], name))
			return (int)i;
	return -1;
}

static int add_file(struct parser *p, const char *name)
{
	struct replay_log *log = p->log;
	int i = find_file(log, name);
	char **files, *copy;

	if (i >= 0)
		return i;
	files = grow_for_one(log->files, &p->cap_files, log->nr_files,
			     sizeof(*files), 4);
	copy = files ? strdup(name) : NULL;
	if (files)
		log->files = files;
	if (!copy)
		return err_set(p->err, ENOMEM, "%s: out of memory", p->name);
	log->files[log->nr_files] = copy;
	return (int)log->nr_files++;
}

uint64_t replay_scaled_gap(uint64_t gap, unsigned int time_scale)
{
	double d = (double)gap * 100.0 / (time_scale ? time_scale : 100);

	/* a gap of centuries in a corrupt log waits as long as a wait can */
	return d >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)d;
}

int replay_log_append(struct replay_log *log, size_t *cap, const struct replay_entry *e)
{
	struct replay_entry *all = grow_for_one(log->entries, cap, log->nr_entries,
						sizeof(*all), 256);

	if (!all)
		return -ENOMEM;
	log->entries = all;
	log->entries[log->nr_entries++] = *e;
	return 0;
}

static int append(struct parser *p, const struct replay_entry *e)
{
	if (replay_log_append(p->log, &p->cap_entries, e))
		return err_set(p->err, ENOMEM, "%s: out of memory", p->name);
	return 0;
}

/* The file an entry names: the redirect's, or one the log added. */
static int entry_file(struct parser *p, const char *name, struct replay_entry *e)
{
	int i = find_file(p->log, p->redirect ? p->redirect : name);

	if (i < 0)
		return err_set(p->err, EINVAL, "%s:%u: file '%.256s' is used before "
			       "a line '%.256s add' adds it", p->name, p->line,
			       name, name);
	e->file = (unsigned int)i;
	return 0;
}

static int file_action(struct parser *p, const char *name, const char *act,
		       struct replay_entry *e)
{
	int i;

	e->kind = REPLAY_FILE;
	if (!strcmp(act, "add")) {
		i = add_file(p, p->redirect ? p->redirect : name);
		if (i < 0)
			return i;
		e->file = (unsigned int)i;
		return append(p, e);
	}
	if (strcmp(act, "open") && strcmp(act, "close"))
		return bad_line(p, "unknown file action (add, open or close): ", act);
	i = entry_file(p, name, e);
	return i ? i : append(p, e);
}

/* replay_skip, and the directions iodig has; 1: skip the line. */
static int io_kind(struct parser *p, const char *act, enum replay_kind *kind)
{
	static const struct { const char *name; enum replay_kind kind;
			      unsigned int skip; } acts[] = {
		{ "read", REPLAY_READ, REPLAY_SKIP_READ },
		{ "write", REPLAY_WRITE, REPLAY_SKIP_WRITE },
		{ "sync", REPLAY_SYNC, REPLAY_SKIP_SYNC },
		{ "datasync", REPLAY_DATASYNC, 0 }, /* fio skips none */
		{ "wait", REPLAY_WAIT, 0 },
	};

	for (size_t i = 0; i < sizeof(acts) / sizeof(acts[0]); i++) {
		if (strcmp(act, acts[i].name))
			continue;
		*kind = acts[i].kind;
		return (p->o->skip & acts[i].skip) ? 1 : 0;
	}
	if (!strcmp(act, "trim"))
		return (p->o->skip & REPLAY_SKIP_TRIM) ? 1 :
		       bad_line(p, "trim: iodig has no trim direction to replay "
				"it in (replay_skip=trim leaves the log's trims out)", "");
	return bad_line(p, "unknown action (read, write, sync, datasync, trim, "
			"wait): ", act);
}

static void count_io(struct replay_log *log, const struct replay_entry *e)
{
	enum ddir d = (enum ddir)e->kind;

	log->ios[d]++;
	log->bytes[d] += e->len;
	if (e->len > log->max_len[d])
		log->max_len[d] = e->len;
	if (e->offset + e->len > log->end)
		log->end = e->offset + e->len;
}

static int io_action(struct parser *p, char **f, struct replay_entry *e)
{
	uint64_t off, len;
	int ret = io_kind(p, f[1], &e->kind);

	if (ret)
		return ret < 0 ? ret : 0;
	if (!parse_u64(f[2], &off))
		return bad_line(p, "offset is not a number: ", f[2]);
	if (!parse_u64(f[3], &len) || len > UINT32_MAX)
		return bad_line(p, "length is not a number below 4 GiB: ", f[3]);
	if (e->kind == REPLAY_WAIT) {
		if (p->o->no_stall)
			return 0;
		e->delay_us = off * 1000; /* fio: milliseconds since the start */
		return append(p, e);
	}
	off /= p->o->scale ? p->o->scale : 1;
	if (p->o->align)
		off &= ~(p->o->align - 1); /* fio's ipo_bytes_align */
	e->offset = off;
	e->len = (uint32_t)len;
	ret = entry_file(p, f[0], e);
	if (ret)
		return ret;
	if (e->kind == REPLAY_READ || e->kind == REPLAY_WRITE)
		count_io(p->log, e);
	else
		p->log->syncs++;
	return append(p, e);
}

static int parse_line(struct parser *p, char *line)
{
	struct replay_entry e = { 0 };
	struct fields fl;
	char **f = fl.f;
	uint64_t t;

	/* the header again: write_iolog with numjobs (or run twice) appends
	 * one log per clone to the file; fio reads on past each header */
	if (!strncmp(line, "fio version ", 12))
		return 0;
	split_fields(line, &fl);
	if (!fl.n)
		return 0; /* fio's sscanf skips a blank line too */
	if (p->log->version == 3) {
		if (!parse_u64(f[0], &t))
			return bad_line(p, "the time in microseconds is not a number: ",
					f[0]);
		e.delay_us = delay_since(p, t);
		p->last_time = t;
		if (fl.n >= 3 && !strcmp(f[2], "wait"))
			return 0; /* fio ignores a version 3 wait */
		f++;
		fl.n--;
	}
	if (fl.n == 2)
		return file_action(p, f[0], f[1], &e);
	if (fl.n == 4)
		return io_action(p, f, &e);
	return bad_line(p, p->log->version == 3 ?
			"expected 'USEC FILE add|open|close' or 'USEC FILE ACTION OFFSET LENGTH'" :
			"expected 'FILE add|open|close' or 'FILE ACTION OFFSET LENGTH'", "");
}

static int parse_version(struct parser *p, const char *text)
{
	static const char v2[] = "fio version 2 iolog", v3[] = "fio version 3 iolog";

	p->line = 1;
	if (!strncmp(text, v2, sizeof(v2) - 1))
		p->log->version = 2;
	else if (!strncmp(text, v3, sizeof(v3) - 1))
		p->log->version = 3;
	else
		return bad_line(p, "not a fio iolog: the first line must be "
				"'fio version 3 iolog' or 'fio version 2 iolog' "
				"(fio reads no version 1 logs either)", "");
	return 0;
}

static int parse_lines(struct parser *p, const char *text)
{
	char line[LINE_MAX_BYTES];
	const char *s = strchr(text, '\n');

	while (s && *++s) {
		const char *nl = strchr(s, '\n');
		size_t len = nl ? (size_t)(nl - s) : strlen(s);
		int ret;

		p->line++;
		if (len >= sizeof(line))
			return bad_line(p, "line longer than 4095 bytes", "");
		memcpy(line, s, len);
		line[len] = '\0';
		ret = parse_line(p, line);
		if (ret)
			return ret;
		s = nl;
	}
	return 0;
}

int replay_log_parse(struct replay_log *log, const char *text, const char *name,
		     const struct job_replay_opts *o, const char *redirect,
		     struct errbuf *err)
{
	struct parser p = { .log = log, .o = o, .redirect = redirect,
			    .name = name, .err = err };
	int ret;

	memset(log, 0, sizeof(*log));
	ret = parse_version(&p, text);
	if (!ret && redirect)
		ret = add_file(&p, redirect) < 0 ? -ENOMEM : 0;
	if (!ret)
		ret = parse_lines(&p, text);
	if (!ret && !log->ios[DDIR_READ] && !log->ios[DDIR_WRITE])
		ret = err_set(err, EINVAL, "%s: the log has no read or write to "
			      "replay%s", name, o->skip ? " (after replay_skip)" : "");
	if (ret)
		replay_log_free(log);
	return ret;
}

int replay_log_load(struct replay_log *log, const char *path,
		    const struct job_replay_opts *o, const char *redirect,
		    struct errbuf *err)
{
	char *text = NULL;
	size_t len = 0;
	int fd, ret;

	memset(log, 0, sizeof(*log));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, errno, "read_iolog=%s: cannot open it: %s",
			       path, strerror(errno));
	ret = read_whole(fd, REPLAY_LOG_MAX_BYTES, &text, &len);
	close(fd);
	if (ret)
		return err_set(err, -ret, "read_iolog=%s: cannot read it: %s", path,
			       ret == -EFBIG ? "larger than 1 GiB" : strerror(-ret));
	if (replay_is_blktrace((const unsigned char *)text, len))
		ret = replay_blktrace_parse(log, (const unsigned char *)text, len,
					    path, o, redirect, err);
	else
		ret = replay_log_parse(log, text, path, o, redirect, err);
	free(text);
	return ret;
}

void replay_log_free(struct replay_log *log)
{
	for (unsigned int i = 0; i < log->nr_files; i++)
		free(log->files[i]);
	free(log->files);
	free(log->entries);
	memset(log, 0, sizeof(*log));
}
