// SPDX-License-Identifier: GPL-2.0
/* base/heap_huge: after heap_prefault_huge(N), with the heap thresholds
 * main() sets, a malloc of N lands on memory already faulted in (writing
 * all of it takes no page fault but the odd one of the count's own), on
 * huge pages where THP allows it. */
#define _GNU_SOURCE
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include "tests/lib/check.h"
#include "base/heap_huge.h"

#define BYTES ((size_t)6 << 20)
#define SLACK 4

static long minor_faults(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

/* The kernel populates on request (5.14+). */
static int can_populate(void)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int ok;

	if (p == MAP_FAILED)
		return 0;
	ok = !madvise(p, (size_t)page, MADV_POPULATE_WRITE);
	munmap(p, (size_t)page);
	return ok;
}

/* kB of AnonHugePages in the mapping holding @addr. */
static long huge_kb_at(const void *addr)
{
	FILE *f = fopen("/proc/self/smaps", "re");
	char line[256];
	uintptr_t lo, hi, a = (uintptr_t)addr;
	long kb = -1, v;
	int in = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2)
			in = a >= lo && a < hi;
		else if (in && sscanf(line, "AnonHugePages: %ld kB", &v) == 1)
			kb = v;
	}
	fclose(f);
	return kb;
}

int main(void)
{
	long before, faults;
	char warm[4096];
	char *buf;

#ifdef __SANITIZE_ADDRESS__
	SKIP("ASan's allocator is not glibc's heap, which this is about");
#endif
	if (!can_populate())
		SKIP("the kernel has no MADV_POPULATE_WRITE (5.14+)");
	/* as iodig's main() */
	mallopt(M_MMAP_THRESHOLD, 64 << 20);
	mallopt(M_TRIM_THRESHOLD, 256 << 20);
	heap_prefault_huge(BYTES);
	/* the code the count runs first, so that its own pages do not count */
	memset(warm, 1, sizeof(warm));
	before = minor_faults();
	buf = malloc(BYTES);
	CHECK(buf != NULL);
	if (!buf)
		return CHECK_DONE();
	memset(buf, 1, BYTES);
	faults = minor_faults() - before;
	fprintf(stderr, "%zu bytes written: %ld page faults, %ld kB on huge pages\n", BYTES,
		faults, huge_kb_at(buf + BYTES - 1));
	/* 1536 pages take 1536 faults without the call; now none, but for
	 * the odd one elsewhere (a code or stack page the count touches) */
	CHECK_MSG(faults <= SLACK, "%ld page faults writing the prefaulted %zu bytes", faults,
		  BYTES);
	free(buf);
	heap_prefault_huge(0);  /* nothing to grow: harmless */
	return CHECK_DONE();
}
