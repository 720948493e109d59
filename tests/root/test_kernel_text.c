// kernel text start: where kernel code begins is the kernel image's lowest code symbol, modules, hidden addresses and data left out; the early look at /proc/kallsyms' first lines (the prefetch child's first answer) gives what the whole table read through the same rewound open and the boot's cache image of it give.
#define _GNU_SOURCE
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include "probes/kernel_text.h"
#include "probes/ksyms.h"
#include "tests/lib/check.h"

/* An arm64-like order (modules below the image), a hidden weak symbol
 * and data before the image's code. */
static const char synthetic[] =
	"0000000000000000 w __hidden_weak\n"
	"ffff800078000000 t nvme_probe\t[nvme]\n"
	"ffff800080000000 D some_data\n"
	"ffff800080010000 T _text\n"
	"ffff800080020000 T _stext\n"
	"ffff800080030000 T schedule\n";

static void check_synthetic(void)
{
	struct ksyms *ks = NULL;

	CHECK(ksyms__load_buffer(synthetic, sizeof(synthetic) - 1, &ks, NULL) == 0);
	CHECK_MSG(ksyms__text_start(ks) == 0xffff800080010000ull, "%#llx",
		  (unsigned long long)ksyms__text_start(ks));
	ksyms__free(ks);
	CHECK(ksyms__text_start(NULL) == 0);
}

/* The static image of @ks, as the boot's cache file holds it. */
static uint64_t cached_text_start(const struct ksyms *ks)
{
	struct ksyms *back = NULL;
	int fd = memfd_create("test-kernel-text", MFD_CLOEXEC);
	uint64_t text = 0;

	if (fd >= 0 && !ksyms__save_static(ks, fd) && !ksyms__load_image(fd, 0, &back, NULL))
		text = ksyms__text_start(back);
	ksyms__free(back);
	if (fd >= 0)
		close(fd);
	return text;
}

static void check_real(void)
{
	struct errbuf err = { "" };
	struct ksyms *ks = NULL;
	uint64_t text = 1;
	int fd = kernel_text_open(&text), ret;

	CHECK_MSG(fd >= 0, "kernel_text_open: %d", fd);
	if (fd < 0)
		return;
	CHECK(text != 0);
	ret = ksyms__load_opened(fd, &ks, &err);
	close(fd);
	CHECK_MSG(ret == 0, "ksyms__load_opened: %s", err.msg);
	if (ret)
		return;
	/* rewound: the table has the lines the early look read too */
	CHECK_MSG(ksyms__text_start(ks) == text, "table %#llx, first lines %#llx",
		  (unsigned long long)ksyms__text_start(ks), (unsigned long long)text);
	CHECK(ksyms__get_symbol(ks, "_text") && ksyms__get_symbol(ks, "_text")->addr == text);
	CHECK_MSG(cached_text_start(ks) == text, "cache image %#llx",
		  (unsigned long long)cached_text_start(ks));
	ksyms__free(ks);
}

int main(void)
{
	check_synthetic();
	if (geteuid() != 0)
		printf("note: not root, /proc/kallsyms part not run\n");
	else
		check_real();
	return CHECK_DONE();
}
