/* SPDX-License-Identifier: GPL-2.0 */
/* The engine options a job echoes in its report, as "k=v,k=v". */
#ifndef IODIG_TEST_ENGINE_ECHO_H
#define IODIG_TEST_ENGINE_ECHO_H

#include <stdio.h>

#include "workload/engine_opts.h"

static inline void engine_echo(const struct job *job, char *out, size_t len)
{
	const char *key;
	char value[64];
	size_t used = 0;

	out[0] = '\0';
	for (size_t i = 0; engine_opt_echo(job, &i, &key, value,
					   sizeof(value));)
		used += snprintf(out + used, len - used, "%s%s=%s",
				 used ? "," : "", key, value);
}

#endif /* IODIG_TEST_ENGINE_ECHO_H */
