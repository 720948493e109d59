// SPDX-License-Identifier: GPL-2.0
/*
 * lockfile's locks: the distinct names of the locking workers' files,
 * a shared lock for each, and each worker's file pointed at its name's.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "run/file_locks_setup.h"
#include "workload/files.h"
#include "workload/worker.h"

static unsigned int files_of(const struct worker *w)
{
	return w->nr_files > 1 ? w->nr_files : 1;
}

/* The slot of @name among @names[0..*nr), added when new. */
static int slot_of(char **names, unsigned int *nr, const char *name,
		   unsigned int *slot)
{
	for (unsigned int i = 0; i < *nr; i++) {
		if (!strcmp(names[i], name)) {
			*slot = i;
			return 0;
		}
	}
	names[*nr] = strdup(name);
	if (!names[*nr])
		return -ENOMEM;
	*slot = (*nr)++;
	return 0;
}

int file_locks_setup(struct run_ctx *ctx, struct errbuf *err)
{
	unsigned int refs = 0, nr_names = 0, at = 0, *slots = NULL;
	char **names = NULL, path[4096];
	int ret = 0;

	file_locks_free(ctx);
	for (unsigned int i = 0; i < ctx->nr_workers; i++)
		if (ctx->workers[i].job->lockfile != LOCKFILE_NONE)
			refs += files_of(&ctx->workers[i]);
	if (!refs)
		return 0;
	names = calloc(refs, sizeof(*names));
	slots = calloc(refs, sizeof(*slots));
	ctx->file_lock_refs = calloc(refs, sizeof(*ctx->file_lock_refs));
	if (!names || !slots || !ctx->file_lock_refs) {
		ret = err_set(err, ENOMEM, "out of memory for lockfile's locks");
		goto cleanup;
	}
	for (unsigned int i = 0; i < ctx->nr_workers && !ret; i++) {
		const struct worker *w = &ctx->workers[i];

		if (w->job->lockfile == LOCKFILE_NONE)
			continue;
		for (unsigned int k = 0; k < files_of(w) && !ret; k++)
			ret = slot_of(names, &nr_names,
				      worker_file_name(w, k, path, sizeof(path)),
				      &slots[at++]);
	}
	if (ret) {
		ret = err_set(err, ENOMEM, "out of memory for lockfile's locks");
		goto cleanup;
	}
	ret = file_lock_table_create(&ctx->file_locks, nr_names, err);
	if (ret)
		goto cleanup;
	at = 0;
	for (unsigned int i = 0; i < ctx->nr_workers; i++) {
		struct worker *w = &ctx->workers[i];

		if (w->job->lockfile == LOCKFILE_NONE)
			continue;
		w->file_locks = &ctx->file_lock_refs[at];
		for (unsigned int k = 0; k < files_of(w); k++, at++)
			ctx->file_lock_refs[at] = &ctx->file_locks.locks[slots[at]];
	}
cleanup:
	for (unsigned int i = 0; names && i < nr_names; i++)
		free(names[i]);
	free(names);
	free(slots);
	if (ret)
		file_locks_free(ctx);
	return ret;
}

void file_locks_free(struct run_ctx *ctx)
{
	for (unsigned int i = 0; ctx->workers && i < ctx->nr_workers; i++)
		ctx->workers[i].file_locks = NULL;
	free(ctx->file_lock_refs);
	ctx->file_lock_refs = NULL;
	file_lock_table_destroy(&ctx->file_locks);
}
