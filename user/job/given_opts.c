// SPDX-License-Identifier: GPL-2.0
/* The options a job was given, for fio's "global options"/"job options". */
#include <stdio.h>
#include <string.h>

#include "job/given_opts.h"

void job_given_add(struct job *job, const char *name, const char *value)
{
	size_t len = strlen(job->given);
	size_t need = strlen(name) + strlen(value ? value : "") + 2;

	/* a newline would break the "name=value\n" record */
	if (!value || strchr(value, '\n') || len + need >= sizeof(job->given))
		return;
	snprintf(job->given + len, sizeof(job->given) - len, "%s=%s\n", name, value);
}

void job_given_mark_global(struct job *job)
{
	job->given_global = strlen(job->given);
}

bool job_given_has(const struct job *job, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = job->given; p && *p; p = strchr(p, '\n')) {
		p += *p == '\n';
		if (!strncmp(p, name, len) && p[len] == '=')
			return true;
	}
	return false;
}
