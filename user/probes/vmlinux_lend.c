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
#include <stddef.h>

#include <bpf/btf.h>

#include "probes/vmlinux_lend.h"

/* Process-wide because libbpf asks without a context; set only while
 * probes_open() loads the families. */
static const struct btf *lent;

struct btf *vmlinux_btf_parse(void)
{
	struct btf *(*real)(void) = (struct btf *(*)(void))dlsym(RTLD_NEXT,
								  "btf__load_vmlinux_btf");

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
