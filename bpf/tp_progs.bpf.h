/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tp_btf and raw_tp programs of one tracepoint, as every family that
 * offers both mechanisms writes them: iodig_<stem>_btf and
 * iodig_<stem>_raw (15 characters at most, the kernel's BPF_OBJ_NAME_LEN,
 * and "iodig_" first so `bpftool prog show` and the tests find them),
 * each returning @call, an expression of
 *   ctx  the tracepoint's arguments (__u64 *), and
 *   btf  true in the tp_btf program, false in the raw_tp one,
 * as BPF_PROG() names its arguments.  @btf is a constant in each, so
 * inlining keeps only the handler's own branch: direct loads of BTF-typed
 * arguments for tp_btf, probe reads (BPF_CORE_READ) for raw_tp.  User
 * space loads the pair of the mechanism it tries (set_autoload).
 */
#ifndef IODIG_TP_PROGS_BPF_H
#define IODIG_TP_PROGS_BPF_H

#include <bpf/bpf_helpers.h>

#define IODIG_TP_PROGS(tp, stem, call)					\
SEC("tp_btf/" #tp)							\
int iodig_##stem##_btf(__u64 *ctx)					\
{									\
	const bool btf __attribute__((unused)) = true;			\
									\
	return (call);							\
}									\
									\
SEC("raw_tp/" #tp)							\
int iodig_##stem##_raw(__u64 *ctx)					\
{									\
	const bool btf __attribute__((unused)) = false;			\
									\
	return (call);							\
}

#endif /* IODIG_TP_PROGS_BPF_H */
