// ksyms: synthetic kallsyms (modules, aliases, malformed lines, NUL bytes) and the real /proc/kallsyms map addresses back to their functions; a saved image gives back the same table, and a cut or altered one is refused.
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "probes/ksyms.h"
#include "tests/lib/check.h"

static const char synthetic[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"                    /* alias of _stext */
	"ffffffff81001000 t helper_local\n"
	"ffffffff81002000 T schedule\n"
	"ffffffff81002400 D some_data\n"                /* data: not kept */
	"ffffffff81003000 W weak_fn\r\n"                /* CRLF tolerated */
	"zzzzffff81004000 T bad_hex\n"                  /* malformed */
	"ffffffff81005000 TT two_letter_type\n"         /* malformed */
	"ffffffff81006000 T\n"                          /* no name */
	"ffffffff81007000 T a b c\n"                    /* extra token */
	"ffffffff81008000 T nomod [broken\n"            /* malformed module */
	"1ffffffff81009000 T too_long_address\n"        /* 17 hex digits */
	"\n"
	"   \t  \n"
	"ffffffffc0001000 t ext4_read\t[ext4]\n"
	"ffffffffc0002000 T ext4_write\t[ext4]\n"
	"ffffffffc0100000 t xfs_thing\t[xfs]\n"
	"ffffffff81000800 T unsorted_fn";               /* no final newline */

static void check_synthetic(void)
{
	struct errbuf err = { "" };
	struct ksyms *ks = NULL;
	const struct ksym *s;
	uint64_t off = 0;
	int ret;

	ret = ksyms__load_buffer(synthetic, sizeof(synthetic) - 1, &ks, &err);
	CHECK_MSG(ret == 0, "load_buffer: %d %s", ret, err.msg);
	if (ret)
		return;
	/* _stext _text helper_local schedule weak_fn ext4_read ext4_write
	 * xfs_thing unsorted_fn */
	CHECK_MSG(ksyms__count(ks) == 9, "count %zu", ksyms__count(ks));
	CHECK_MSG(ksyms__malformed(ks) == 6, "malformed %zu", ksyms__malformed(ks));

	s = ksyms__map_addr(ks, 0xffffffff81002010ull, &off);
	CHECK(s && !strcmp(s->name, "schedule") && off == 0x10 && !s->module[0]);
	/* data symbol dropped: its address belongs to schedule */
	s = ksyms__map_addr(ks, 0xffffffff81002400ull, &off);
	CHECK(s && !strcmp(s->name, "schedule") && off == 0x400);
	s = ksyms__map_addr(ks, 0xffffffff81000000ull, &off);
	CHECK(s && !strcmp(s->name, "_stext") && off == 0);
	s = ksyms__map_addr(ks, 0xffffffff81000900ull, NULL);
	CHECK(s && !strcmp(s->name, "unsorted_fn"));
	s = ksyms__map_addr(ks, 0xffffffff81003001ull, NULL);
	CHECK(s && !strcmp(s->name, "weak_fn"));
	s = ksyms__map_addr(ks, 0xffffffffc0002abcull, &off);
	CHECK(s && !strcmp(s->name, "ext4_write") && !strcmp(s->module, "ext4") &&
	      off == 0xabc);
	s = ksyms__map_addr(ks, 0xffffffffc0100001ull, NULL);
	CHECK(s && !strcmp(s->module, "xfs"));
	CHECK(ksyms__map_addr(ks, 0xffffffff80000000ull, NULL) == NULL);
	CHECK(ksyms__map_addr(ks, 0, NULL) == NULL);
	s = ksyms__get_symbol(ks, "ext4_read");
	CHECK(s && s->addr == 0xffffffffc0001000ull && !strcmp(s->module, "ext4"));
	CHECK(ksyms__get_symbol(ks, "bad_hex") == NULL);
	CHECK(ksyms__get_symbol(ks, "some_data") == NULL);
	ksyms__free(ks);
}

static void check_edge_inputs(void)
{
	static const char nul_inside[] = "ffffffff81000000 T fo\0o\nffffffff81000100 T ok\n";
	static const char zeros[] = "0000000000000000 T a\n0000000000000000 T b\n";
	struct errbuf err = { "" };
	struct ksyms *ks = NULL;
	char *big;
	int ret;

	/* empty input: no symbols, no error */
	ret = ksyms__load_buffer("", 0, &ks, &err);
	CHECK(ret == 0 && ks && ksyms__count(ks) == 0);
	CHECK(ksyms__map_addr(ks, 123, NULL) == NULL);
	ksyms__free(ks);

	ret = ksyms__load_buffer(nul_inside, sizeof(nul_inside) - 1, &ks, &err);
	CHECK(ret == 0 && ksyms__count(ks) == 1 && ksyms__malformed(ks) == 1);
	ksyms__free(ks);

	/* what an unprivileged reader sees */
	ret = ksyms__load_buffer(zeros, sizeof(zeros) - 1, &ks, &err);
	CHECK_MSG(ret == -EPERM && !ks && strstr(err.msg, "kptr_restrict"),
		  "ret %d msg '%s'", ret, err.msg);

	/* a name past KSYM_NAME_LEN is rejected, not truncated */
	big = malloc(4096);
	if (big) {
		memcpy(big, "ffffffff81000000 T ", 19);
		memset(big + 19, 'x', 4096 - 19);
		ret = ksyms__load_buffer(big, 4096, &ks, NULL);
		CHECK(ret == 0 && ksyms__count(ks) == 0 && ksyms__malformed(ks) == 1);
		ksyms__free(ks);
		free(big);
	}

	/* every prefix of the synthetic text parses without trouble (the
	 * buffer has no terminator past len: checked under ASan by the fuzzer) */
	for (size_t len = 0; len < sizeof(synthetic); len += 7) {
		char *copy = malloc(len ? len : 1);

		if (!copy)
			break;
		memcpy(copy, synthetic, len);
		ret = ksyms__load_buffer(copy, len, &ks, NULL);
		CHECK(ret == 0);
		ksyms__free(ks);
		free(copy);
	}
	ksyms__free(NULL);
	CHECK(ksyms__count(NULL) == 0 && ksyms__map_addr(NULL, 1, NULL) == NULL);
}

static void check_real(void)
{
	struct errbuf err = { "" };
	struct ksyms *ks = NULL;
	const struct ksym *s, *back;
	uint64_t off = 1;
	int ret;

	if (geteuid() != 0) {
		printf("note: not root, /proc/kallsyms part not run\n");
		return;
	}
	ret = ksyms__load(&ks, &err);
	CHECK_MSG(ret == 0, "ksyms__load: %s", err.msg);
	if (ret)
		return;
	CHECK_MSG(ksyms__count(ks) > 10000, "only %zu text symbols", ksyms__count(ks));
	s = ksyms__get_symbol(ks, "schedule");
	CHECK(s != NULL);
	if (s) {
		back = ksyms__map_addr(ks, s->addr, &off);
		CHECK(back && !strcmp(back->name, "schedule") && off == 0);
		/* a return address inside the function maps to it too */
		back = ksyms__map_addr(ks, s->addr + 5, &off);
		CHECK(back && !strcmp(back->name, "schedule") && off == 5);
	}
	s = ksyms__get_symbol(ks, "blk_mq_get_tag");
	CHECK(s && !s->module[0]);
	ksyms__free(ks);
}

/* ksyms__save() of the synthetic table into a memfd, then
 * ksyms__load_image() of its first @len bytes (0: all), with the byte at
 * @poke changed when @poke < @len. */
static int image_round_trip(size_t len, size_t poke, struct ksyms **out)
{
	struct ksyms *ks = NULL;
	int fd = memfd_create("test-ksyms", MFD_CLOEXEC), ret;
	char c = 0x7f;

	*out = NULL;
	if (fd < 0 || ksyms__load_buffer(synthetic, sizeof(synthetic) - 1, &ks, NULL) ||
	    ksyms__save(ks, fd)) {
		ret = -EIO;
		goto cleanup;
	}
	if (len && ftruncate(fd, (off_t)len))
		len = 0;
	if (poke < len && pwrite(fd, &c, 1, (off_t)poke) != 1)
		poke = len;
	ret = ksyms__load_image(fd, 0, out, NULL);
cleanup:
	ksyms__free(ks);
	if (fd >= 0)
		close(fd);
	return ret;
}

static void check_image(void)
{
	struct ksyms *ks = NULL;
	const struct ksym *s;
	uint64_t off = 0;
	int ret = image_round_trip(0, 0, &ks);

	CHECK_MSG(ret == 0 && ksyms__count(ks) == 9 && ksyms__malformed(ks) == 6,
		  "image: %d, %zu symbols", ret, ksyms__count(ks));
	s = ksyms__map_addr(ks, 0xffffffff81002010ull, &off);
	CHECK(s && !strcmp(s->name, "schedule") && off == 0x10 && !s->module[0]);
	s = ksyms__map_addr(ks, 0xffffffffc0002004ull, NULL);
	CHECK(s && !strcmp(s->name, "ext4_write") && !strcmp(s->module, "ext4"));
	ksyms__free(ks);
	/* cut anywhere, or its magic, a count or the pool's last NUL altered */
	/* below the header and 9 records, so never the whole image */
	for (size_t len = 1; len < 32 + 9 * 16; len += 13) {
		CHECK_MSG(image_round_trip(len, len, &ks) == -EINVAL && !ks, "cut at %zu", len);
		ksyms__free(ks);
	}
	CHECK(image_round_trip(400, 0, &ks) == -EINVAL && !ks);
	CHECK(image_round_trip(400, 8, &ks) == -EINVAL && !ks);
	ksyms__free(ks);
}

int main(void)
{
	check_synthetic();
	check_edge_inputs();
	check_image();
	check_real();
	return CHECK_DONE();
}
