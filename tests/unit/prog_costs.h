/* SPDX-License-Identifier: GPL-2.0 */
/* For the probe tests' logs: each loaded program whose name starts with
 * @prefix, with its run count and mean run time (kernel bpf_stats). */
#ifndef IODIG_TEST_PROG_COSTS_H
#define IODIG_TEST_PROG_COSTS_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

static inline void print_prog_costs(const char *prefix)
{
	uint32_t id = 0;

	while (!bpf_prog_get_next_id(id, &id)) {
		struct bpf_prog_info info;
		uint32_t len = sizeof(info);
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		if (!bpf_obj_get_info_by_fd(fd, &info, &len) &&
		    !strncmp(info.name, prefix, strlen(prefix)) && info.run_cnt)
			fprintf(stderr, "  bpf cost %-16s run_cnt=%llu avg=%.0f ns\n", info.name,
				(unsigned long long)info.run_cnt,
				(double)info.run_time_ns / (double)info.run_cnt);
		close(fd);
	}
}

#endif /* IODIG_TEST_PROG_COSTS_H */
