// SPDX-License-Identifier: GPL-2.0
/*
 * fio's job description dialects: INI job files and the "--key=value"
 * command line, both feeding the option table in options.c; then the
 * cross-option checks (job_list_finalize) that no single option can do.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload/engine.h"
#include "workload/engine_opts.h"
#include "job/options.h"
#include "job/process_opts.h"

/* Bounds for hostile input (the parser is fuzzed): a job file is text a
 * person wrote, so these are far above anything real. */
#define JOBFILE_MAX_BYTES (16u << 20)
#define JOBFILE_LINE_MAX  (PATH_MAX + 1024)
#define JOBFILE_MAX_JOBS  1024
/* Workers of a whole run (numjobs summed over every job file and the
 * command line): fio's limit too.  Each worker has ~110 KiB of shared
 * stats, so this also bounds that mapping (~450 MiB at most). */
#define RUN_MAX_WORKERS   4096

#define BS_MAX_BYTES (128u << 20)
#define DIRECT_ALIGN 512u /* O_DIRECT needs logical-block alignment */

/* Jobs parsed so far; appended to the caller's list only on success, so a
 * failed parse leaves the list as it was. */
struct job_vec {
	struct job *jobs;
	size_t count, cap;
};

static struct job *vec_push(struct job_vec *v)
{
	if (v->count == v->cap) {
		size_t cap = v->cap ? v->cap * 2 : 4;
		struct job *jobs = realloc(v->jobs, cap * sizeof(*jobs));

		if (!jobs)
			return NULL;
		v->jobs = jobs;
		v->cap = cap;
	}
	return &v->jobs[v->count++];
}

static int vec_move_to_list(struct job_vec *v, struct job_list *list,
			    struct errbuf *err)
{
	struct job *jobs;

	if (!v->count)
		return 0;
	jobs = realloc(list->jobs, (list->count + v->count) * sizeof(*jobs));
	if (!jobs)
		return err_set(err, ENOMEM, "out of memory for %zu jobs",
			       list->count + v->count);
	memcpy(jobs + list->count, v->jobs, v->count * sizeof(*jobs));
	list->jobs = jobs;
	list->count += v->count;
	return 0;
}

/* Starts a job as a copy of the current [global] defaults. */
static int job_start(struct job_vec *v, const struct job *global,
		     const char *name, const char *source, int line,
		     const char *where, struct job **out, struct errbuf *err)
{
	struct job *job;

	if (v->count >= JOBFILE_MAX_JOBS)
		return err_set(err, E2BIG, "%s: more than %d jobs", where,
			       JOBFILE_MAX_JOBS);
	if (strlen(name) >= sizeof(job->name))
		return err_set(err, ENAMETOOLONG, "%s: job name is longer "
			       "than %zu bytes", where, sizeof(job->name) - 1);
	job = vec_push(v);
	if (!job)
		return err_set(err, ENOMEM, "%s: out of memory", where);
	*job = *global;
	strcpy(job->name, name);
	snprintf(job->source, sizeof(job->source), "%s", source);
	job->source_line = line;
	*out = job;
	return 0;
}

/* ---- INI job files ------------------------------------------------------ */

static char *trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* fio: ';' or '#' starts a comment at the line start or after blanks, so
 * "filename=/tmp/a#1" keeps its '#'. */
static void strip_comment(char *s)
{
	for (char *p = s; *p; p++) {
		if ((*p == ';' || *p == '#') &&
		    (p == s || p[-1] == ' ' || p[-1] == '\t')) {
			*p = '\0';
			return;
		}
	}
}

/* Expands ${VAR} from the environment, as fio does in job files. */
static int expand_env(const char *in, char *out, size_t out_len,
		      const char *where, struct errbuf *err)
{
	size_t n = 0;

	while (*in) {
		const char *val = NULL, *close;
		size_t len;

		if (in[0] == '$' && in[1] == '{') {
			char var[256];

			close = strchr(in + 2, '}');
			len = close ? (size_t)(close - in - 2) : 0;
			if (!close || !len || len >= sizeof(var))
				return err_set(err, EINVAL, "%s: '${' without "
					       "a variable name and '}'",
					       where);
			memcpy(var, in + 2, len);
			var[len] = '\0';
			val = getenv(var);
			if (!val)
				return err_set(err, ENOENT, "%s: environment "
					       "variable '%s' is not set",
					       where, var);
			in = close + 1;
		}
		len = val ? strlen(val) : 1;
		if (n + len >= out_len)
			return err_set(err, E2BIG, "%s: line is longer than "
				       "%zu bytes after expanding variables",
				       where, out_len - 1);
		memcpy(out + n, val ? val : in, len);
		n += len;
		if (!val)
			in++;
	}
	out[n] = '\0';
	return 0;
}

struct ini_state {
	const char *name;     /* file name, for messages and job->source */
	struct job global;    /* [global] options seen so far */
	struct job *cur;      /* job being filled; NULL in [global] */
	bool in_section;
	struct job_vec vec;
};

static int ini_section(struct ini_state *st, char *line, int lineno,
		       const char *where, struct errbuf *err)
{
	char *close = strchr(line, ']');
	char *name;

	if (!close)
		return err_set(err, EINVAL, "%s: section header '%.64s' has "
			       "no closing ']'", where, line);
	if (*trim(close + 1))
		return err_set(err, EINVAL, "%s: unexpected text '%.64s' after "
			       "section header", where, trim(close + 1));
	*close = '\0';
	name = trim(line + 1);
	if (!name[0])
		return err_set(err, EINVAL, "%s: empty section name '[]'",
			       where);
	st->in_section = true;
	if (!strcmp(name, "global")) {
		/* Later [global] sections add to the defaults, and only jobs
		 * that follow them see the change (fio). */
		st->cur = NULL;
		return 0;
	}
	return job_start(&st->vec, &st->global, name, st->name, lineno,
			 where, &st->cur, err);
}

static int ini_line(struct ini_state *st, char *line, int lineno,
		    struct errbuf *err)
{
	char where[PATH_MAX + 32];
	char expanded[JOBFILE_LINE_MAX];
	char *eq, *key, *value = NULL;
	int ret;

	snprintf(where, sizeof(where), "%s:%d", st->name, lineno);
	strip_comment(line);
	line = trim(line);
	if (!line[0])
		return 0;
	if (line[0] == '[')
		return ini_section(st, line, lineno, where, err);

	eq = strchr(line, '=');
	if (eq) {
		*eq = '\0';
		value = trim(eq + 1);
	}
	key = trim(line);
	if (!key[0])
		return err_set(err, EINVAL, "%s: '=%.64s' has no option name",
			       where, value);
	if (!st->in_section)
		return err_set(err, EINVAL, "%s: option '%.64s' appears before "
			       "any [section]", where, key);
	if (value) {
		ret = expand_env(value, expanded, sizeof(expanded), where, err);
		if (ret)
			return ret;
		value = expanded;
	}
	return job_option_set_at(st->cur ? st->cur : &st->global, key, value,
				 where, lineno, err);
}

int jobfile_parse_buffer(const char *name, const char *buf, size_t len,
			 struct job_list *list, struct errbuf *err)
{
	struct ini_state st = { .name = name ? name : "job file" };
	char line[JOBFILE_LINE_MAX];
	size_t pos = 0;
	int lineno = 0;
	int ret = 0;

	if (!list || (!buf && len))
		return err_set(err, EINVAL, "%s: no buffer to parse", st.name);
	if (len > JOBFILE_MAX_BYTES)
		return err_set(err, EFBIG, "%s: job file is larger than %u "
			       "bytes", st.name, JOBFILE_MAX_BYTES);
	job_set_defaults(&st.global);
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		pos = 3; /* UTF-8 byte order mark from some editors */

	while (pos < len) {
		const char *start = buf + pos;
		const char *nl = memchr(start, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - start) : len - pos;

		pos += n + (nl ? 1 : 0);
		lineno++;
		if (n >= sizeof(line)) {
			ret = err_set(err, E2BIG, "%s:%d: line is longer than "
				      "%zu bytes", st.name, lineno,
				      sizeof(line) - 1);
			goto cleanup;
		}
		if (memchr(start, '\0', n)) {
			ret = err_set(err, EINVAL, "%s:%d: line contains a NUL "
				      "byte; job files are text", st.name,
				      lineno);
			goto cleanup;
		}
		memcpy(line, start, n);
		line[n] = '\0'; /* a CR of CRLF is trimmed as blank */
		ret = ini_line(&st, line, lineno, err);
		if (ret)
			goto cleanup;
	}
	if (!st.vec.count) {
		ret = err_set(err, EINVAL, "%s: no jobs defined (a job is a "
			      "[section] other than [global])", st.name);
		goto cleanup;
	}
	ret = vec_move_to_list(&st.vec, list, err);
cleanup:
	free(st.vec.jobs);
	return ret;
}

int jobfile_parse(const char *path, struct job_list *list, struct errbuf *err)
{
	size_t len = 0, cap = 64 << 10;
	char *buf = NULL, *bigger;
	struct stat sb;
	ssize_t n;
	int fd, ret, e;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		return err_set(err, e, "cannot read job file '%s': %s", path,
			       strerror(e));
	}
	if (fstat(fd, &sb) == 0 && S_ISDIR(sb.st_mode)) {
		ret = err_set(err, EISDIR, "cannot read job file '%s': %s",
			      path, strerror(EISDIR));
		goto cleanup;
	}
	for (;;) {
		if (!buf || len == cap) {
			if (buf)
				cap *= 2;
			if (cap > JOBFILE_MAX_BYTES + 1)
				cap = JOBFILE_MAX_BYTES + 1;
			bigger = realloc(buf, cap);
			if (!bigger) {
				ret = err_set(err, ENOMEM, "cannot read job "
					      "file '%s': out of memory", path);
				goto cleanup;
			}
			buf = bigger;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			e = errno;
			ret = err_set(err, e, "cannot read job file '%s': %s",
				      path, strerror(e));
			goto cleanup;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > JOBFILE_MAX_BYTES) {
			ret = err_set(err, EFBIG, "job file '%s' is larger "
				      "than %u bytes", path, JOBFILE_MAX_BYTES);
			goto cleanup;
		}
	}
	ret = jobfile_parse_buffer(path, buf, len, list, err);
cleanup:
	free(buf);
	close(fd);
	return ret;
}

/* ---- fio's command line -------------------------------------------------- */

int cmdline_jobs_parse(int argc, char *const argv[], struct job_list *list,
		       struct errbuf *err)
{
	static const char where[] = "command line";
	struct job global;
	struct job_vec vec = { 0 };
	struct job *cur = NULL;
	int ret = 0;

	job_set_defaults(&global);
	for (int i = 0; i < argc; i++) {
		const char *arg = argv[i], *eq, *value = NULL;
		struct job *target;
		char key[128];
		size_t klen;

		if (strncmp(arg, "--", 2) || !arg[2]) {
			ret = err_set(err, EINVAL, "%s: unexpected argument "
				      "'%.64s' (job options look like "
				      "--key=value)", where, arg);
			goto cleanup;
		}
		arg += 2;
		eq = strchr(arg, '=');
		klen = eq ? (size_t)(eq - arg) : strlen(arg);
		if (klen >= sizeof(key)) {
			ret = err_set(err, EINVAL, "%s: unknown option "
				      "'%.64s'", where, arg);
			goto cleanup;
		}
		memcpy(key, arg, klen);
		key[klen] = '\0';
		if (eq)
			value = eq + 1;
		/* fio's getopt also takes "--bs 4k"; a bare boolean is not
		 * followed by its value. */
		target = cur ? cur : &global;
		if (!value && i + 1 < argc && strncmp(argv[i + 1], "--", 2) &&
		    job_option_known(key) &&
		    (!strcmp(key, "name") ||
		     job_option_set(target, key, NULL, where, NULL)))
			value = argv[++i];

		if (strcmp(key, "name")) {
			ret = job_option_set(target, key, value, where, err);
			if (ret)
				goto cleanup;
			continue;
		}
		if (!value || !value[0]) {
			ret = err_set(err, EINVAL, "%s: option 'name' needs a "
				      "value", where);
			goto cleanup;
		}
		if (!strcmp(value, "global")) { /* fio: --name=global */
			cur = NULL;
			continue;
		}
		ret = job_start(&vec, &global, value, where, 0, where, &cur,
				err);
		if (ret)
			goto cleanup;
	}
	if (!vec.count) {
		ret = err_set(err, EINVAL, "%s: no job defined (start one with "
			      "--name=NAME)", where);
		goto cleanup;
	}
	ret = vec_move_to_list(&vec, list, err);
cleanup:
	free(vec.jobs);
	return ret;
}

/* ---- checks across options ------------------------------------------------ */

#define WHERE_LEN (PATH_MAX + JOB_NAME_MAX + 64)

static void job_where(const struct job *job, char *buf, size_t len)
{
	if (job->source[0] && job->source_line > 0)
		snprintf(buf, len, "%s:%d: job '%s'", job->source,
			 job->source_line, job->name);
	else if (job->source[0])
		snprintf(buf, len, "%s: job '%s'", job->source, job->name);
	else
		snprintf(buf, len, "job '%s'", job->name);
}

static int check_bs(const struct job *job, const char *where,
		    struct errbuf *err)
{
	for (int d = 0; d < DDIR_COUNT; d++) {
		unsigned int bs = job->bs[d], lo = job->bs_min[d];
		unsigned int hi = job->bs_max[d];

		if (d == DDIR_READ ? !rw_has_read(job->rw) :
				     !rw_has_write(job->rw))
			continue;
		if (!bs || !lo)
			return err_set(err, EINVAL, "%s: bs must be larger "
				       "than 0", where);
		if (bs > BS_MAX_BYTES || hi > BS_MAX_BYTES)
			return err_set(err, EINVAL, "%s: bs %u is larger than "
				       "the maximum %u (128 MiB)", where,
				       bs > hi ? bs : hi, BS_MAX_BYTES);
		if (lo > hi || bs < lo || bs > hi)
			return err_set(err, EINVAL, "%s: bs %u does not fit "
				       "bsrange %u-%u", where, bs, lo, hi);
		if (job->direct && (lo % DIRECT_ALIGN || hi % DIRECT_ALIGN ||
				    bs % DIRECT_ALIGN))
			return err_set(err, EINVAL, "%s: bs %u is not a "
				       "multiple of %u, which direct=1 "
				       "(O_DIRECT) needs", where,
				       lo % DIRECT_ALIGN ? lo :
				       hi % DIRECT_ALIGN ? hi : bs,
				       DIRECT_ALIGN);
		if (job->size && lo > job->size)
			return err_set(err, EINVAL, "%s: bs %u is larger than "
				       "size %llu", where, lo,
				       (unsigned long long)job->size);
	}
	return 0;
}

static int check_job(struct job *job, struct errbuf *err)
{
	char where[WHERE_LEN];
	int ret;

	job_where(job, where, sizeof(where));
	job->engine = engine_find(job->ioengine);
	if (!job->engine)
		return err_set(err, EINVAL, "%s: ioengine '%.64s' is unknown "
			       "(iodig has %s)", where, job->ioengine,
			       engine_names());
	ret = check_bs(job, where, err);
	if (ret)
		return ret;
	if (job->iodepth < 1 || job->iodepth > 65536)
		return err_set(err, EINVAL, "%s: iodepth %u is out of range "
			       "1-65536", where, job->iodepth);
	/* fio clamps the submit batch to the depth ... */
	if (job->iodepth_batch_submit > job->iodepth)
		job->iodepth_batch_submit = job->iodepth;
	/* ... but waiting for more completions than can be in flight would
	 * never return. */
	if (job->iodepth_batch_complete_min > job->iodepth)
		return err_set(err, EINVAL, "%s: iodepth_batch_complete_min %u "
			       "is larger than iodepth %u", where,
			       job->iodepth_batch_complete_min, job->iodepth);
	if (job->numjobs < 1 || job->numjobs > 1024)
		return err_set(err, EINVAL, "%s: numjobs %u is out of range "
			       "1-1024", where, job->numjobs);
	if (job->rwmixread > 100)
		return err_set(err, EINVAL, "%s: rwmixread %u is out of range "
			       "0-100", where, job->rwmixread);
	if (job->size && job->offset > UINT64_MAX - job->size)
		return err_set(err, EINVAL, "%s: offset %llu + size %llu "
			       "overflows", where,
			       (unsigned long long)job->offset,
			       (unsigned long long)job->size);
	if (job->direct && job->offset % DIRECT_ALIGN)
		return err_set(err, EINVAL, "%s: offset %llu is not a multiple "
			       "of %u, which direct=1 (O_DIRECT) needs", where,
			       (unsigned long long)job->offset, DIRECT_ALIGN);
	ret = engine_opts_resolve(job, where, err);
	if (ret)
		return ret;
	if (job->verify != VERIFY_NONE && !rw_has_write(job->rw))
		return err_set(err, EINVAL, "%s: verify=crc32c needs a writing "
			       "rw mode, not rw=%s", where,
			       rw_mode_name(job->rw));
	if (job->time_based && !job->runtime_ns)
		return err_set(err, EINVAL, "%s: time_based needs runtime > 0",
			       where);
	if (!job->io_size)
		job->io_size = job->size; /* still 0 = whole target, resolved
					   * once the target is open */
	return 0;
}

int job_list_finalize(struct job_list *list, struct errbuf *err)
{
	size_t in_group = 0, workers = 0;
	int group = 0;
	int ret;

	if (!list || !list->count)
		return err_set(err, EINVAL, "no jobs to run");
	for (size_t i = 0; i < list->count; i++) {
		ret = check_job(&list->jobs[i], err);
		if (ret)
			return ret;
		workers += list->jobs[i].numjobs;
	}
	if (workers > RUN_MAX_WORKERS)
		return err_set(err, E2BIG, "the jobs ask for %zu workers in all (numjobs summed over %zu jobs); iodig runs at most %d, as fio does",
			       workers, list->count, RUN_MAX_WORKERS);
	/* fio: stonewall makes a job wait for all before it and opens a new
	 * reporting group, unless the current group is still empty. */
	for (size_t i = 0; i < list->count; i++) {
		if (list->jobs[i].stonewall && in_group) {
			group++;
			in_group = 0;
		}
		list->jobs[i].group_id = group;
		in_group++;
	}
	return 0;
}

int job_list_check_host(const struct job_list *list, struct errbuf *err)
{
	char where[WHERE_LEN];

	for (size_t i = 0; list && i < list->count; i++) {
		int ret;

		job_where(&list->jobs[i], where, sizeof(where));
		ret = job_check_host(&list->jobs[i], where, err);
		if (ret)
			return ret;
	}
	return 0;
}

void job_list_free(struct job_list *list)
{
	if (!list)
		return;
	free(list->jobs);
	list->jobs = NULL;
	list->count = 0;
}
