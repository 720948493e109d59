// SPDX-License-Identifier: GPL-2.0
/*
 * Engine options: what a job is given is kept as text until the job's
 * engine is known, then parsed with the engine's own table into its struct
 * in job->engine_opts.  fio parses ioengine= first for the same reason;
 * keeping the text (with its line) also covers [global] and the command
 * line, and keeps every error at the line that gave the option.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "workload/engine.h"
#include "workload/engine_opts.h"
#include "workload/files.h"

#define GIVEN_WHERE_LEN (PATH_MAX + 32)

const struct opt_desc *engine_opt_lookup(const char *key)
{
	const struct engine_ops *e;

	for (size_t i = 0; key && (e = engine_at(i)); i++) {
		const struct opt_desc *o = opt_find(e->options, key);

		if (o)
			return o;
	}
	return NULL;
}

const char *engine_opt_owners(const char *name, char *buf, size_t len)
{
	const struct engine_ops *e;
	size_t used = 0, n = 0, k = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; (e = engine_at(i)); i++)
		n += opt_find(e->options, name) != NULL;
	for (size_t i = 0; (e = engine_at(i)) && used < len; i++) {
		if (!opt_find(e->options, name))
			continue;
		used += snprintf(buf + used, len - used, "%s%s",
				 !k ? "" : k + 1 == n ? " or " : ", ", e->name);
		k++;
	}
	return buf;
}

static struct engine_opt_given *given_slot(struct job *job, const char *name)
{
	struct engine_opt_given *free_slot = NULL;

	for (size_t i = 0; i < JOB_ENGINE_OPTS_GIVEN; i++) {
		struct engine_opt_given *g = &job->engine_given[i];

		if (g->name && !strcmp(g->name, name))
			return g;
		if (!g->name && !free_slot)
			free_slot = g;
	}
	return free_slot;
}

int engine_opt_give(struct job *job, const struct opt_desc *o,
		    const char *value, const char *where, int line,
		    struct errbuf *err)
{
	_Alignas(max_align_t) unsigned char scratch[JOB_ENGINE_OPTS_SIZE] = { 0 };
	struct engine_opt_given *g;
	int ret;

	ret = opt_set(scratch, o, value, where, err);
	if (ret)
		return ret;
	if (value && strlen(value) >= sizeof(g->value))
		return err_set(err, ENAMETOOLONG, "%s: option '%s': value is "
			       "longer than %zu bytes", where, o->name,
			       sizeof(g->value) - 1);
	g = given_slot(job, o->name);
	if (!g) /* engines_check keeps room for every name */
		return err_set(err, E2BIG, "%s: option '%s': more than %d "
			       "engine options", where, o->name,
			       JOB_ENGINE_OPTS_GIVEN);
	g->name = o->name;
	g->bare = !value;
	snprintf(g->value, sizeof(g->value), "%s", value ? value : "");
	g->line = line;
	g->engine_took = job->engine && opt_find(job->engine->options, o->name);
	snprintf(g->where, sizeof(g->where), "%s", where);
	return 0;
}

/* fio keeps a section's engine options with its engine: a job that
 * changes the ioengine [global] gave drops the options [global] gave
 * that engine (examples/e4defrag2.fio's donorname under libaio). */
static bool dropped_with_global_engine(const struct job *job,
				       const struct engine_opt_given *g)
{
	return g->engine_took && g->line > 0 && g->line < job->source_line;
}

void engine_opts_reset(struct job *job)
{
	memset(job->engine_opts, 0, sizeof(job->engine_opts));
	if (job->engine)
		opt_set_defaults(job->engine_opts, job->engine->options);
}

static void given_where(const struct job *job, const struct engine_opt_given *g,
			char *buf, size_t len)
{
	if (g->line > 0)
		snprintf(buf, len, "%s:%d", job->source, g->line);
	else
		snprintf(buf, len, "%s", g->where);
}

static int not_engines_option(const struct job *job,
			      const struct engine_opt_given *g,
			      const char *where, struct errbuf *err)
{
	char owners[128];

	engine_opt_owners(g->name, owners, sizeof(owners));
	if (g->line > 0 && g->line < job->source_line)
		return err_set(err, EINVAL, "%s: %s is an option of ioengine "
			       "%s, not %s (job '%s' has it from [global])",
			       where, g->name, owners, job->ioengine,
			       job->name);
	return err_set(err, EINVAL, "%s: %s is an option of ioengine %s, not "
		       "%s", where, g->name, owners, job->ioengine);
}

int engine_opts_resolve(struct job *job, const char *job_where,
			struct errbuf *err)
{
	char where[GIVEN_WHERE_LEN];
	int ret;

	if (!job->engine)
		return err_set(err, EINVAL, "%s: no ioengine", job_where);
	engine_opts_reset(job);
	for (size_t i = 0; i < JOB_ENGINE_OPTS_GIVEN; i++) {
		const struct engine_opt_given *g = &job->engine_given[i];
		const struct opt_desc *o;

		if (!g->name)
			continue;
		given_where(job, g, where, sizeof(where));
		o = opt_find(job->engine->options, g->name);
		if (!o && dropped_with_global_engine(job, g))
			continue;
		if (!o)
			return not_engines_option(job, g, where, err);
		ret = opt_set(job->engine_opts, o, g->bare ? NULL : g->value,
			      where, err);
		if (ret)
			return ret;
	}
	ret = job_check_files(job, job_where, err);
	if (ret)
		return ret;
	if (job->engine->check_job)
		return job->engine->check_job(job, job_where, err);
	return 0;
}

bool engine_opt_echo(const struct job *job, size_t *i, const char **key,
		     char *value, size_t len)
{
	_Alignas(max_align_t) unsigned char def[JOB_ENGINE_OPTS_SIZE] = { 0 };
	const struct opt_desc *table = job->engine ? job->engine->options : NULL;
	char def_text[JOB_ENGINE_OPT_VALUE_MAX];

	if (!table)
		return false;
	opt_set_defaults(def, table);
	while (table[*i].name) {
		const struct opt_desc *o = &table[(*i)++];

		opt_format(def, o, def_text, sizeof(def_text));
		opt_format(job->engine_opts, o, value, len);
		if (strcmp(value, def_text)) {
			*key = o->name;
			return true;
		}
	}
	return false;
}

void engine_opts_print_help(FILE *out)
{
	const struct engine_ops *e;

	fprintf(out, "\nEngine options, taken only with their ioengine "
		"(fio --enghelp=ENGINE):\n");
	for (size_t i = 0; (e = engine_at(i)); i++) {
		if (!e->options || !e->options[0].name)
			continue;
		fprintf(out, " ioengine=%s:\n", e->name);
		opt_print_help(out, e->options);
	}
}
