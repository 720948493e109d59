/* SPDX-License-Identifier: GPL-2.0 */
/* The probe tests' view of the BPF programs loaded on the machine. */
#ifndef IODIG_TEST_BPF_PROGS_H
#define IODIG_TEST_BPF_PROGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

/* The info of program @id into @info; false when it is gone. */
static inline bool prog_info_of(uint32_t id, struct bpf_prog_info *info)
{
	uint32_t len = sizeof(*info);
	int fd = bpf_prog_get_fd_by_id(id);
	bool ok;

	if (fd < 0)
		return false;
	memset(info, 0, sizeof(*info));
	ok = !bpf_obj_get_info_by_fd(fd, info, &len);
	close(fd);
	return ok;
}

/* Calls @fn with the info of each loaded program until it returns true;
 * true when it did. */
static inline bool progs_find(bool (*fn)(const struct bpf_prog_info *info, void *arg),
			      void *arg)
{
	uint32_t id = 0;
	bool found = false;

	while (!found && !bpf_prog_get_next_id(id, &id)) {
		struct bpf_prog_info info;

		found = prog_info_of(id, &info) && fn(&info, arg);
	}
	return found;
}

static inline bool print_cost_of(const struct bpf_prog_info *info, void *prefix)
{
	if (!strncmp(info->name, prefix, strlen(prefix)) && info->run_cnt)
		fprintf(stderr, "  bpf cost %-16s run_cnt=%llu avg=%.0f ns\n", info->name,
			(unsigned long long)info->run_cnt,
			(double)info->run_time_ns / (double)info->run_cnt);
	return false;
}

/* For the tests' logs: each loaded program whose name starts with
 * @prefix, with its run count and mean run time (kernel bpf_stats). */
static inline void print_prog_costs(const char *prefix)
{
	progs_find(print_cost_of, (void *)prefix);
}

/*
 * How many of this process's file descriptors hold a program whose name
 * starts with @prefix: the program's own and its links' (both show a
 * prog_id in /proc/self/fdinfo).  Other processes' programs, such as
 * other iodig runs on the machine, are not counted.
 */
static inline int own_prog_fds(const char *prefix)
{
	char path[64], line[128];
	int n = 0;

	for (int fd = 0; fd < 4096; fd++) {
		struct bpf_prog_info info;
		unsigned int id = 0;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
		f = fopen(path, "re");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "prog_id: %u", &id) == 1)
				break;
		fclose(f);
		if (id && prog_info_of(id, &info) && !strncmp(info.name, prefix, strlen(prefix)))
			n++;
	}
	return n;
}

#endif /* IODIG_TEST_BPF_PROGS_H */
