// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "base/grow.h"
#include "probes/bpf_ksyms.h"

/* Room for "bpf_prog_", 16 hex digits, '_' and a BTF name: the kernel
 * cuts at KSYM_NAME_LEN (512) too. */
#define BPF_KSYM_NAME_MAX 512

struct bpf_code {
	uint64_t start, len;
	uint32_t prog_id;
	bool sole;               /* the program's only function: nameable */
	bool named;              /* sym is filled */
	struct ksym sym;
	char *name;
};

struct bpf_ksyms {
	struct bpf_code *code;
	size_t nr, cap;
};

/* The kernel's bpf_jit_kallsyms_enabled(): programs are listed only with
 * bpf_jit_kallsyms 1 and bpf_jit_harden 0. */
static int read_sysctl(const char *path)
{
	FILE *f = fopen(path, "re");
	int v = -1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static int add_code(struct bpf_ksyms *bk, uint32_t id, uint64_t start, uint64_t len,
		    bool sole)
{
	struct bpf_code *c = grow_for_one(bk->code, &bk->cap, bk->nr, sizeof(*c), 64);

	if (!c)
		return -ENOMEM;
	bk->code = c;
	bk->code[bk->nr++] = (struct bpf_code){ .start = start, .len = len, .prog_id = id,
						 .sole = sole };
	return 0;
}

/* Program @fd's functions' code ranges. */
static int add_prog(struct bpf_ksyms *bk, uint32_t id, int fd)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info);
	uint64_t addrs[64];
	uint32_t lens[64];
	uint32_t n;
	int err;

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return 0;   /* gone meanwhile */
	n = info.nr_jited_ksyms;
	if (!n || n != info.nr_jited_func_lens)
		return 0;   /* not JIT-compiled */
	if (n > sizeof(addrs) / sizeof(addrs[0]))
		n = sizeof(addrs) / sizeof(addrs[0]);
	memset(&info, 0, sizeof(info));
	info.nr_jited_ksyms = info.nr_jited_func_lens = n;
	info.jited_ksyms = (uint64_t)(uintptr_t)addrs;
	info.jited_func_lens = (uint64_t)(uintptr_t)lens;
	len = sizeof(info);
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return 0;
	for (uint32_t i = 0; i < n && i < info.nr_jited_ksyms; i++)
		if (addrs[i] && (err = add_code(bk, id, addrs[i], lens[i], info.nr_jited_ksyms == 1)))
			return err;
	return 0;
}

int bpf_ksyms__load(struct bpf_ksyms **out)
{
	struct bpf_ksyms *bk;
	uint32_t id = 0;
	int err = 0;

	*out = NULL;
	if (read_sysctl("/proc/sys/net/core/bpf_jit_kallsyms") != 1 ||
	    read_sysctl("/proc/sys/net/core/bpf_jit_harden") != 0)
		return -ENOENT;
	bk = calloc(1, sizeof(*bk));
	if (!bk)
		return -ENOMEM;
	while (!err && !bpf_prog_get_next_id(id, &id)) {
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0)
			continue;   /* unloaded meanwhile */
		err = add_prog(bk, id, fd);
		close(fd);
	}
	if (!err && errno != ENOENT)
		err = -errno;   /* the listing itself failed */
	if (err) {
		bpf_ksyms__free(bk);
		return err;
	}
	*out = bk;
	return 0;
}

/* The name of the main function of program @fd, as bpf_get_prog_name(). */
static int prog_name(int fd, char *buf, size_t size)
{
	struct bpf_prog_info info;
	uint32_t len = sizeof(info), fi[2] = { 0, 0 };
	const char *name = NULL;
	struct btf *btf = NULL;
	int n;

	uint8_t tag[BPF_TAG_SIZE];

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(fd, &info, &len))
		return -errno;
	memcpy(tag, info.tag, sizeof(tag));
	if (info.nr_func_info && info.btf_id && info.func_info_rec_size >= sizeof(fi)) {
		uint32_t btf_id = info.btf_id, rec = info.func_info_rec_size;
		char recbuf[64];

		memset(&info, 0, sizeof(info));
		info.nr_func_info = 1;
		info.func_info_rec_size = rec;
		info.func_info = (uint64_t)(uintptr_t)recbuf;
		len = sizeof(info);
		if (rec > sizeof(recbuf) || bpf_obj_get_info_by_fd(fd, &info, &len))
			return -EINVAL;
		memcpy(fi, recbuf, sizeof(fi));   /* struct bpf_func_info */
		btf = btf__load_from_kernel_by_id(btf_id);
		if (!btf)
			return -errno;
		if (btf__type_by_id(btf, fi[1]))
			name = btf__name_by_offset(btf, btf__type_by_id(btf, fi[1])->name_off);
		if (!name) {
			btf__free(btf);
			return -EINVAL;
		}
	} else if (info.name[0]) {
		name = info.name;
	}
	n = snprintf(buf, size, "bpf_prog_");
	for (int i = 0; i < BPF_TAG_SIZE; i++)
		n += snprintf(buf + n, size - (size_t)n, "%02x", tag[i]);
	if (name)
		snprintf(buf + n, size - (size_t)n, "_%s", name);
	btf__free(btf);
	return 0;
}

/* Fills @c's symbol; false when its program is gone. */
static bool name_code(struct bpf_code *c)
{
	char buf[BPF_KSYM_NAME_MAX];
	int fd;

	if (c->named)
		return true;
	fd = bpf_prog_get_fd_by_id(c->prog_id);
	if (fd < 0)
		return false;
	if (prog_name(fd, buf, sizeof(buf)) || !(c->name = strdup(buf))) {
		close(fd);
		return false;
	}
	close(fd);
	c->sym = (struct ksym){ c->start, c->name, "bpf" };
	c->named = true;
	return true;
}

int bpf_ksyms__map_addr(struct bpf_ksyms *bk, uint64_t addr, const struct ksym **sym,
			uint64_t *offset)
{
	for (size_t i = 0; bk && i < bk->nr; i++) {
		struct bpf_code *c = &bk->code[i];

		if (addr < c->start || addr - c->start >= c->len)
			continue;
		if (!c->sole || !name_code(c))
			return -1;
		*sym = &c->sym;
		if (offset)
			*offset = addr - c->start;
		return 1;
	}
	return 0;
}

void bpf_ksyms__free(struct bpf_ksyms *bk)
{
	if (!bk)
		return;
	for (size_t i = 0; i < bk->nr; i++)
		free(bk->code[i].name);
	free(bk->code);
	free(bk);
}
