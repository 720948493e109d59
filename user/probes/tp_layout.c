// SPDX-License-Identifier: GPL-2.0
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "probes/tp_layout.h"

struct btf *tp_layout_btf(const struct probe_env *env)
{
	struct btf *btf;

	if (env && env->btf_path)
		btf = btf__parse(env->btf_path, NULL);
	else
		btf = btf__load_vmlinux_btf();
	/* libbpf 1.x returns NULL and sets errno; keep it so. */
	return libbpf_get_error(btf) ? NULL : btf;
}
