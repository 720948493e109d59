// Known answers for every verify= checksum, as fio 3.33 stores it: published check values, then fio's departures from them.
#include <stdint.h>
#include <string.h>

#include "tests/lib/check.h"
#include "workload/checksums.h"

static const char digits[] = "123456789";

static void hex(const char *h, uint8_t *out)
{
	for (size_t i = 0; h[2 * i]; i++) {
		unsigned int v;

		sscanf(h + 2 * i, "%2x", &v);
		out[i] = (uint8_t)v;
	}
}

static void check_field(enum verify_mode m, const char *data, size_t len,
			const char *want_hex)
{
	uint8_t want[CSUM_FIELD_MAX], got[CSUM_FIELD_MAX] = { 0 };
	size_t n = strlen(want_hex) / 2;

	hex(want_hex, want);
	CHECK_MSG(csum_field_size(m) >= n, "mode %d field %u < %zu", m,
		  csum_field_size(m), n);
	csum_compute(m, data, len, got);
	CHECK_MSG(!memcmp(want, got, n), "mode %d of '%.16s' differs", m, data);
}

/* "123456789" check values from the Catalogue of parametrised CRC
 * algorithms (R. Williams' model, reveng catalogue): CRC-32C 0xe3069283,
 * CRC-32/CKSUM 0x765e7680, CRC-64/REDIS 0xe9c6d914c4b8d9ca, CRC-16/ARC
 * 0xbb3d, CRC-7/MMC 0x75.  fio keeps crc32c and crc32 without the final
 * inversion, so it stores their complements. */
static void test_crcs(void)
{
	CHECK(csum_crc32c_raw(digits, 9) == (uint32_t)~0xe3069283u);
	CHECK(csum_crc32_fio(digits, 9) == (uint32_t)~0x765e7680u);
	CHECK(csum_crc64_redis(digits, 9) == 0xe9c6d914c4b8d9caull);
	CHECK(csum_crc16_arc(digits, 9) == 0xbb3d);
	CHECK(csum_crc7_mmc(digits, 9) == 0x75);
	CHECK(csum_crc32c_raw("", 0) == 0xffffffffu);
	CHECK(csum_crc16_arc("", 0) == 0);
	/* Fields are little-endian numbers, as fio writes them on x86. */
	check_field(VERIFY_CRC32C, digits, 9, "7c6df91c");
	check_field(VERIFY_CRC64, digits, 9, "cad9b8c414d9c6e9");
	check_field(VERIFY_CRC16, digits, 9, "3dbb");
	check_field(VERIFY_CRC7, digits, 9, "75");
	check_field(VERIFY_CRC32, digits, 9, "7f89a189");
	CHECK(csum_field_size(VERIFY_CRC32C_INTEL) == 4);
}

/* Digests of "abc": MD5 from RFC 1321's test suite, SHA-1 from FIPS 180-2
 * appendix A, SHA3-* from the FIPS 202 examples (NIST CSRC). */
static void test_digests(void)
{
	check_field(VERIFY_MD5, "abc", 3, "900150983cd24fb0d6963f7d28e17f72");
	check_field(VERIFY_MD5, "", 0, "d41d8cd98f00b204e9800998ecf8427e");
	check_field(VERIFY_SHA3_224, "abc", 3,
		    "e642824c3f8cf24ad09234ee7d3c766fc9a3a5168d0c94ad73b46fdf");
	check_field(VERIFY_SHA3_256, "abc", 3,
		    "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532");
	check_field(VERIFY_SHA3_384, "abc", 3,
		    "ec01498288516fc926459f58e2c6ad8df9b473cb0fc08c2596da7cf0"
		    "e49be4b298d88cea927ac7f539f1edf228376d25");
	check_field(VERIFY_SHA3_512, "abc", 3,
		    "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d02"
		    "40d2712e10e116e9192af3c91a7ec57647e3934057340b4cf408d5a5"
		    "6592f8274eec53f0");
	/* SHA-1 a9993e36 4706816a ba3e2571 7850c26c 9cd0d89d, each word
	 * stored little-endian by fio. */
	check_field(VERIFY_SHA1, "abc", 3,
		    "363e99a96a81064771253eba6cc250789dd8d09c");
}

/* XXH32 with seed 0: "" is 0x02cc5d05 (xxHash's documented empty-input
 * value) and "123456789" 0x937bad67; fio seeds it with 1, which gives
 * 0xf261918c for "123456789" (checked against an independent
 * implementation of the xxHash specification, doc/xxhash_spec.md). */
static void test_xxhash(void)
{
	check_field(VERIFY_XXHASH, digits, 9, "8c9161f2");
}

/* fio 3.33's sha256 appends the length little-endian and keeps the last
 * padded block with the state's low bytes over its start: for "abc" the
 * state low bytes ec d7 46 f4 0a 9b f5 68, then zeros, the length 24 bits
 * at byte 56.  (Values from a model of fio's code that reproduces blocks
 * fio 3.33 wrote; tests/host/verify_fio.sh checks fio's own blocks.) */
static void test_fio_sha256(void)
{
	uint8_t data[200], got[64];
	char want[129] = "ecd746f40a9bf568";

	for (int i = 16; i < 112; i++)
		want[i] = '0';
	memcpy(want + 112, "1800000000000000", 17);
	check_field(VERIFY_SHA256, "abc", 3, want);
	for (int i = 0; i < 200; i++)
		data[i] = (uint8_t)i;
	csum_compute(VERIFY_SHA256, data, sizeof(data), got);
	/* 200 = 3 * 64 + 8: the tail went under the state bytes, 0x80 follows */
	CHECK(got[8] == 0x80 && got[9] == 0);
	CHECK(got[56] == 0x40 && got[57] == 0x06); /* 1600 bits */
	CHECK(got[0] == 0x7b && got[7] == 0x96);
}

/* fio 3.33's sha512 stops before hashing: its field is its work buffer,
 * the first 128 bytes with the last len % 128 bytes copied over them. */
static void test_fio_sha512(void)
{
	uint8_t data[300], got[128];

	for (int i = 0; i < 300; i++)
		data[i] = (uint8_t)(i * 7);
	csum_compute(VERIFY_SHA512, data, sizeof(data), got);
	CHECK(!memcmp(got, data + 256, 44));
	CHECK(!memcmp(got + 44, data + 44, 84));
	csum_compute(VERIFY_SHA512, data, 256, got);
	CHECK(!memcmp(got, data, 128));
}

int main(void)
{
	test_crcs();
	test_digests();
	test_xxhash();
	test_fio_sha256();
	test_fio_sha512();
	return CHECK_DONE();
}
