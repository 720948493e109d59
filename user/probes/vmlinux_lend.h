/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One parse of the running kernel's BTF for all the probe families.
 * libbpf parses it anew for every object it loads (any object with CO-RE
 * relocations or tp_btf programs) and frees it again at the end of
 * bpf_object__load(): the dearest step of opening a family, paid once per
 * family.  libbpf 1.x has no option to hand it a parsed one, but it gets
 * and frees it through its exported btf__load_vmlinux_btf() and
 * btf__free(), which iodig defines itself (vmlinux_lend.c): while a BTF is
 * lent, libbpf is given that one and its btf__free() of it does nothing;
 * otherwise both are libbpf's own.
 */
#ifndef IODIG_PROBES_VMLINUX_LEND_H
#define IODIG_PROBES_VMLINUX_LEND_H

struct btf;

/* libbpf's own btf__load_vmlinux_btf(): a new parse, never the lent one.
 * NULL with errno set on failure. */
struct btf *vmlinux_btf_parse(void);

/* Lends @btf, the running kernel's BTF (never a custom one: tp_btf
 * programs are loaded by its type ids), to every libbpf load until
 * vmlinux_btf_lend(NULL).  The caller keeps owning it and frees it only
 * after the lending ends. */
void vmlinux_btf_lend(const struct btf *btf);

#endif /* IODIG_PROBES_VMLINUX_LEND_H */
