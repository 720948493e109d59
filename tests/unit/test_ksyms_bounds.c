// ksyms bounds: with _stext/_etext and /proc/modules known, an address no kernel text, module or listed BPF program holds maps to "[bpf: unlisted]" in the module area and to nothing elsewhere, never to the nearest lower symbol; a saved image keeps the bounds.
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "probes/ksyms.h"
#include "tests/lib/check.h"

/* A kernel image with init text and an exit function after it (freed at
 * boot, still listed), the nvme module, a listed BPF program and an
 * ftrace trampoline in the module area. */
static const char kallsyms[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81001000 T blk_mq_get_tag\n"
	"ffffffff81800000 T _etext\n"
	"ffffffff82000000 T _sinittext\n"
	"ffffffff82000100 t nvme_core_init\n"
	"ffffffff82100000 T _einittext\n"
	"ffffffff82200000 t handshake_exit\n"
	"ffffffffc0a10000 t nvme_probe\t[nvme]\n"
	"ffffffffc0a10100 t nvme_exit\t[nvme]\n"
	"ffffffffc0c00000 t bpf_prog_6f2c9c83148e1704_iodig_compl_btf\t[bpf]\n"
	"ffffffffc0d00000 t ftrace_trampoline\t[__builtin__ftrace]\n";
static const char modules[] =
	"nvme 8192 0 - Live 0xffffffffc0a10000\n"
	"null_blk 4096 0 - Live 0xffffffffc0b00000 (O)\n"
	"garbage line\n";

static const char *name_at(const struct ksyms *ks, uint64_t addr)
{
	const struct ksym *s = ksyms__map_addr(ks, addr, NULL);

	return s ? s->name : "(none)";
}

#define NAMED(ks, addr, want) \
	CHECK_MSG(!strcmp(name_at(ks, addr), want), "%#llx: %s, want %s", \
		  (unsigned long long)(addr), name_at(ks, addr), want)

static void check_bounded(const struct ksyms *ks)
{
	uint64_t off = 1;

	NAMED(ks, 0xffffffff81001010ull, "blk_mq_get_tag");
	NAMED(ks, 0xffffffff82000110ull, "nvme_core_init");
	NAMED(ks, 0xffffffffc0a10110ull, "nvme_exit");
	NAMED(ks, 0xffffffffc0c00800ull, "bpf_prog_6f2c9c83148e1704_iodig_compl_btf");
	NAMED(ks, 0xffffffffc0d00010ull, "ftrace_trampoline");
	/* past _etext, inside the kernel image: nobody's */
	NAMED(ks, 0xffffffff81900000ull, "(none)");
	NAMED(ks, 0xffffffff820ffff0ull, "nvme_core_init");
	/* above the image, below the first module: a BPF JIT pack */
	NAMED(ks, 0xffffffffc0000100ull, "[bpf: unlisted]");
	/* past nvme's 8 KiB: JIT code kallsyms did not list */
	NAMED(ks, 0xffffffffc0a13000ull, "[bpf: unlisted]");
	/* null_blk lists no symbols: its text is its own, still unnamed */
	NAMED(ks, 0xffffffffc0b00010ull, "nvme_exit");
	/* a page past the trampoline */
	NAMED(ks, 0xffffffffc0d02000ull, "[bpf: unlisted]");
	CHECK(ksyms__map_addr(ks, 0xffffffffc0a13000ull, &off) && off == 0);
}

/* The image of @ks read back through a memfd. */
static struct ksyms *round_trip(const struct ksyms *ks)
{
	struct ksyms *back = NULL;
	int fd = memfd_create("test-ksyms-bounds", MFD_CLOEXEC);

	if (fd >= 0 && !ksyms__save(ks, fd))
		ksyms__load_image(fd, 0, &back, NULL);
	if (fd >= 0)
		close(fd);
	return back;
}

int main(void)
{
	static const char hidden[] = "nvme 8192 0 - Live 0x0000000000000000\n";
	struct ksyms *ks = NULL, *back;

	CHECK(ksyms__load_buffer(kallsyms, sizeof(kallsyms) - 1, &ks, NULL) == 0 && ks);
	if (!ks)
		return CHECK_DONE();
	/* no modules read yet: outside the kernel's text the nearest symbol
	 * is taken, as before bounds existed */
	NAMED(ks, 0xffffffffc0a13000ull, "nvme_exit");
	CHECK(ksyms__load_modules_buffer(ks, modules, sizeof(modules) - 1) == 0);
	check_bounded(ks);
	back = round_trip(ks);
	CHECK(back != NULL);
	if (back)
		check_bounded(back);
	ksyms__free(back);
	/* module bases hidden (kptr_restrict): no bounds outside the text */
	CHECK(ksyms__load_modules_buffer(ks, hidden, sizeof(hidden) - 1) == 0);
	NAMED(ks, 0xffffffffc0a13000ull, "nvme_exit");
	NAMED(ks, 0xffffffff81001010ull, "blk_mq_get_tag");
	ksyms__free(ks);
	return CHECK_DONE();
}
