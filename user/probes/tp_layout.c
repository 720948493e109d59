// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "probes/tp_layout.h"

struct btf *kernel_btf_load(const char *path)
{
	struct btf *btf = path ? btf__parse(path, NULL) : btf__load_vmlinux_btf();

	/* libbpf 1.x returns NULL and sets errno; keep it so. */
	return libbpf_get_error(btf) ? NULL : btf;
}

struct btf *tp_layout_btf(const struct probe_env *env)
{
	return kernel_btf_load(env ? env->btf_path : NULL);
}

const struct btf_type *tp_proto(const struct btf *btf, const char *tp)
{
	const struct btf_type *t;
	char name[128];
	int id;

	if (!btf)
		return NULL;
	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	t = id > 0 ? btf__type_by_id(btf, id) : NULL;
	if (t)
		t = btf__type_by_id(btf, t->type);
	if (t && btf_is_ptr(t))
		t = btf__type_by_id(btf, t->type);
	return t && btf_is_func_proto(t) && btf_vlen(t) > 0 ? t : NULL;
}

int tp_nr_args(const struct btf *btf, const char *tp)
{
	const struct btf_type *t = tp_proto(btf, tp);

	return t ? btf_vlen(t) - 1 : -1;
}

int tp_struct_arg(const struct btf *btf, const char *tp, const char *sname)
{
	const struct btf_type *t = tp_proto(btf, tp);
	const struct btf_param *p;

	if (!t)
		return -1;
	p = btf_params(t);
	for (int i = 1; i < btf_vlen(t); i++) {
		const struct btf_type *a = btf__type_by_id(btf, p[i].type);

		if (!a || !btf_is_ptr(a))
			continue;
		/* skip const/volatile/typedef to the pointee */
		a = btf__type_by_id(btf, a->type);
		while (a && (btf_is_mod(a) || btf_is_typedef(a)))
			a = btf__type_by_id(btf, a->type);
		if (a && btf_is_struct(a) && !strcmp(btf__name_by_offset(btf, a->name_off), sname))
			return i - 1;
	}
	return -1;
}
