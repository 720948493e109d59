/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a page-fault handler's vm_fault_t result says, for the families
 * that see one (faults: the fs_dax events; funcs: dax_iomap_fault).  The
 * bits of enum vm_fault_reason come from this kernel's BTF.
 */
#ifndef IODIG_VM_FAULT_BPF_H
#define IODIG_VM_FAULT_BPF_H

#include <bpf/bpf_core_read.h>

/* @r's class, as the caller numbers them: fell back to a smaller page
 * (@fallback), failed (@error: OOM, SIGBUS, SIGSEGV, HWPOISON), mapped
 * (@mapped: VM_FAULT_NOPAGE), else @other. */
static __always_inline __u32 iodig_vm_fault_class(__u32 r, __u32 mapped, __u32 fallback,
						  __u32 error, __u32 other)
{
	if (r & bpf_core_enum_value(enum vm_fault_reason, VM_FAULT_FALLBACK))
		return fallback;
	if (r & (bpf_core_enum_value(enum vm_fault_reason, VM_FAULT_OOM) |
		 bpf_core_enum_value(enum vm_fault_reason, VM_FAULT_SIGBUS) |
		 bpf_core_enum_value(enum vm_fault_reason, VM_FAULT_SIGSEGV) |
		 bpf_core_enum_value(enum vm_fault_reason, VM_FAULT_HWPOISON) |
		 bpf_core_enum_value(enum vm_fault_reason, VM_FAULT_HWPOISON_LARGE)))
		return error;
	if (r & bpf_core_enum_value(enum vm_fault_reason, VM_FAULT_NOPAGE))
		return mapped;
	return other;
}

#endif /* IODIG_VM_FAULT_BPF_H */
