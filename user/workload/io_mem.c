// SPDX-License-Identifier: GPL-2.0
/* The I/O buffers' area, backed, sized and aligned as fio's (workload/io_mem.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload/engine.h"
#include "workload/io_mem.h"

/*
 * glibc's malloc serves a request of its default mmap threshold (128 KiB,
 * which fio leaves alone) or more from a mapping of its own, the chunk's
 * 16-byte header first.  iodig raises its threshold for libbpf's buffers
 * (cli/main.c) and its heap holds huge pages prefaulted for the BTF
 * (base/heap_huge.h): buffers served from there would sit on huge pages
 * where fio's do not, and each direct I/O would pin other pages.  So a
 * malloc area that glibc would map is mapped here the same way.
 */
#define GLIBC_MMAP_THRESHOLD (128u << 10)
#define GLIBC_SIZE_SZ 8u
#define GLIBC_ALIGN_MASK 15u
#define GLIBC_CHUNK_HEADER 16u

static const char *const kind_names[] = {
	[IOMEM_MALLOC] = "malloc", [IOMEM_SHM] = "shm",
	[IOMEM_SHMHUGE] = "shmhuge", [IOMEM_MMAP] = "mmap",
	[IOMEM_MMAPSHARED] = "mmapshared", [IOMEM_MMAPHUGE] = "mmaphuge",
};

static size_t round_up(size_t v, size_t to)
{
	return (v + to - 1) & ~(to - 1);
}

static bool huge_kind(enum io_mem_type t)
{
	return t == IOMEM_SHMHUGE || t == IOMEM_MMAPHUGE;
}

static bool engine_aligns(const struct job *job)
{
	return job->engine && (job->engine->flags & ENGINE_ALIGNED_BUFFERS);
}

static int alloc_malloc(struct io_mem *m, size_t len, size_t page,
			struct errbuf *err)
{
	size_t chunk;

	if (len < GLIBC_MMAP_THRESHOLD) {
		m->base = malloc(len);
		if (!m->base)
			return err_set(err, ENOMEM, "mem=malloc: cannot allocate %zu "
				       "bytes of I/O buffers", len);
		m->len = len;
		m->buffers = m->base;
		return 0;
	}
	chunk = (len + GLIBC_SIZE_SZ + GLIBC_ALIGN_MASK) & ~(size_t)GLIBC_ALIGN_MASK;
	m->len = round_up(chunk + GLIBC_SIZE_SZ, page);
	m->base = mmap(NULL, m->len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m->base == MAP_FAILED) {
		m->base = NULL;
		return err_set(err, errno, "mem=malloc: cannot allocate %zu bytes "
			       "of I/O buffers: %s", len, strerror(errno));
	}
	m->mapped = true;
	m->buffers = (char *)m->base + GLIBC_CHUNK_HEADER;
	return 0;
}

/* fio's hints, for what shmget says when huge pages are asked for. */
static const char *shm_hint(int e, bool huge)
{
	if (geteuid() != 0 && (e == ENOMEM || e == EPERM))
		return "; you may need to run this job as root";
	if (!huge)
		return "";
	if (e == EINVAL)
		return "; check that there are free huge pages and that "
		       "hugepage-size is correct";
	if (e == ENOSYS)
		return "; this system does not appear to support huge pages";
	if (e == ENOMEM)
		return "; no huge pages available, allocate some (vm.nr_hugepages)";
	return "";
}

/* The segment is removed at once: it lives while attached, so nothing
 * is left behind whichever way the worker ends. */
static int alloc_shm(struct io_mem *m, size_t len, size_t huge,
		     struct errbuf *err)
{
	bool is_huge = m->type == IOMEM_SHMHUGE;
	int flags = IPC_CREAT | S_IRUSR | S_IWUSR;
	int id, e;

	if (is_huge) {
		flags |= SHM_HUGETLB;
		len = round_up(len, huge);
	}
	id = shmget(IPC_PRIVATE, len, flags);
	if (id < 0) {
		e = errno;
		return err_set(err, e, "mem=%s: shmget of %zu bytes: %s%s",
			       kind_names[m->type], len, strerror(e),
			       shm_hint(e, is_huge));
	}
	m->base = shmat(id, NULL, 0);
	e = errno;
	shmctl(id, IPC_RMID, NULL);
	if (m->base == (void *)-1) {
		m->base = NULL;
		return err_set(err, e, "mem=%s: shmat: %s", kind_names[m->type],
			       strerror(e));
	}
	m->shm = true;
	m->len = len;
	m->buffers = m->base;
	return 0;
}

/* fio sizes the file of mem=mmap:FILE only; with mmapshared and
 * mmaphuge (on hugetlbfs the mapping sizes it) a file shorter than the
 * area would fail the I/O (EFAULT) or kill the worker (SIGBUS). */
static int check_file_size(const struct io_mem *m, struct errbuf *err)
{
	struct stat st;

	if (fstat(m->fd, &st))
		return err_set(err, errno, "mem=%s:%s: %s", kind_names[m->type],
			       m->file, strerror(errno));
	if ((uint64_t)st.st_size < m->len)
		return err_set(err, EINVAL, "mem=%s:%s: the file has %lld bytes, "
			       "the I/O buffers take %zu (only mem=mmap sizes "
			       "its file)", kind_names[m->type], m->file,
			       (long long)st.st_size, m->len);
	return 0;
}

static int alloc_mmap(struct io_mem *m, const char *file, size_t len,
		      size_t huge, struct errbuf *err)
{
	int flags = MAP_PRIVATE | MAP_ANONYMOUS;
	const char *kind = kind_names[m->type];

	if (m->type == IOMEM_MMAPHUGE) {
		len = round_up(len, huge);
		if (!file[0])
			flags |= MAP_HUGETLB;
	}
	m->len = len;
	if (file[0]) {
		strcpy(m->file, file);
		m->keep_file = access(file, F_OK) == 0;
		m->fd = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (m->fd < 0)
			return err_set(err, errno, "mem=%s:%s: cannot open it: %s",
				       kind, file, strerror(errno));
		if (m->type == IOMEM_MMAP && ftruncate(m->fd, (off_t)len))
			return err_set(err, errno, "mem=%s:%s: cannot size it to "
				       "%zu bytes: %s", kind, file, len, strerror(errno));
		flags = m->type == IOMEM_MMAP ? MAP_PRIVATE : MAP_SHARED;
	}
	m->base = mmap(NULL, len, PROT_READ | PROT_WRITE, flags, m->fd, 0);
	if (m->base == MAP_FAILED) {
		int e = errno;

		m->base = NULL;
		return err_set(err, e, "mem=%s%s%s: cannot map %zu bytes: %s%s",
			       kind, file[0] ? ":" : "", file, len, strerror(e),
			       (flags & MAP_HUGETLB) && e == ENOMEM ?
			       "; no huge pages available, allocate some "
			       "(vm.nr_hugepages)" : "");
	}
	m->mapped = true;
	m->buffers = m->base;
	return m->fd >= 0 ? check_file_size(m, err) : 0;
}

int io_mem_alloc(struct io_mem *m, const struct job *job, size_t bytes,
		 struct errbuf *err)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t huge = (size_t)job->hugepage_size;
	bool align = job->direct || job->atomic || job->mem_align ||
		     engine_aligns(job);
	size_t len = bytes;
	int ret;

	memset(m, 0, sizeof(*m));
	m->type = job->mem_type;
	m->fd = -1;
	/* backend.c: room to move the start to a page boundary, plus the
	 * offset, then a huge kind's rounding; memory.c adds the page slack
	 * again (and what iomem_align is past a page) and rounds again */
	if (align)
		len += page - 1 + job->mem_align;
	if (huge_kind(m->type))
		len = round_up(len, huge);
	if (align) {
		len += page - 1;
		if (job->mem_align > page)
			len += job->mem_align - page;
	}
	switch (m->type) {
	case IOMEM_MALLOC:
		ret = alloc_malloc(m, len, page, err);
		break;
	case IOMEM_SHM:
	case IOMEM_SHMHUGE:
		ret = alloc_shm(m, len, huge, err);
		break;
	default:
		ret = alloc_mmap(m, job->mem_file, len, huge, err);
		break;
	}
	if (ret) {
		io_mem_free(m);
		return ret;
	}
	if (align)
		m->buffers = (char *)round_up((uintptr_t)m->buffers, page) +
			     job->mem_align;
	return 0;
}

void io_mem_free(struct io_mem *m)
{
	if (m->shm && m->base)
		shmdt(m->base);
	else if (m->mapped && m->base)
		munmap(m->base, m->len);
	else
		free(m->base);
	/* a worker's io_mem is zeroed until allocated: fd 0 is not ours */
	if (m->file[0] && m->fd >= 0)
		close(m->fd);
	if (m->file[0] && !m->keep_file)
		unlink(m->file);
	m->base = NULL;
	m->buffers = NULL;
	m->fd = -1;
	m->file[0] = '\0';
}
