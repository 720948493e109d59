/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tracepoint argument layouts, read from the kernel's BTF as libbpf-tools
 * does: typedef btf_trace_<tp> is a pointer to the prototype of the raw
 * tracepoint, its private-data pointer first, then the arguments tp_btf
 * and raw_tp programs see in ctx[].  A family asks here where an argument
 * is on this kernel and passes the answer to its programs as rodata,
 * never a kernel version.
 */
#ifndef IODIG_PROBES_TP_LAYOUT_H
#define IODIG_PROBES_TP_LAYOUT_H

#include "probes/probe.h"

struct btf;
struct btf_type;

/* The kernel's BTF as CO-RE sees it: raw or ELF BTF at @path, NULL = the
 * running kernel's; NULL with errno set when there is none.  Free with
 * btf__free(). */
struct btf *kernel_btf_load(const char *path);
/* The same for env->btf_path. */
struct btf *tp_layout_btf(const struct probe_env *env);

/* The prototype behind typedef btf_trace_<@tp> (a FUNC_PROTO), NULL when
 * @btf is NULL or lacks the tracepoint. */
const struct btf_type *tp_proto(const struct btf *btf, const char *tp);

/* Arguments of @tp without the leading private-data pointer, -1 when
 * unknown. */
int tp_nr_args(const struct btf *btf, const char *tp);

/* Position among those arguments of the one that points to struct
 * @sname, -1 when none does or @tp is unknown. */
int tp_struct_arg(const struct btf *btf, const char *tp, const char *sname);

#endif /* IODIG_PROBES_TP_LAYOUT_H */
