// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: fio job files through jobfile_parse_buffer and the
 * cross-option checks of job_list_finalize. */
#include <stddef.h>
#include <stdint.h>

#include "job/options.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct job_list list = { 0 };
	struct errbuf err = { { 0 } };

	/* The parser promises to read only @size bytes (no NUL needed). */
	if (jobfile_parse_buffer("fuzz.fio", (const char *)data, size, &list, &err) == 0)
		job_list_finalize(&list, &err);
	job_list_free(&list);
	return 0;
}
