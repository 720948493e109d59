// Verify blocks: fio's 40-byte header and checksum for every method, intervals, verify_offset, patterns; each corruption is caught and named.
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "tests/lib/check.h"
#include "workload/verify.h"

static const enum verify_mode methods[] = {
	VERIFY_MD5, VERIFY_CRC64, VERIFY_CRC32, VERIFY_CRC32C, VERIFY_CRC16,
	VERIFY_CRC7, VERIFY_SHA256, VERIFY_SHA512, VERIFY_SHA3_224,
	VERIFY_SHA3_256, VERIFY_SHA3_384, VERIFY_SHA3_512, VERIFY_XXHASH,
	VERIFY_SHA1, VERIFY_META,
};

static uint8_t buf[16384];

static struct verify_spec spec(enum verify_mode m, uint32_t interval)
{
	return (struct verify_spec){ .mode = m, .interval = interval,
				     .thread = 1, .check_numberio = true };
}

static const struct verify_io io = {
	.offset = 8192, .len = 4096, .seed = 0x00a4cc01c509543cull,
	.numberio = 2, .time_ns = 5000000123ull,
};

/* The header fio 3.33 wrote for its third 4k block with verify=crc32c:
 * magic, type 5, length, seed, offset; crc32c of the first 36 bytes. */
static void test_header_layout(void)
{
	struct verify_spec s = spec(VERIFY_CRC32C, 4096);
	struct verify_hdr h;

	verify_fill(&s, buf, &io);
	memcpy(&h, buf, sizeof(h));
	CHECK(buf[0] == 0xca && buf[1] == 0xac);
	CHECK(h.verify_type == 5 && h.len == 4096 && h.offset == 8192);
	CHECK(h.rand_seed == io.seed && h.numberio == 2 && h.thread == 1);
	CHECK(h.time_sec == 5 && h.time_nsec == 123);
	CHECK(h.crc32 == csum_crc32c_raw(buf, 36));
	CHECK(verify_hdr_size(VERIFY_CRC32C) == 44);
	CHECK(verify_hdr_size(VERIFY_SHA512) == 168);
	CHECK(verify_hdr_size(VERIFY_PATTERN_NO_HDR) == 0);
	CHECK(!strcmp(verify_mode_name(VERIFY_SHA3_384), "sha3-384"));
}

static void test_every_method_catches_a_flip(void)
{
	struct verify_failure f;
	char msg[300];

	for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
		struct verify_spec s = spec(methods[i], 4096);
		/* fio's sha512 only covers data bytes 88..127 and the tail */
		size_t flip = methods[i] == VERIFY_SHA512 ? 168 + 100 : 2000;

		verify_fill(&s, buf, &io);
		CHECK_MSG(verify_check(&s, buf, &io, &f) == 0, "%s: clean block",
			  verify_mode_name(methods[i]));
		if (methods[i] == VERIFY_META)
			continue;
		buf[flip] ^= 0x01;
		CHECK_MSG(verify_check(&s, buf, &io, &f) == -EILSEQ, "%s: flip",
			  verify_mode_name(methods[i]));
		CHECK(f.fault == VF_SUM && f.at == 8192 && f.len == 4096);
		verify_failure_describe(&s, &f, "/dev/x", &io, msg, sizeof(msg));
		CHECK_MSG(strstr(msg, "verify failed at file /dev/x offset 8192") &&
			  strstr(msg, "expected"), "%s", msg);
	}
}

static void expect_fault(struct verify_spec *s, size_t at, uint8_t x,
			 enum verify_fault want, const char *text)
{
	struct verify_failure f;
	char msg[300];

	verify_fill(s, buf, &io);
	buf[at] ^= x;
	CHECK(verify_check(s, buf, &io, &f) == -EILSEQ);
	CHECK_MSG(f.fault == want, "fault %d, want %d", f.fault, want);
	verify_failure_describe(s, &f, "f", &io, msg, sizeof(msg));
	CHECK_MSG(strstr(msg, text) != NULL, "'%s' lacks '%s'", msg, text);
}

static void test_header_faults(void)
{
	struct verify_spec s = spec(VERIFY_MD5, 4096);
	struct verify_io other = io;
	struct verify_failure f;

	expect_fault(&s, 0, 0xff, VF_MAGIC, "bad magic header");
	expect_fault(&s, 16, 0x01, VF_OFFSET, "bad header offset 8193, wanted 8192");
	expect_fault(&s, 34, 0x01, VF_NUMBERIO, "bad header numberio 3, wanted 2");
	expect_fault(&s, 24, 0x01, VF_HDR_CRC, "bad header crc");
	/* the seed is checked only when asked (fio: mixed rw jobs) */
	expect_fault(&s, 8, 0x01, VF_HDR_CRC, "bad header crc");
	s.check_seed = true;
	expect_fault(&s, 8, 0x01, VF_SEED, "bad header rand_seed");
	/* a block written for another offset */
	verify_fill(&s, buf, &io);
	other.offset = 4096;
	CHECK(verify_check(&s, buf, &other, &f) == -EILSEQ && f.fault == VF_OFFSET);
}

static void test_intervals_and_offset(void)
{
	struct verify_spec s = spec(VERIFY_CRC32C, 1024);
	struct verify_failure f;
	struct verify_hdr h;

	verify_fill(&s, buf, &io);
	memcpy(&h, buf + 3072, sizeof(h));
	CHECK(h.len == 1024 && h.offset == 8192 + 3072);
	CHECK(verify_check(&s, buf, &io, &f) == 0);
	buf[1024 + 500] ^= 4;
	buf[3072 + 500] ^= 4;
	CHECK(verify_check(&s, buf, &io, &f) == -EILSEQ);
	CHECK(f.at == 8192 + 1024 && f.interval_index == 1);
	s.fatal = true;
	CHECK(verify_check(&s, buf, &io, &f) == -EILSEQ && f.at == 8192 + 1024);

	/* verify_offset: the header sits elsewhere, the check puts it back */
	s = spec(VERIFY_CRC32C, 4096);
	s.hdr_offset = 512;
	verify_fill(&s, buf, &io);
	CHECK(buf[512] == 0xca && buf[513] == 0xac && buf[0] != 0xca);
	CHECK(verify_check(&s, buf, &io, &f) == 0);
	CHECK(buf[0] == 0xca);
}

static void test_patterns(void)
{
	struct pattern p = { .len = 4, .bytes = { 0x11, 0x22, 0x33, 0x44 } };
	struct verify_spec s = spec(VERIFY_PATTERN_NO_HDR, 4096);
	struct verify_failure f;
	char msg[300];

	s.pattern = &p;
	verify_fill(&s, buf, &io);
	CHECK(buf[0] == 0x11 && buf[4095] == 0x44);
	CHECK(verify_check(&s, buf, &io, &f) == 0);
	buf[1001] = 0;
	CHECK(verify_check(&s, buf, &io, &f) == -EILSEQ && f.pos == 1001);
	verify_failure_describe(&s, &f, "f", &io, msg, sizeof(msg));
	CHECK_MSG(strstr(msg, "got 00, wanted 22 at block offset 1001"), "%s", msg);

	/* verify_pattern without verify=: header, then the pattern */
	s.mode = VERIFY_PATTERN;
	verify_fill(&s, buf, &io);
	CHECK(buf[0] == 0xca && buf[40] == 0x11);
	CHECK(verify_check(&s, buf, &io, &f) == 0);
	buf[2049] ^= 1;
	CHECK(verify_check(&s, buf, &io, &f) == -EILSEQ && f.fault == VF_PATTERN);

	/* a checksum method over pattern data checks the checksum only */
	s.mode = VERIFY_MD5;
	verify_fill(&s, buf, &io);
	CHECK(buf[56] == 0x11 && verify_check(&s, buf, &io, &f) == 0);
}

int main(void)
{
	test_header_layout();
	test_every_method_catches_a_flip();
	test_header_faults();
	test_intervals_and_offset();
	test_patterns();
	return CHECK_DONE();
}
