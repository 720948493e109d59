// SPDX-License-Identifier: GPL-2.0
/*
 * The engine table, built from workload/engine_list.h: each line there
 * names a file user/workload/engines/<name>.c that defines `<name>_engine`.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "workload/engine.h"

#define ENGINE(n) extern const struct engine_ops n##_engine;
#include "workload/engine_list.h"
#undef ENGINE

static const struct engine_ops *const engines[] = {
#define ENGINE(n) &n##_engine,
#include "workload/engine_list.h"
#undef ENGINE
};

#define NR_ENGINES (sizeof(engines) / sizeof(engines[0]))

/* fio's names for engines whose behaviour psync already covers: "sync"
 * (read/write, same I/O as pread/pwrite), "pvsync" and "pvsync2" (psync
 * switches to preadv2/pwritev2 itself when hipri or nowait ask for flags),
 * so fio job files run unchanged. */
static const struct {
	const char *alias;
	const char *name;
} engine_aliases[] = {
	{ "sync", "psync" },
	{ "pvsync", "psync" },
	{ "pvsync2", "psync" },
};

const struct engine_ops *engine_find(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < sizeof(engine_aliases) / sizeof(engine_aliases[0]); i++) {
		if (!strcmp(name, engine_aliases[i].alias)) {
			name = engine_aliases[i].name;
			break;
		}
	}
	for (i = 0; i < NR_ENGINES; i++)
		if (!strcmp(name, engines[i]->name))
			return engines[i];
	return NULL;
}

/* Built at compile time; every name is prefixed with ", " and the first
 * prefix skipped. */
static const char engine_name_list[] =
#define ENGINE(n) ", " #n
#include "workload/engine_list.h"
#undef ENGINE
	;

const char *engine_names(void)
{
	return sizeof(engine_name_list) > 2 ? engine_name_list + 2 : "";
}

int engines_check(struct errbuf *err)
{
	size_t i;

	for (i = 0; i < NR_ENGINES; i++) {
		const struct engine_ops *e = engines[i];
		const char *missing = NULL, *who = "every engine needs";
		bool sync = e->flags & ENGINE_SYNC;

		if (!e->name || !*e->name)
			return err_set(err, EINVAL,
				       "engine #%zu in user/engine_list.h has no name",
				       i + 1);
		/* The runner calls init and cleanup for every engine; prep
		 * is optional. */
		if (!e->init)
			missing = "init";
		else if (!e->cleanup)
			missing = "cleanup";
		else if (!e->queue)
			missing = "queue";
		else if (!sync) {
			who = "async engines need (flags lack ENGINE_SYNC)";
			if (!e->commit)
				missing = "commit";
			else if (!e->getevents)
				missing = "getevents";
			else if (!e->event)
				missing = "event";
		}
		if (missing)
			return err_set(err, EINVAL, "engine %s has no %s(), which %s",
				       e->name, missing, who);
	}
	return 0;
}
