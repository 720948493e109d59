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

#include "base/grow.h"
#include "job/expand.h"
#include "job/given_opts.h"
#include "job/jobfile_read.h"
#include "job/options.h"

/* Bounds for hostile input (the parser is fuzzed, JOBFILE_MAX_BYTES is in
 * jobfile_read.h): a job file is text a person wrote, so these are far
 * above anything real. */
#define JOBFILE_LINE_MAX  (PATH_MAX + 1024)
#define JOBFILE_MAX_JOBS  1024

/* Jobs parsed so far; appended to the caller's list only on success, so a
 * failed parse leaves the list as it was. */
struct job_vec {
	struct job *jobs;
	size_t count, cap;
};

static struct job *vec_push(struct job_vec *v)
{
	struct job *jobs = grow_for_one(v->jobs, &v->cap, v->count, sizeof(*jobs), 4);

	if (!jobs)
		return NULL;
	v->jobs = jobs;
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
	job_given_mark_global(job);
	strcpy(job->name, name);
	snprintf(job->source, sizeof(job->source), "%s", source);
	job->source_line = line;
	*out = job;
	return 0;
}

/* ---- INI job files ------------------------------------------------------ */

/* fio does not bound include nesting; a chain this deep is a mistake. */
#define INCLUDE_MAX_DEPTH 16

/* fio parses a section's options sorted by priority: kb_base and
 * unit_base first, so "size=1m" then "kb_base=1000" is 1000000 bytes. */
static const char *const section_first[] = { "kb_base", "unit_base" };

/* An option line of the section being read, applied when it ends. */
struct ini_opt {
	char *key;
	char *value;          /* NULL: a bare key */
	char *where;          /* "file:line" */
	int line;             /* in the job's own file; 0 from an included one */
	struct expand_notes notes; /* a ${VAR} that was not set */
};

/* A file being read: the job file, or one that it includes. */
struct ini_file {
	const char *name;
	bool known;           /* dev and ino identify it */
	dev_t dev;
	ino_t ino;
};

struct ini_state {
	const char *name;     /* the job file, for job->source */
	struct job global;    /* [global] options seen so far */
	struct job *cur;      /* job being filled; NULL in [global] */
	bool in_section;
	struct job_vec vec;
	struct ini_opt *opts; /* of the current section */
	size_t nr_opts, cap_opts;
	struct ini_file files[INCLUDE_MAX_DEPTH + 1];
	int depth;            /* files[0..depth] are being read */
	const struct jobfile_select *select; /* --section, --showcmd */
	bool skipping;        /* in a section --section leaves out */
	char section[64];     /* the current one's name, for echo */
};

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

/* fio 3.33 (strip_blank_end): the first ';' or '#' anywhere ends a line,
 * so "filename=/tmp/a#1" is "/tmp/a". */
static void strip_comment(char *s)
{
	s[strcspn(s, ";#")] = '\0';
}

static void ini_opt_free(struct ini_opt *o)
{
	free(o->key); /* key, value and where share one allocation */
}

static void ini_opts_clear(struct ini_state *st)
{
	for (size_t i = 0; i < st->nr_opts; i++)
		ini_opt_free(&st->opts[i]);
	st->nr_opts = 0;
}

static int ini_opt_add(struct ini_state *st, const char *key,
		       const char *value, const char *where, int line,
		       const struct expand_notes *notes, struct errbuf *err)
{
	size_t klen = strlen(key) + 1, vlen = value ? strlen(value) + 1 : 0;
	struct ini_opt *o, *opts;
	char *mem;

	opts = grow_for_one(st->opts, &st->cap_opts, st->nr_opts, sizeof(*opts), 16);
	if (!opts)
		return err_set(err, ENOMEM, "%s: out of memory", where);
	st->opts = opts;
	mem = malloc(klen + vlen + strlen(where) + 1);
	if (!mem)
		return err_set(err, ENOMEM, "%s: out of memory", where);
	o = &st->opts[st->nr_opts++];
	o->key = memcpy(mem, key, klen);
	o->value = value ? memcpy(mem + klen, value, vlen) : NULL;
	o->where = strcpy(mem + klen + vlen, where);
	o->line = line;
	o->notes = *notes;
	return 0;
}

static bool applies_first(const char *key)
{
	for (size_t i = 0; i < sizeof(section_first) / sizeof(*section_first); i++)
		if (!strcmp(key, section_first[i]))
			return true;
	return false;
}

/* fio puts an empty string for an unset ${VAR}, and refuses an option
 * left empty by it: say which variable broke the option. */
static int ini_opt_apply(struct job *job, const struct ini_opt *o,
			 struct errbuf *err)
{
	const struct expand_notes *n = &o->notes;
	size_t len;
	int ret;

	if (n->unset && o->value && !o->value[0])
		return err_set(err, EINVAL, "%s: option '%.64s' is empty: "
			       "${%s} is not set, and fio puts an empty string "
			       "there", o->where, o->key, n->name);
	ret = job_option_set_at(job, o->key, o->value, o->where, o->line, err);
	if (!ret)
		job_given_add(job, job_option_name(o->key), o->value);
	len = strlen(err->msg);
	if (ret && n->unset && len < sizeof(err->msg))
		snprintf(err->msg + len, sizeof(err->msg) - len, " (${%s} is "
			 "not set; fio puts an empty string there)", n->name);
	return ret;
}

/* Whether --section keeps the job of section @name ([global] always). */
static bool section_selected(const struct jobfile_select *sel, const char *name)
{
	if (!sel || !sel->nr_sections || !strcmp(name, "global"))
		return true;
	for (unsigned int i = 0; i < sel->nr_sections; i++)
		if (!strcmp(sel->sections[i], name))
			return true;
	return false;
}

/* A section (@key NULL) or option line to --showcmd's listener. */
static void ini_echo(struct ini_state *st, const char *section, const char *key,
		     const char *value)
{
	if (section)
		snprintf(st->section, sizeof(st->section), "%s", section);
	if (st->select && st->select->echo)
		st->select->echo(st->select->echo_arg, st->section, key, value);
}

/* Applies the section's options to its job (or [global]), the first ones
 * of section_first before the others, then forgets them. */
static int ini_flush(struct ini_state *st, struct errbuf *err)
{
	struct job *job = st->cur ? st->cur : &st->global;
	int ret = 0;

	for (int pass = 0; pass < 2 && !ret; pass++) {
		for (size_t i = 0; i < st->nr_opts && !ret; i++) {
			if (applies_first(st->opts[i].key) != !pass)
				continue;
			ret = ini_opt_apply(job, &st->opts[i], err);
			if (!ret)
				ini_echo(st, NULL, st->opts[i].key, st->opts[i].value);
		}
	}
	ini_opts_clear(st);
	return ret;
}

/*
 * fio 3.33 names a section by the header's text between its first and
 * last characters, whatever they are: "[fio-test]G" is the job
 * "fio-test]", "[a] b" is "a] " and "[ a ]" is " a ", blanks kept (so
 * "[ global ]" is a job, not the defaults).
 */
static int ini_section(struct ini_state *st, char *line, int lineno,
		       const char *where, struct errbuf *err)
{
	size_t len = strlen(line);
	char *name = line + 1;

	if (st->depth)
		return err_set(err, EINVAL, "%s: section header '%.64s' in an "
			       "included file (fio allows only options there)",
			       where, line);
	if (!strchr(line, ']'))
		return err_set(err, EINVAL, "%s: section header '%.64s' has "
			       "no closing ']'", where, line);
	line[len - 1] = '\0';
	st->in_section = true;
	st->skipping = !section_selected(st->select, name);
	if (st->skipping)
		return 0;
	ini_echo(st, name, NULL, NULL);
	if (!strcmp(name, "global")) {
		/* Later [global] sections add to the defaults, and only jobs
		 * that follow them see the change (fio). */
		st->cur = NULL;
		return 0;
	}
	return job_start(&st->vec, &st->global, name, st->name, lineno,
			 where, &st->cur, err);
}

static int ini_option(struct ini_state *st, const char *line, int lineno,
		      const char *where, struct errbuf *err)
{
	char expanded[JOBFILE_LINE_MAX];
	struct expand_notes notes;
	char *eq, *key, *value = NULL;
	int ret;

	ret = jobline_expand(line, expanded, sizeof(expanded), &notes, where,
			     err);
	if (ret)
		return ret;
	eq = strchr(expanded, '=');
	if (eq) {
		*eq = '\0';
		/* fio keeps the blanks after '=' (only a value's end is
		 * stripped): the option's parser judges them */
		value = trim(eq + 1);
		if (value[0] && value > eq + 1 && isspace((unsigned char)eq[1]))
			value = eq + 1;
	}
	key = trim(expanded);
	if (!key[0])
		return err_set(err, EINVAL, "%s: '=%.64s' has no option name",
			       where, value);
	if (!st->in_section)
		return err_set(err, EINVAL, "%s: option '%.64s' appears before "
			       "any [section]", where, key);
	/* an engine option keeps its line only in the job's own file */
	return ini_opt_add(st, key, value, where, st->depth ? 0 : lineno,
			   &notes, err);
}

static int ini_include(struct ini_state *st, const char *arg,
		       const char *where, struct errbuf *err);

/* "include FILE": fio's directive, a word then blanks. */
static const char *include_arg(char *line)
{
	if (strncmp(line, "include", 7) || (line[7] && !isblank(line[7])))
		return NULL;
	return trim(line + 7);
}

static int ini_line_parse(struct ini_state *st, char *line, int lineno,
			  struct errbuf *err)
{
	const char *fname = st->files[st->depth].name;
	char where[PATH_MAX + 32];
	const char *inc;

	snprintf(where, sizeof(where), "%s:%d", fname, lineno);
	strip_comment(line);
	line = trim(line);
	if (!line[0] || (st->skipping && line[0] != '['))
		return 0;
	if (line[0] == '[') {
		int ret = ini_flush(st, err);

		return ret ? ret : ini_section(st, line, lineno, where, err);
	}
	inc = include_arg(line);
	if (!inc)
		return ini_option(st, line, lineno, where, err);
	if (!st->in_section)
		return err_set(err, EINVAL, "%s: include appears before any "
			       "[section]", where);
	if (!inc[0])
		return err_set(err, EINVAL, "%s: include needs a file name",
			       where);
	return ini_include(st, inc, where, err);
}

/* A line's error, unless an earlier option of its section fails first. */
static int ini_line(struct ini_state *st, char *line, int lineno,
		    struct errbuf *err)
{
	int ret = ini_line_parse(st, line, lineno, err);
	struct errbuf earlier;
	int first;

	if (!ret)
		return 0;
	first = ini_flush(st, &earlier);
	if (first)
		*err = earlier;
	return first ? first : ret;
}

/* The lines of one file's text, @name for messages. */
static int ini_text(struct ini_state *st, const char *name, const char *buf,
		    size_t len, struct errbuf *err)
{
	char line[JOBFILE_LINE_MAX];
	size_t pos = 0;
	int lineno = 0;

	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		pos = 3; /* UTF-8 byte order mark from some editors */
	while (pos < len) {
		const char *start = buf + pos;
		const char *nl = memchr(start, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - start) : len - pos;
		int ret;

		pos += n + (nl ? 1 : 0);
		lineno++;
		if (n >= sizeof(line))
			return err_set(err, E2BIG, "%s:%d: line is longer than "
				       "%zu bytes", name, lineno,
				       sizeof(line) - 1);
		if (memchr(start, '\0', n))
			return err_set(err, EINVAL, "%s:%d: line contains a NUL "
				       "byte; job files are text", name, lineno);
		memcpy(line, start, n);
		line[n] = '\0'; /* a CR of CRLF is trimmed as blank */
		ret = ini_line(st, line, lineno, err);
		if (ret)
			return ret;
	}
	return 0;
}

/* The file of @sb is being read already (an include loop): its name. */
static const char *being_read(const struct ini_state *st,
			      const struct stat *sb)
{
	for (int i = 0; i <= st->depth; i++) {
		if (st->files[i].known && st->files[i].dev == sb->st_dev &&
		    st->files[i].ino == sb->st_ino)
			return st->files[i].name;
	}
	return NULL;
}

static int ini_include(struct ini_state *st, const char *arg,
		       const char *where, struct errbuf *err)
{
	char path[PATH_MAX];
	const char *loop;
	struct stat sb;
	char *buf = NULL;
	size_t len = 0;
	int ret;

	include_path(st->files[st->depth].name, arg, path, sizeof(path));
	if (st->depth == INCLUDE_MAX_DEPTH)
		return err_set(err, ELOOP, "%s: include '%.64s': includes nest "
			       "deeper than %d", where, arg, INCLUDE_MAX_DEPTH);
	ret = read_text(path, &buf, &len, &sb);
	if (!ret && !S_ISREG(sb.st_mode))
		ret = -EINVAL;
	loop = ret ? NULL : being_read(st, &sb);
	if (ret == -EINVAL)
		ret = err_set(err, EINVAL, "%s: include '%.64s': '%s' is not a "
			      "regular file", where, arg, path);
	else if (ret)
		ret = err_set(err, -ret, "%s: include '%.64s': cannot read '%s': "
			      "%s", where, arg, path, read_error(ret));
	else if (loop)
		ret = err_set(err, ELOOP, "%s: include '%.64s': '%s' is being "
			      "read already (%s), an include loop", where, arg,
			      path, loop);
	if (!ret) {
		st->files[++st->depth] = (struct ini_file){
			.name = path, .known = true,
			.dev = sb.st_dev, .ino = sb.st_ino,
		};
		ret = ini_text(st, path, buf, len, err);
		st->depth--;
	}
	free(buf);
	return ret;
}

/* The job file's text, as jobfile_parse and jobfile_parse_buffer give it;
 * @sb identifies the file for include loops (NULL: unknown). */
static int parse_text(const char *name, const char *buf, size_t len,
		      const struct stat *sb, struct job_list *list,
		      struct errbuf *err)
{
	struct ini_state st = { .name = name ? name : "job file",
				.select = list ? list->select : NULL };
	int ret;

	if (!list || (!buf && len))
		return err_set(err, EINVAL, "%s: no buffer to parse", st.name);
	if (len > JOBFILE_MAX_BYTES)
		return err_set(err, EFBIG, "%s: job file is larger than %u "
			       "bytes", st.name, JOBFILE_MAX_BYTES);
	st.files[0] = (struct ini_file){ .name = st.name, .known = !!sb };
	if (sb) {
		st.files[0].dev = sb->st_dev;
		st.files[0].ino = sb->st_ino;
	}
	job_set_defaults(&st.global);
	ret = ini_text(&st, st.name, buf, len, err);
	if (!ret)
		ret = ini_flush(&st, err);
	if (!ret)
		ret = vec_move_to_list(&st.vec, list, err);
	ini_opts_clear(&st);
	free(st.opts);
	free(st.vec.jobs);
	return ret;
}

int jobfile_parse_buffer(const char *name, const char *buf, size_t len,
			 struct job_list *list, struct errbuf *err)
{
	struct stat sb;

	/* a name that is a file on disk lets an include loop through it be
	 * seen as one */
	return parse_text(name, buf, len,
			  name && !stat(name, &sb) && S_ISREG(sb.st_mode) ?
			  &sb : NULL, list, err);
}

int jobfile_parse(const char *path, struct job_list *list, struct errbuf *err)
{
	struct stat sb;
	char *buf = NULL;
	size_t len = 0;
	int ret = read_text(path, &buf, &len, &sb);

	if (ret == -EFBIG)
		return err_set(err, EFBIG, "job file '%s' is larger than %u "
			       "bytes", path, JOBFILE_MAX_BYTES);
	if (ret)
		return err_set(err, -ret, "cannot read job file '%s': %s", path,
			       strerror(-ret));
	ret = parse_text(path, buf, len, &sb, list, err);
	free(buf);
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
			ret = job_option_set_cli(target, key, value, where, err);
			if (ret)
				goto cleanup;
			job_given_add(target, job_option_name(key), value);
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
		job_given_add(cur, "name", value); /* fio echoes --name */
	}
	ret = vec_move_to_list(&vec, list, err);
cleanup:
	free(vec.jobs);
	return ret;
}

void job_list_free(struct job_list *list)
{
	if (!list)
		return;
	free(list->jobs);
	list->jobs = NULL;
	list->count = 0;
}
