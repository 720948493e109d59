// SPDX-License-Identifier: GPL-2.0
/* fio's lockmem (workload/mem_lock.h). */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "workload/mem_lock.h"

/* fio (memory.c) leaves this much of the machine's memory unlocked. */
#define LEAVE_UNLOCKED (128ull << 20)

int mem_lock_take(struct mem_lock *l, uint64_t bytes, struct errbuf *err)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	uint64_t phys = pages > 0 && page > 0 ? (uint64_t)pages * (uint64_t)page : 0;

	memset(l, 0, sizeof(*l));
	if (!bytes)
		return 0;
	if (phys && bytes + LEAVE_UNLOCKED > phys)
		bytes = phys > LEAVE_UNLOCKED ? phys - LEAVE_UNLOCKED : 0;
	if (bytes > SIZE_MAX || !bytes)
		return err_set(err, ENOMEM, "lockmem: this machine has no memory "
			       "to lock beyond the 128 MiB fio leaves");
	l->base = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (l->base == MAP_FAILED) {
		l->base = NULL;
		return err_set(err, errno, "lockmem: cannot map %llu bytes: %s",
			       (unsigned long long)bytes, strerror(errno));
	}
	l->len = (size_t)bytes;
	if (mlock(l->base, l->len)) {
		int e = errno;

		mem_lock_release(l);
		return err_set(err, e, "lockmem: cannot lock %llu bytes: %s%s",
			       (unsigned long long)bytes, strerror(e),
			       e == ENOMEM || e == EPERM ?
			       " (RLIMIT_MEMLOCK, or CAP_IPC_LOCK)" : "");
	}
	return 0;
}

void mem_lock_release(struct mem_lock *l)
{
	if (!l->base)
		return;
	munlock(l->base, l->len);
	munmap(l->base, l->len);
	l->base = NULL;
	l->len = 0;
}
