// SPDX-License-Identifier: GPL-2.0
/* fio's mem= and the checks of the options that go with it (job/mem_opts.h). */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "job/mem_opts.h"

/* Values echoed in messages are cut: a fuzzed 8 KiB value helps nobody. */
#define VAL "'%.64s'"

static bool mem_takes_file(enum io_mem_type t)
{
	return t == IOMEM_MMAP || t == IOMEM_MMAPSHARED || t == IOMEM_MMAPHUGE;
}

int set_mem(void *base, const struct opt_desc *o, const char *value,
	    const char *where, struct errbuf *err)
{
	struct job *job = base;
	const char *colon = strchr(value, ':');
	char kind[32];
	int ret;

	if (!colon) {
		ret = opt_set_typed(job, o, value, where, err);
		if (!ret)
			job->mem_file[0] = '\0';
		return ret;
	}
	if ((size_t)(colon - value) >= sizeof(kind))
		return err_set(err, EINVAL, "%s: option '%s': " VAL " is not a "
			       "memory kind", where, o->name, value);
	snprintf(kind, sizeof(kind), "%.*s", (int)(colon - value), value);
	ret = opt_set_typed(job, o, kind, where, err);
	if (ret)
		return ret;
	/* fio drops a file after the other kinds without a word */
	if (!mem_takes_file(job->mem_type))
		return err_set(err, EINVAL, "%s: option '%s': " VAL ": only "
			       "mmap, mmapshared and mmaphuge take a file", where,
			       o->name, value);
	if (!colon[1])
		return err_set(err, EINVAL, "%s: option '%s': " VAL ": no file "
			       "after ':'", where, o->name, value);
	if (strlen(colon + 1) >= sizeof(job->mem_file))
		return err_set(err, ENAMETOOLONG, "%s: option '%s': the file "
			       "name is too long", where, o->name);
	strcpy(job->mem_file, colon + 1);
	return 0;
}

int mem_opts_check(const struct job *job, const char *where,
		   struct errbuf *err)
{
	uint64_t huge = job->hugepage_size;
	long page = sysconf(_SC_PAGESIZE);

	if ((job->mem_type == IOMEM_SHMHUGE || job->mem_type == IOMEM_MMAPHUGE) &&
	    (huge < (uint64_t)page || (huge & (huge - 1))))
		return err_set(err, EINVAL, "%s: hugepage-size=%llu is not a "
			       "power of two of at least the page size (%ld), "
			       "which mem=%s rounds its buffers up to", where,
			       (unsigned long long)huge, page,
			       job->mem_type == IOMEM_SHMHUGE ? "shmhuge" : "mmaphuge");
	if (job->mem_align > UINT32_MAX)
		return err_set(err, ERANGE, "%s: iomem_align=%llu is larger than "
			       "fio's %u", where, (unsigned long long)job->mem_align,
			       UINT32_MAX);
	return 0;
}
