// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <string.h>

#include <bpf/bpf.h>

#include "iodig/tgid_filter.h"
#include "probes/family.h"

int family_track_tgid_in(volatile uint32_t *slots, pid_t tgid)
{
	if (!slots || tgid <= 0)
		return -EINVAL;
	return iodig_tgid_add(slots, (uint32_t)tgid) ? -ENOSPC : 0;
}

bool family_keep_workload(struct probe_workload *dst, bool *have,
			  const struct probe_workload *wl)
{
	if (!wl)
		return false;
	*dst = *wl;
	if (have)
		*have = true;
	return true;
}

uint64_t family_prog_misses(int prog_fd)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (prog_fd < 0 || bpf_obj_get_info_by_fd(prog_fd, &info, &len))
		return 0;
	return info.recursion_misses;
}
