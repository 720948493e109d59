// SPDX-License-Identifier: GPL-2.0
/*
 * openfiles= as fio 3.33 keeps it (workload/open_files.h): which files
 * are open, which close after their last I/O, and when a pick must wait.
 */
#include <errno.h>
#include <stdlib.h>

#include "workload/open_files.h"

int open_files_init(struct open_files *of, unsigned int nr, unsigned int limit)
{
	*of = (struct open_files){ .nr = nr, .limit = limit };
	of->refs = calloc(nr, sizeof(*of->refs));
	of->state = calloc(nr, sizeof(*of->state));
	of->due = calloc(nr, sizeof(*of->due));
	if (of->refs && of->state && of->due)
		return 0;
	open_files_free(of);
	return -ENOMEM;
}

void open_files_free(struct open_files *of)
{
	free(of->refs);
	free(of->state);
	free(of->due);
	of->refs = NULL;
	of->state = NULL;
	of->due = NULL;
}

bool open_files_blocked(const struct open_files *of, unsigned int k)
{
	return of->state[k] == OPEN_FILE_CLOSED && of->nr_open >= of->limit;
}

bool open_files_get(struct open_files *of, unsigned int k)
{
	bool opens = of->state[k] == OPEN_FILE_CLOSED;

	if (opens) {
		of->state[k] = OPEN_FILE_OPEN;
		of->nr_open++;
	}
	of->refs[k]++;
	return opens;
}

/* fio's put_file: the real close, once no I/O holds the file. */
static bool close_if_idle(struct open_files *of, unsigned int k)
{
	if (of->refs[k])
		return false;
	of->state[k] = OPEN_FILE_CLOSED;
	of->nr_open--;
	return true;
}

bool open_files_put(struct open_files *of, unsigned int k)
{
	if (of->refs[k])
		of->refs[k]--;
	return of->state[k] == OPEN_FILE_CLOSING && close_if_idle(of, k);
}

void open_files_done(struct open_files *of, unsigned int k)
{
	if (of->state[k] != OPEN_FILE_OPEN)
		return;
	of->state[k] = OPEN_FILE_CLOSING;
	close_if_idle(of, k);
	of->due[of->nr_due++] = k;
}

bool open_files_next_due(struct open_files *of, unsigned int *k, bool *close_now)
{
	if (!of->nr_due)
		return false;
	/* in the order they were found done */
	*k = of->due[0];
	of->nr_due--;
	for (unsigned int i = 0; i < of->nr_due; i++)
		of->due[i] = of->due[i + 1];
	*close_now = of->state[*k] == OPEN_FILE_CLOSED;
	return true;
}
