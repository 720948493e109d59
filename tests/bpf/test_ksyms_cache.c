// Real kallsyms and BPF: the boot's symbol cache (probes/ksyms_cache.h) answers as all of /proc/kallsyms does.  Every text symbol's address, and one inside it, symbolizes to the same name, module and offset through the cache's partial table as through the full table; the partial table asks for more nowhere inside the kernel image, and names this test's own BPF programs (a probe family's) from their info exactly as kallsyms lists them.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "base/read_whole.h"
#include "probes/bpf_ksyms.h"
#include "probes/ksyms.h"
#include "probes/ksyms_cache.h"
#include "probes/family.h"
#include "probes/probe.h"
#include "tests/lib/check.h"

extern const struct probe_family sched_probe;

struct more_ctx {
	struct ksyms *full;
	struct bpf_ksyms *bpf;
	size_t asked, by_bpf;
};

/* What probe_cache does for a partial table, counted. */
static const struct ksym *more(void *arg, uint64_t addr, uint64_t *offset)
{
	struct more_ctx *m = arg;
	const struct ksym *sym = NULL;

	m->asked++;
	if (bpf_ksyms__map_addr(m->bpf, addr, &sym, offset) == 1) {
		m->by_bpf++;
		return sym;
	}
	return ksyms__map_addr(m->full, addr, offset);
}

static bool same(const struct ksym *a, uint64_t oa, const struct ksym *b, uint64_t ob)
{
	if (!a || !b)
		return a == b;
	return oa == ob && !strcmp(a->name, b->name) && !strcmp(a->module, b->module);
}

/* Compares both tables at @addr; true when they agree. */
static bool agree(struct ksyms *full, struct ksyms *part, uint64_t addr)
{
	uint64_t of = 0, op = 0;
	const struct ksym *f = ksyms__map_addr(full, addr, &of);
	const struct ksym *p = ksyms__map_addr(part, addr, &op);

	if (same(f, of, p, op))
		return true;
	fprintf(stderr, "0x%llx: full %s [%s]+%llu, cached %s [%s]+%llu\n",
		(unsigned long long)addr, f ? f->name : "-", f ? f->module : "",
		(unsigned long long)of, p ? p->name : "-", p ? p->module : "",
		(unsigned long long)op);
	return false;
}

/* Every text symbol line of @text: its address and the one 1 byte in,
 * through both tables; the core kernel's must not need more(). */
static void compare_all(const char *text, struct ksyms *full, struct ksyms *part,
			struct more_ctx *m)
{
	size_t bad = 0, n = 0, core_asked = 0;
	uint64_t last_core = 0;
	const char *p;

	for (p = text; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		unsigned long long a;
		char t;

		if (sscanf(p, "%llx %c", &a, &t) == 2 && strchr("tTwW", t) &&
		    !memchr(p, '[', strcspn(p, "\n")) && a > last_core)
			last_core = a;
	}
	for (p = text; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		unsigned long long a;
		char t;
		size_t before = m->asked, line = strcspn(p, "\n");
		bool core = !memchr(p, '[', line);

		if (sscanf(p, "%llx %c", &a, &t) != 2 || !t || !strchr("tTwW", t))
			continue;
		if (memmem(p, line, "[bpf]", 5))
			continue;   /* other processes' programs come and go meanwhile */
		bad += !agree(full, part, a) + !agree(full, part, a + 1);
		n++;
		if (core && a < last_core && m->asked != before)
			core_asked++;
	}
	fprintf(stderr, "%zu symbols compared, %zu lookups asked for more\n", n, m->asked);
	CHECK_MSG(n > 1000, "only %zu text symbols", n);
	CHECK_MSG(bad == 0, "%zu lookups disagree", bad);
	CHECK_MSG(core_asked == 0, "%zu kernel image addresses needed more than the cache",
		  core_asked);
}

/* The code of the programs of @obj (this test's own), named as kallsyms
 * does. */
static void compare_own_progs(struct bpf_object *obj, struct ksyms *full, struct ksyms *part,
			      struct more_ctx *m)
{
	size_t progs = 0, by_bpf = m->by_bpf;
	struct bpf_program *prog;

	bpf_object__for_each_program(prog, obj) {
		struct bpf_prog_info info;
		uint32_t len = sizeof(info);
		uint64_t addr = 0;
		int fd = bpf_program__fd(prog);

		memset(&info, 0, sizeof(info));
		info.nr_jited_ksyms = 1;
		info.jited_ksyms = (uint64_t)(uintptr_t)&addr;
		if (fd < 0 || bpf_obj_get_info_by_fd(fd, &info, &len) || !addr ||
		    info.nr_jited_ksyms != 1)
			continue;
		progs++;
		CHECK_MSG(agree(full, part, addr + 4), "program %s", info.name);
	}
	fprintf(stderr, "%zu own programs compared, %zu named from their info\n", progs,
		m->by_bpf - by_bpf);
	CHECK_MSG(progs > 0, "no program of this test's probe family found");
	CHECK_MSG(m->by_bpf - by_bpf == progs, "programs named from kallsyms, not their info");
}

int main(void)
{
	struct probe_env env = { .runner_tgid = getpid() };
	struct errbuf err = { .msg = "" };
	struct ksyms_cache_key key;
	struct more_ctx m = { 0 };
	struct ksyms *part = NULL;
	struct probe_status st;
	void *state = NULL;
	char path[] = "/dev/shm/iodig-test-ksyms-cache-XXXXXX";
	char *text = NULL;
	size_t len = 0;
	int fd;

	if (geteuid())
		SKIP("needs root (kallsyms addresses, BPF)");
	if (bpf_ksyms__load(&m.bpf) == -ENOENT)
		SKIP("the kernel lists no BPF program in kallsyms (bpf_jit_kallsyms)");
	bpf_ksyms__free(m.bpf);
	m.bpf = NULL;
	if (family_open(&sched_probe, &env, &state, &st))
		SKIP("sched family cannot open: %s", st.reason);
	fd = open("/proc/kallsyms", O_RDONLY | O_CLOEXEC);
	CHECK(fd >= 0 && !read_whole(fd, SIZE_MAX, &text, &len));
	if (fd >= 0)
		close(fd);
	CHECK(text && !ksyms__load_buffer(text, len, &m.full, &err));
	CHECK(ksyms_cache_key(&key));
	fd = mkstemp(path);
	CHECK(fd >= 0);
	if (fd >= 0)
		close(fd);
	CHECK(ksyms_cache_write(path, &key, m.full) == 0);
	fd = ksyms_cache_open(path, &key);
	CHECK_MSG(fd >= 0, "the cache just written is refused");
	CHECK(fd < 0 || !ksyms__load_image(fd, sizeof(key), &part, &err));
	if (fd >= 0)
		close(fd);
	key.modules_hash ^= 1;
	fd = ksyms_cache_open(path, &key);
	CHECK_MSG(fd < 0, "a cache file of another key is used");
	if (fd >= 0)
		close(fd);
	unlink(path);
	CHECK(bpf_ksyms__load(&m.bpf) == 0);
	if (part && m.full && text) {
		ksyms__set_more(part, more, &m);
		compare_all(text, m.full, part, &m);
		compare_own_progs(family_object(state), m.full, part, &m);
	}
	family_destroy(state);
	ksyms__free(part);
	ksyms__free(m.full);
	bpf_ksyms__free(m.bpf);
	free(text);
	return CHECK_DONE();
}
