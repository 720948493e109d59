// Tracepoint layouts come from BTF prototypes, never the kernel version: block_rq_issue with and without its request_queue argument (v5.10, v5.11) built in memory and read back from a file as IODIG_BTF gives it, and this kernel's own BTF.
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "probes/probe.h"
#include "probes/tp_layout.h"
#include "tests/lib/check.h"

/* typedef btf_trace_@tp: a pointer to void (*)(void *__data, args...),
 * each argument a pointer to struct @args[i] (const when @konst). */
static void add_tracepoint(struct btf *btf, const char *tp, const char *const *args,
			   int nr, int konst)
{
	int data = btf__add_ptr(btf, 0), proto, structs[4];
	char name[128];

	for (int i = 0; i < nr; i++) {
		int s = btf__find_by_name_kind(btf, args[i], BTF_KIND_STRUCT);

		if (s <= 0)
			s = btf__add_struct(btf, args[i], 0);
		structs[i] = btf__add_ptr(btf, konst ? btf__add_const(btf, s) : s);
	}
	proto = btf__add_func_proto(btf, 0);
	btf__add_func_param(btf, "__data", data);
	for (int i = 0; i < nr; i++)
		btf__add_func_param(btf, args[i], structs[i]);
	snprintf(name, sizeof(name), "btf_trace_%s", tp);
	btf__add_typedef(btf, name, btf__add_ptr(btf, proto));
}

/* v5.10 took (q, rq) and (q, bio); v5.11 (commit a54895fa) rq and bio. */
static struct btf *kernel_like(int old)
{
	static const char *const rq_old[] = { "request_queue", "request" };
	static const char *const bio_old[] = { "request_queue", "bio" };
	struct btf *btf = btf__new_empty();

	CHECK(btf != NULL);
	if (!btf)
		return NULL;
	add_tracepoint(btf, "block_rq_issue", old ? rq_old : rq_old + 1, old ? 2 : 1, 0);
	add_tracepoint(btf, "block_bio_queue", old ? bio_old : bio_old + 1, old ? 2 : 1, 1);
	return btf;
}

static void test_in_memory(void)
{
	struct btf *old = kernel_like(1), *now = kernel_like(0);

	CHECK(tp_struct_arg(old, "block_rq_issue", "request") == 1);
	CHECK(tp_struct_arg(old, "block_bio_queue", "bio") == 1);   /* through const */
	CHECK(tp_nr_args(old, "block_rq_issue") == 2);
	CHECK(tp_struct_arg(now, "block_rq_issue", "request") == 0);
	CHECK(tp_struct_arg(now, "block_bio_queue", "bio") == 0);
	CHECK(tp_nr_args(now, "block_rq_issue") == 1);
	/* unknown: a tracepoint the BTF lacks, a struct no argument points to */
	CHECK(tp_proto(now, "sched_switch") == NULL);
	CHECK(tp_nr_args(now, "sched_switch") == -1);
	CHECK(tp_struct_arg(now, "block_rq_issue", "bio") == -1);
	CHECK(tp_nr_args(NULL, "block_rq_issue") == -1);
	btf__free(old);
	btf__free(now);
}

/* IODIG_BTF: the layout read from the file env->btf_path names. */
static void test_from_file(void)
{
	char path[] = "/tmp/iodig-tp-layout-XXXXXX";
	struct probe_env env = { .btf_path = path };
	struct btf *old = kernel_like(1), *back;
	const void *raw;
	uint32_t size;
	int fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	raw = old ? btf__raw_data(old, &size) : NULL;
	CHECK(f && raw && fwrite(raw, 1, size, f) == size);
	if (f)
		fclose(f);
	back = tp_layout_btf(&env);
	CHECK(back != NULL);
	CHECK(tp_struct_arg(back, "block_rq_issue", "request") == 1);
	btf__free(back);
	btf__free(old);
	unlink(path);
}

/* This kernel's BTF, when it has one: a v5.18+ kernel passes sched_switch
 * prev_state (four arguments), and since v5.11 the request comes first. */
static void test_this_kernel(void)
{
	struct probe_env env = { 0 };
	struct btf *btf;

	if (access("/sys/kernel/btf/vmlinux", R_OK)) {
		fprintf(stderr, "no /sys/kernel/btf/vmlinux: this kernel's layout not checked\n");
		return;
	}
	btf = tp_layout_btf(&env);
	CHECK(btf != NULL);
	CHECK(tp_nr_args(btf, "sched_switch") >= 3);
	CHECK(tp_struct_arg(btf, "block_rq_issue", "request") >= 0);
	fprintf(stderr, "this kernel: sched_switch has %d arguments, block_rq_issue's "
		"request is argument %d\n", tp_nr_args(btf, "sched_switch"),
		tp_struct_arg(btf, "block_rq_issue", "request"));
	btf__free(btf);
}

int main(void)
{
	libbpf_set_print(NULL);
	test_in_memory();
	test_from_file();
	test_this_kernel();
	return CHECK_DONE();
}
