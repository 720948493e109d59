// SPDX-License-Identifier: GPL-2.0
/*
 * iodig's definitions of libbpf's btf__load_vmlinux_btf() and btf__free()
 * (see vmlinux_lend.h).  libbpf calls both through its procedure linkage
 * table, so these take its calls as well as iodig's; each passes on to
 * libbpf's own (dlsym RTLD_NEXT) unless the BTF in question is the lent
 * one.  libbpf only reads the vmlinux BTF of an object (CO-RE candidates,
 * tp_btf ids, the base of module BTFs), so one parse can serve every load.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "base/heap_huge.h"
#include "probes/vmlinux_lend.h"

/* Process-wide because libbpf asks without a context; set only while
 * probes_open() loads the families. */
static const struct btf *lent;

/*
 * The running kernel's BTF from a mapping of /sys/kernel/btf/vmlinux
 * (Linux 6.16+ maps it): libbpf's read of the file faults in a buffer of
 * its size and copies it again; mapped, only the copy is left, and that
 * goes to huge pages faulted in beforehand (base/heap_huge.h).  NULL when
 * the kernel cannot map it.
 */
static struct btf *parse_mapped(void)
{
	int fd = open("/sys/kernel/btf/vmlinux", O_RDONLY | O_CLOEXEC);
	void *data = MAP_FAILED;
	struct btf *btf = NULL;
	struct stat st;

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && st.st_size > 0)
		data = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (data != MAP_FAILED) {
		/* libbpf copies it into a buffer of its size, then indexes its
		 * types: a quarter more */
		heap_prefault_huge((size_t)st.st_size + (size_t)st.st_size / 4);
		btf = btf__new(data, (__u32)st.st_size);
		if (libbpf_get_error(btf))
			btf = NULL;
		munmap(data, (size_t)st.st_size);
	}
	close(fd);
	return btf;
}

struct btf *vmlinux_btf_parse(void)
{
	struct btf *(*real)(void) = (struct btf *(*)(void))dlsym(RTLD_NEXT,
								  "btf__load_vmlinux_btf");
	struct btf *btf = parse_mapped();

	if (btf)
		return btf;
	if (!real) {
		errno = ENOSYS;
		return NULL;
	}
	return real();
}

void vmlinux_btf_lend(const struct btf *btf)
{
	lent = btf;
}

struct btf *btf__load_vmlinux_btf(void)
{
	return lent ? (struct btf *)lent : vmlinux_btf_parse();
}

void btf__free(struct btf *btf)
{
	void (*real)(struct btf *) = (void (*)(struct btf *))dlsym(RTLD_NEXT, "btf__free");

	if (btf && btf != lent && real)
		real(btf);
}
