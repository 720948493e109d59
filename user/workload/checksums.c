// SPDX-License-Identifier: GPL-2.0
/*
 * fio 3.33's verify checksums.  Libraries do the work where one computes
 * what fio stores: ISA-L (crc32c, crc32, crc64, hardware accelerated),
 * libcrypto (md5, sha1, sha3, and the SHA-256 compression under fio's
 * sha256; opened when first needed, base/lazy_lib.h), libxxhash (xxhash).  crc16 and crc7 are small enough to write
 * out.  Where fio departs from the published algorithm the code follows
 * fio, because a block is only useful to both tools if both compute the
 * same bytes; tests/unit/test_checksums.c checks each against known
 * answers and tests/host/verify_fio.sh against blocks fio wrote.
 */
/* SHA256_Update and SHA256_CTX (deprecated in OpenSSL 3, still shipped)
 * give the state that fio's sha256 exposes; no EVP call does. */
#define OPENSSL_API_COMPAT 10101
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <isa-l/crc.h>
#include <isa-l/crc64.h>
#include <openssl/evp.h>
#include <openssl/opensslv.h>
#include <openssl/sha.h>
#include <xxhash.h>

#include "base/lazy_lib.h"
#include "workload/checksums.h"

#define STR_(x) #x
#define STR(x) STR_(x)

enum {
	FN_DIGEST, FN_MD5, FN_SHA1, FN_SHA3_224, FN_SHA3_256, FN_SHA3_384, FN_SHA3_512,
	FN_SHA256_INIT, FN_SHA256_UPDATE, NR_CRYPTO
};
static const char *const crypto_names[NR_CRYPTO] = {
	"EVP_Digest", "EVP_md5", "EVP_sha1", "EVP_sha3_224", "EVP_sha3_256",
	"EVP_sha3_384", "EVP_sha3_512", "SHA256_Init", "SHA256_Update",
};
static void *crypto_fns[NR_CRYPTO];
/* process-wide, as the library itself */
static struct lazy_lib crypto = LAZY_LIB("libcrypto.so." STR(OPENSSL_SHLIB_VERSION),
					 crypto_names, crypto_fns);

typedef int digest_fn(const void *, size_t, unsigned char *, unsigned int *,
		      const EVP_MD *, ENGINE *);
typedef const EVP_MD *md_fn(void);
typedef int sha256_init_fn(SHA256_CTX *);
typedef int sha256_update_fn(SHA256_CTX *, const void *, size_t);

static bool crypto_open(void)
{
	const char *why;

	return !lazy_lib_open(&crypto, &why);
}

static bool needs_crypto(enum verify_mode mode)
{
	switch (mode) {
	case VERIFY_MD5:
	case VERIFY_SHA1:
	case VERIFY_SHA256:
	case VERIFY_SHA3_224:
	case VERIFY_SHA3_256:
	case VERIFY_SHA3_384:
	case VERIFY_SHA3_512:
		return true;
	default:
		return false;
	}
}

int csum_open(enum verify_mode mode, const char *where, struct errbuf *err)
{
	const char *why;

	if (!needs_crypto(mode) || !lazy_lib_open(&crypto, &why))
		return 0;
	return err_set(err, ELIBACC, "%s: this verify method needs OpenSSL's libcrypto: %s",
		       where, why);
}

uint32_t csum_crc32c_raw(const void *buf, size_t len)
{
	/* ISA-L's iSCSI CRC takes the register as is and does not invert
	 * the result: starting from ~0 gives fio's value.  It does not
	 * write through the pointer. */
	return crc32_iscsi((unsigned char *)buf, (int)len, 0xffffffffu);
}

uint32_t csum_crc32_fio(const void *buf, size_t len)
{
	/* ISA-L inverts the initial value and the result (CRC-32/CKSUM
	 * with init ~0 given); fio does neither. */
	return ~crc32_ieee(0xffffffffu, buf, len);
}

uint64_t csum_crc64_redis(const void *buf, size_t len)
{
	return ~crc64_jones_refl(~0ull, buf, len);
}

/*
 * A CRC of up to 16 bits by nibble tables (16 entries, two steps per
 * byte), starting from 0.  A reflected CRC shifts right and takes the low
 * nibble; the others are kept in the top bits of one byte, shift left and
 * take the high nibble.
 */
struct nibble_crc {
	uint16_t table[16];
	bool reflected;
};

static uint16_t nibble_crc(const struct nibble_crc *c, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint16_t crc = 0;

	while (len--) {
		crc ^= *p++;
		for (int step = 0; step < 2; step++)
			crc = c->reflected ? (uint16_t)((crc >> 4) ^ c->table[crc & 15])
					   : (uint8_t)((crc << 4) ^ c->table[crc >> 4]);
	}
	return crc;
}

static const struct nibble_crc crc16_arc = {
	.table = { 0x0000, 0xcc01, 0xd801, 0x1400, 0xf001, 0x3c00, 0x2800, 0xe401,
		   0xa001, 0x6c00, 0x7800, 0xb401, 0x5000, 0x9c01, 0x8801, 0x4400 },
	.reflected = true,
};

/* CRC-7 kept in the top 7 bits of a byte, so the polynomial is 0x12. */
static const struct nibble_crc crc7_mmc = {
	.table = { 0x00, 0x12, 0x24, 0x36, 0x48, 0x5a, 0x6c, 0x7e,
		   0x90, 0x82, 0xb4, 0xa6, 0xd8, 0xca, 0xfc, 0xee },
};

uint16_t csum_crc16_arc(const void *buf, size_t len)
{
	return nibble_crc(&crc16_arc, buf, len);
}

uint8_t csum_crc7_mmc(const void *buf, size_t len)
{
	return (uint8_t)(nibble_crc(&crc7_mmc, buf, len) >> 1);
}

/* The digest of EVP method @md (MD5, SHA1, SHA3_*) into @out, @size
 * bytes; zeros without libcrypto (csum_open() said why), which no
 * verify takes for a match. */
static void digest(int md, const void *data, size_t len, uint8_t *out,
		   unsigned int size)
{
	unsigned int n;

	if (!crypto_open()) {
		memset(out, 0, size);
		return;
	}
	LAZY_FN(&crypto, digest_fn, FN_DIGEST)(data, len, out, &n,
					     LAZY_FN(&crypto, md_fn, md)(), NULL);
}

/* fio stores SHA-1's five words in host (little-endian) order, not as
 * the big-endian digest. */
static void sha1_fio(const void *data, size_t len, uint8_t *field)
{
	uint8_t d[20];

	digest(FN_SHA1, data, len, d, sizeof(d));
	for (int w = 0; w < 5; w++)
		for (int b = 0; b < 4; b++)
			field[4 * w + b] = d[4 * w + 3 - b];
}

/* fio's sha256 appends the bit length little-endian (SHA-256 has it
 * big-endian), so the state differs from SHA-256's; its 64-byte field is
 * the last padded block with the first 8 bytes replaced by the low byte
 * of each state word. */
static void sha256_fio(const void *data, size_t len, uint8_t *field)
{
	const uint8_t *d = data;
	size_t tail = len % 64, pad = tail < 56 ? 56 - tail : 120 - tail;
	uint8_t padding[128] = { 0x80 };
	uint64_t bits = (uint64_t)len * 8;
	uint8_t le[8];
	SHA256_CTX c;

	memset(&c, 0, sizeof(c));
	for (int i = 0; i < 8; i++)
		le[i] = (uint8_t)(bits >> (8 * i));
	if (crypto_open()) {
		sha256_update_fn *update = LAZY_FN(&crypto, sha256_update_fn, FN_SHA256_UPDATE);

		LAZY_FN(&crypto, sha256_init_fn, FN_SHA256_INIT)(&c);
		update(&c, d, len);
		update(&c, padding, pad);
		update(&c, le, 8);
	}
	/* The last block: the data's tail, padding, then the length. */
	memset(field, 0, 64);
	if (tail < 56) { /* else the tail and 0x80 went in the block before */
		memcpy(field, d + len - tail, tail);
		field[tail] = 0x80;
	}
	memcpy(field + 56, le, 8);
	for (int i = 0; i < 8; i++)
		field[i] = (uint8_t)c.h[i];
}

/* fio 3.33's sha512 never finishes the hash: the field is its 128-byte
 * work buffer after the data went in, i.e. the data's first 128 bytes
 * with the tail (len % 128 bytes) copied over their start. */
static void sha512_fio(const void *data, size_t len, uint8_t *field)
{
	const uint8_t *d = data;
	size_t tail = len % 128;

	if (len < 128) {
		memcpy(field, d, len);
		return;
	}
	memcpy(field, d, 128);
	memcpy(field, d + len - tail, tail);
}

unsigned int csum_field_size(enum verify_mode mode)
{
	switch (mode) {
	case VERIFY_MD5:      return 16;
	case VERIFY_CRC64:    return 8;
	case VERIFY_CRC32:
	case VERIFY_CRC32C:
	case VERIFY_CRC32C_INTEL:
	case VERIFY_XXHASH:   return 4;
	case VERIFY_CRC16:    return 2;
	case VERIFY_CRC7:     return 1;
	case VERIFY_SHA256:   return 64;  /* fio reserves twice the digest */
	case VERIFY_SHA512:   return 128;
	case VERIFY_SHA3_224: return 28;
	case VERIFY_SHA3_256: return 32;
	case VERIFY_SHA3_384: return 48;
	case VERIFY_SHA3_512: return 64;
	case VERIFY_SHA1:     return 20;
	default:              return 0;
	}
}

static void store_le(uint8_t *field, uint64_t v, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		field[i] = (uint8_t)(v >> (8 * i));
}

void csum_compute(enum verify_mode mode, const void *data, size_t len,
		  uint8_t *field)
{
	switch (mode) {
	case VERIFY_CRC32C:
	case VERIFY_CRC32C_INTEL:
		store_le(field, csum_crc32c_raw(data, len), 4); break;
	case VERIFY_CRC32:   store_le(field, csum_crc32_fio(data, len), 4); break;
	case VERIFY_CRC64:   store_le(field, csum_crc64_redis(data, len), 8); break;
	case VERIFY_CRC16:   store_le(field, csum_crc16_arc(data, len), 2); break;
	case VERIFY_CRC7:    field[0] = csum_crc7_mmc(data, len); break;
	case VERIFY_XXHASH:  store_le(field, XXH32(data, len, 1), 4); break;
	case VERIFY_MD5:     digest(FN_MD5, data, len, field, 16); break;
	case VERIFY_SHA1:    sha1_fio(data, len, field); break;
	case VERIFY_SHA256:  sha256_fio(data, len, field); break;
	case VERIFY_SHA512:  sha512_fio(data, len, field); break;
	case VERIFY_SHA3_224: digest(FN_SHA3_224, data, len, field, 28); break;
	case VERIFY_SHA3_256: digest(FN_SHA3_256, data, len, field, 32); break;
	case VERIFY_SHA3_384: digest(FN_SHA3_384, data, len, field, 48); break;
	case VERIFY_SHA3_512: digest(FN_SHA3_512, data, len, field, 64); break;
	default: break;
	}
}
