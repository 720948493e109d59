// fio's pattern syntax (buffer_pattern, verify_pattern): the examples fio documents give the same bytes; fills repeat them, %o pastes the offset.
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "tests/lib/check.h"
#include "workload/pattern.h"

static void expect(const char *in, const uint8_t *want, size_t n)
{
	struct pattern p;
	struct errbuf err = { { 0 } };
	int ret = pattern_parse(&p, in, true, "test", "verify_pattern", &err);

	CHECK_MSG(ret == 0, "%s: %s", in, err.msg);
	if (ret)
		return;
	CHECK_MSG(p.len == n, "%s: %u bytes, want %zu", in, p.len, n);
	CHECK_MSG(!memcmp(p.bytes, want, n), "%s: bytes differ", in);
}

/* The examples of fio's lib/pattern.c (parse_and_fill_pattern's comment)
 * and of its HOWTO (buffer_pattern). */
static void test_fio_examples(void)
{
	expect("\"abcd\"", (const uint8_t *)"abcd", 4);
	expect("-1024", (const uint8_t[]){ 0x00, 0xfc, 0xff, 0xff }, 4);
	expect("66", (const uint8_t[]){ 0x42 }, 1);
	expect("0xFF0X1", (const uint8_t[]){ 0xff, 0x01 }, 2);
	expect("%o", (const uint8_t[8]){ 0 }, 8);
	expect("\"123\"0xFFeeCC",
	       (const uint8_t[]){ 0x31, 0x32, 0x33, 0xff, 0xee, 0xcc }, 6);
	expect("-100xab\"1\"%o\"2\"",
	       (const uint8_t[]){ 0xf6, 0xff, 0xff, 0xff, 0xab, 0x31, 0, 0, 0,
				  0, 0, 0, 0, 0, 0x32 }, 15);
	expect("0xdeadface\"abcd\"-12",
	       (const uint8_t[]){ 0xde, 0xad, 0xfa, 0xce, 'a', 'b', 'c', 'd',
				  0xf4, 0xff, 0xff, 0xff }, 12);
	/* fio reads an odd digit count with a one-digit first byte */
	expect("0xaaa", (const uint8_t[]){ 0x0a, 0xaa }, 2);
	expect("0", (const uint8_t[]){ 0 }, 1);
	expect("0x11223344", (const uint8_t[]){ 0x11, 0x22, 0x33, 0x44 }, 4);
}

static void test_errors(void)
{
	struct pattern p;
	struct errbuf err = { { 0 } };

	CHECK(pattern_parse(&p, "%o", false, "f:3", "buffer_pattern", &err) < 0);
	CHECK(strstr(err.msg, "f:3: option 'buffer_pattern'") != NULL);
	CHECK(pattern_parse(&p, "\"abc", true, "f", "verify_pattern", &err) < 0);
	CHECK(strstr(err.msg, "closing quote") != NULL);
	CHECK(pattern_parse(&p, "zz", true, "f", "verify_pattern", &err) < 0);
	CHECK(pattern_parse(&p, "'/nonexistent/x'", true, "f", "v", &err) < 0);
	CHECK(strstr(err.msg, "/nonexistent/x") != NULL);
	CHECK(pattern_parse(&p, "99999999999", true, "f", "v", &err) < 0);
	CHECK(pattern_parse(&p, "", true, "f", "v", &err) < 0);
}

static void test_file(void)
{
	char path[] = "/tmp/iodig-pattern.XXXXXX";
	int fd = mkstemp(path);
	struct pattern p;
	struct errbuf err = { { 0 } };
	char in[64];

	CHECK(fd >= 0);
	CHECK(write(fd, "xyz", 3) == 3);
	close(fd);
	snprintf(in, sizeof(in), "0x01'%s'", path);
	CHECK(pattern_parse(&p, in, false, "f", "buffer_pattern", &err) == 0);
	CHECK(p.len == 4 && !memcmp(p.bytes, "\x01xyz", 4));
	unlink(path);
}

static void test_fill_and_compare(void)
{
	struct pattern p;
	struct errbuf err = { { 0 } };
	uint8_t buf[100], want;

	CHECK(pattern_parse(&p, "0xab%o\"xy\"", true, "f", "v", &err) == 0);
	CHECK(p.len == 11 && p.nr_offsets == 1 && p.offset_at[0] == 1);
	pattern_spread(&p, buf, sizeof(buf), 0x0102030405060708ull);
	CHECK(buf[0] == 0xab && buf[1] == 0x08 && buf[8] == 0x01);
	CHECK(buf[9] == 'x' && buf[11] == 0xab && buf[12] == 0x08);
	CHECK(buf[99] == buf[99 - 11]);
	CHECK(pattern_find_diff(&p, buf, sizeof(buf), 0, 0x0102030405060708ull,
			       &want) == -1);
	CHECK(pattern_find_diff(&p, buf + 5, 50, 5, 0x0102030405060708ull,
			       &want) == -1);
	CHECK(pattern_find_diff(&p, buf, sizeof(buf), 0, 7, &want) == 1);
	buf[60] ^= 0x10;
	CHECK(pattern_find_diff(&p, buf, sizeof(buf), 0, 0x0102030405060708ull,
			       &want) == 60);
	CHECK(want == (buf[60] ^ 0x10));
}

int main(void)
{
	test_fio_examples();
	test_errors();
	test_file();
	test_fill_and_compare();
	return CHECK_DONE();
}
