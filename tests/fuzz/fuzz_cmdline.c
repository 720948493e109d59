// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: fio's "--key=value" command line (cmdline_jobs_parse);
 * the input is split at newlines into argv, the form the seeds use. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "job/options.h"

/* More arguments than any shell line would carry, but bounded so one input
 * cannot ask for gigabytes of argv. */
#define MAX_ARGS 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct job_list list = { 0 };
	struct errbuf err = { { 0 } };
	char *copy, **argv;
	int argc = 0;

	/* Each argument is its own allocation so ASan sees reads past its end. */
	argv = calloc(MAX_ARGS + 1, sizeof(*argv));
	if (!argv)
		return 0;
	for (size_t off = 0; off <= size && argc < MAX_ARGS;) {
		const uint8_t *nl = memchr(data + off, '\n', size - off);
		size_t len = nl ? (size_t)(nl - (data + off)) : size - off;

		copy = malloc(len + 1);
		if (!copy)
			goto cleanup;
		memcpy(copy, data + off, len);
		copy[len] = '\0';
		argv[argc++] = copy;
		off += len + 1;
		if (!nl)
			break;
	}
	if (cmdline_jobs_parse(argc, argv, &list, &err) == 0)
		job_list_finalize(&list, &err);
	job_list_free(&list);
cleanup:
	for (int i = 0; i < argc; i++)
		free(argv[i]);
	free(argv);
	return 0;
}
