// SPDX-License-Identifier: GPL-2.0
/*
 * The engine table, built from user/workload/engine_list.h: each line there
 * names a file user/workload/engines/<name>.c that defines `<name>_engine`
 * (with its options, if it has any).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "workload/engine.h"

/* ENGINE(n) is ENGINE_NAMED(n, "n"): the symbol prefix is the fio name. */
#define ENGINE(n) ENGINE_NAMED(n, #n)

#define ENGINE_NAMED(n, fio_name) extern const struct engine_ops n##_engine;
#include "workload/engine_list.h"
#undef ENGINE_NAMED

static const struct engine_ops *const engines[] = {
#define ENGINE_NAMED(n, fio_name) &n##_engine,
#include "workload/engine_list.h"
#undef ENGINE_NAMED
};

#define NR_ENGINES (sizeof(engines) / sizeof(engines[0]))

const struct engine_ops *engine_at(size_t i)
{
	return i < NR_ENGINES ? engines[i] : NULL;
}

const struct engine_ops *engine_find(const char *name)
{
	for (size_t i = 0; name && i < NR_ENGINES; i++)
		if (!strcmp(name, engines[i]->name))
			return engines[i];
	return NULL;
}

bool engine_is_sync(const struct job *job)
{
	unsigned int flags = job->engine->flags;

	return (flags & ENGINE_SYNC) ||
	       ((flags & ENGINE_SYNC_AT_DEPTH1) && job->iodepth == 1);
}

/* Built at compile time; every name is prefixed with ", " and the first
 * prefix skipped. */
static const char engine_name_list[] =
#define ENGINE_NAMED(n, fio_name) ", " fio_name
#include "workload/engine_list.h"
#undef ENGINE_NAMED
#undef ENGINE
	;

const char *engine_names(void)
{
	return sizeof(engine_name_list) > 2 ? engine_name_list + 2 : "";
}

/* The first declaration of @name by an engine before engines[@upto]. */
static const struct opt_desc *declared_before(size_t upto, const char *name)
{
	for (size_t i = 0; i < upto; i++) {
		const struct opt_desc *o = opt_find(engines[i]->options, name);

		if (o)
			return o;
	}
	return NULL;
}

/* Every option has a name and help; a name several engines declare has
 * one type, so a value can be checked before the job's engine is known;
 * struct job keeps room for every distinct name. */
static int check_options(size_t idx, size_t *distinct, struct errbuf *err)
{
	const struct engine_ops *e = engines[idx];

	for (const struct opt_desc *o = e->options; o && o->name; o++) {
		const struct opt_desc *first = declared_before(idx, o->name);

		if (!o->name[0] || !o->help)
			return err_set(err, EINVAL, "engine %s: option #%zu has no name or no help",
				       e->name, (size_t)(o - e->options) + 1);
		if (first && first->type != o->type)
			return err_set(err, EINVAL, "engine %s: option %s has another type than in an engine before it",
				       e->name, o->name);
		if (!first && ++*distinct > JOB_ENGINE_OPTS_GIVEN)
			return err_set(err, EINVAL, "engine %s: option %s: engines declare more than JOB_ENGINE_OPTS_GIVEN (%d) option names",
				       e->name, o->name, JOB_ENGINE_OPTS_GIVEN);
	}
	return 0;
}

int engines_check(struct errbuf *err)
{
	size_t distinct = 0;
	int ret;

	size_t i;

	for (i = 0; i < NR_ENGINES; i++) {
		const struct engine_ops *e = engines[i];
		const char *missing = NULL, *who = "every engine needs";
		bool sync = e->flags & ENGINE_SYNC;

		if (!e->name || !*e->name)
			return err_set(err, EINVAL,
				       "engine #%zu in user/workload/engine_list.h has no name",
				       i + 1);
		/* init, prep and cleanup are optional. */
		if (!e->queue)
			missing = "queue";
		else if (!sync || e->commit) {
			who = sync ? "a sync engine with commit() needs" :
				     "async engines need (flags lack ENGINE_SYNC)";
			if (!e->commit)
				missing = "commit";
			else if (!e->getevents)
				missing = "getevents";
		}
		if (missing)
			return err_set(err, EINVAL, "engine %s has no %s(), which %s",
				       e->name, missing, who);
		if (e->state_arrays && !e->state_size)
			return err_set(err, EINVAL, "engine %s declares state arrays but no state",
				       e->name);
		ret = check_options(i, &distinct, err);
		if (ret)
			return ret;
	}
	return 0;
}
