// Test support for IODIG_BTF: writes this kernel's BTF with struct members renamed (and tracepoint prototypes shortened), as an unknown kernel would have them; run without arguments it checks that such a file round-trips.
/*
 * Usage: btf_rename OUT.btf EDIT...
 *   STRUCT.MEMBER=NEWNAME   rename a member of struct STRUCT
 *   TRACEPOINT/N            keep N arguments of the tracepoint's prototype
 *                           (typedef btf_trace_TRACEPOINT)
 * The edits only change names and argument counts, never offsets, so the
 * programs' CO-RE reads land where they did: what fails or falls back is
 * what an unknown kernel's renamed field would make fail or fall back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "tests/lib/check.h"

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

/* Index of member @name of struct @sname, -errno when there is none. */
static int find_member(const struct btf *btf, const char *sname, const char *name,
		       int *type_id)
{
	const struct btf_type *t;
	int id = btf__find_by_name_kind(btf, sname, BTF_KIND_STRUCT);

	if (id <= 0)
		return -ENOENT;
	*type_id = id;
	t = btf__type_by_id(btf, id);
	for (int i = 0; i < btf_vlen(t); i++)
		if (!strcmp(btf__name_by_offset(btf, btf_members(t)[i].name_off), name))
			return i;
	return -ENOENT;
}

/* STRUCT.MEMBER=NEWNAME */
static int rename_member(struct btf *btf, const char *edit)
{
	char sname[128], member[128], newname[128];
	struct btf_type *t;
	int id, idx, off;

	if (sscanf(edit, "%127[^.].%127[^=]=%127s", sname, member, newname) != 3)
		return -EINVAL;
	/* Add the string first: it may move the type data. */
	off = btf__add_str(btf, newname);
	if (off < 0)
		return off;
	idx = find_member(btf, sname, member, &id);
	if (idx < 0)
		return idx;
	t = (struct btf_type *)btf__type_by_id(btf, id);
	btf_members(t)[idx].name_off = (__u32)off;
	return 0;
}

/* TRACEPOINT/N: typedef btf_trace_TRACEPOINT is pointed at a new
 * prototype with the leading private-data pointer and the first N
 * arguments (types are records laid end to end, so the old one cannot
 * simply be cut short). */
static int shorten_proto(struct btf *btf, const char *edit)
{
	char tp[128], name[160];
	const struct btf_type *t;
	struct btf_type *td;
	unsigned int n;
	int id, proto, ptr;

	if (sscanf(edit, "%127[^/]/%u", tp, &n) != 2)
		return -EINVAL;
	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	id = btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF);
	if (id <= 0)
		return -ENOENT;
	t = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
	if (t && btf_is_ptr(t))
		t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_func_proto(t) || btf_vlen(t) < n + 1)
		return -EINVAL;
	proto = btf__add_func_proto(btf, t->type);
	if (proto < 0)
		return proto;
	for (unsigned int i = 0; i <= n; i++) {
		/* re-read: adding moves the type data */
		const struct btf_type *old = btf__type_by_id(btf, btf__type_by_id(btf, id)->type);
		const struct btf_param *p;
		char pname[128];
		int err;

		if (btf_is_ptr(old))
			old = btf__type_by_id(btf, old->type);
		p = &btf_params(old)[i];
		snprintf(pname, sizeof(pname), "%s", btf__name_by_offset(btf, p->name_off));
		err = btf__add_func_param(btf, pname, p->type);
		if (err)
			return err;
	}
	ptr = btf__add_ptr(btf, proto);
	if (ptr < 0)
		return ptr;
	td = (struct btf_type *)btf__type_by_id(btf, id);
	td->type = (__u32)ptr;
	return 0;
}

static int write_btf(const struct btf *btf, const char *path)
{
	__u32 size = 0;
	const void *raw = btf__raw_data(btf, &size);
	FILE *f;
	int ret = 0;

	if (!raw)
		return -ENOMEM;
	f = fopen(path, "we");
	if (!f)
		return -errno;
	if (fwrite(raw, 1, size, f) != size)
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

static int make_file(const char *out, char **edits, int nr)
{
	struct btf *btf = btf__parse(VMLINUX_BTF, NULL);
	int ret = 0;

	if (!btf)
		return -errno;
	for (int i = 0; i < nr && !ret; i++) {
		ret = strchr(edits[i], '=') ? rename_member(btf, edits[i])
					    : shorten_proto(btf, edits[i]);
		if (ret)
			fprintf(stderr, "btf_rename: %s: %s\n", edits[i], strerror(-ret));
	}
	if (!ret)
		ret = write_btf(btf, out);
	btf__free(btf);
	return ret;
}

/* The self-test: the renamed member reads back under its new name at the
 * same offset, the old name is gone, the prototype is shorter. */
static void self_test(void)
{
	char path[] = "/dev/shm/iodig-btf-rename-XXXXXX";
	char *edits[] = { "request.io_start_time_ns=iodig_renamed", "sched_switch/3" };
	struct btf *orig, *btf;
	const struct btf_type *t;
	int fd, id, idx, id2, idx2;

	if (access(VMLINUX_BTF, R_OK))
		SKIP("no %s (kernel without CONFIG_DEBUG_INFO_BTF)", VMLINUX_BTF);
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd < 0)
		exit(1);
	close(fd);
	CHECK(make_file(path, edits, 2) == 0);
	btf = btf__parse(path, NULL);
	orig = btf__parse(VMLINUX_BTF, NULL);
	CHECK(btf && orig);
	if (btf && orig) {
		CHECK(find_member(btf, "request", "io_start_time_ns", &id) == -ENOENT);
		idx = find_member(btf, "request", "iodig_renamed", &id);
		idx2 = find_member(orig, "request", "io_start_time_ns", &id2);
		CHECK(idx >= 0 && idx == idx2);
		if (idx >= 0 && idx == idx2)
			CHECK(btf_member_bit_offset(btf__type_by_id(btf, id), idx) ==
			      btf_member_bit_offset(btf__type_by_id(orig, id2), idx2));
		/* the new prototype and its pointer */
		CHECK(btf__type_cnt(btf) == btf__type_cnt(orig) + 2);
		id = btf__find_by_name_kind(btf, "btf_trace_sched_switch", BTF_KIND_TYPEDEF);
		t = id > 0 ? btf__type_by_id(btf, btf__type_by_id(btf, id)->type) : NULL;
		if (t && btf_is_ptr(t))
			t = btf__type_by_id(btf, t->type);
		CHECK(t && btf_is_func_proto(t) && btf_vlen(t) == 4);
	}
	btf__free(btf);
	btf__free(orig);
	unlink(path);
}

int main(int argc, char **argv)
{
	int ret;

	if (argc < 2) {
		self_test();
		return CHECK_DONE();
	}
	if (argc < 3) {
		fprintf(stderr, "usage: btf_rename OUT.btf STRUCT.MEMBER=NEWNAME|TRACEPOINT/N...\n");
		return 2;
	}
	ret = make_file(argv[1], argv + 2, argc - 2);
	if (ret)
		fprintf(stderr, "btf_rename: cannot write %s: %s\n", argv[1], strerror(-ret));
	return ret ? 1 : 0;
}
