// SPDX-License-Identifier: GPL-2.0
/*
 * fio's file locks (filesetup.c lock_file/unlock_file): a process-shared
 * rwlock per file name, taken for writing by every I/O with
 * lockfile=exclusive and by writes and trims with readwrite, for reading
 * by reads with readwrite.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "workload/file_lock.h"
#include "workload/worker.h"

int file_lock_table_create(struct file_lock_table *t, unsigned int nr,
			   struct errbuf *err)
{
	size_t len = (size_t)nr * sizeof(*t->locks);
	pthread_rwlockattr_t attr;
	int ret = 0;

	t->locks = NULL;
	t->map_len = len;
	t->nr = 0;
	if (!nr)
		return 0;
	t->locks = mmap(NULL, len, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (t->locks == MAP_FAILED) {
		t->locks = NULL;
		return err_set(err, errno, "cannot map %zu bytes for lockfile's locks: %s",
			       len, strerror(errno));
	}
	pthread_rwlockattr_init(&attr);
	pthread_rwlockattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
	for (unsigned int i = 0; i < nr && !ret; i++, t->nr++)
		ret = pthread_rwlock_init(&t->locks[i], &attr);
	pthread_rwlockattr_destroy(&attr);
	if (ret) {
		file_lock_table_destroy(t);
		return err_set(err, ret, "cannot set up lockfile's locks: %s",
			       strerror(ret));
	}
	return 0;
}

void file_lock_table_destroy(struct file_lock_table *t)
{
	if (!t->locks)
		return;
	for (unsigned int i = 0; i < t->nr; i++)
		pthread_rwlock_destroy(&t->locks[i]);
	munmap(t->locks, t->map_len);
	t->locks = NULL;
	t->nr = 0;
}

static pthread_rwlock_t *lock_of(const struct worker *w, const struct io_unit *u)
{
	if (!w->file_locks)
		return NULL;
	return w->file_locks[w->fds ? u->file : 0];
}

void file_lock_take(const struct worker *w, const struct io_unit *u)
{
	pthread_rwlock_t *l = lock_of(w, u);

	if (!l)
		return;
	if (w->job->lockfile == LOCKFILE_READWRITE && u->ddir == DDIR_READ)
		pthread_rwlock_rdlock(l);
	else
		pthread_rwlock_wrlock(l);
}

void file_lock_drop(const struct worker *w, const struct io_unit *u)
{
	pthread_rwlock_t *l = lock_of(w, u);

	if (l)
		pthread_rwlock_unlock(l);
}
