// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "workload/verify.h"

/* CRC-32C (Castagnoli), reflected polynomial 0x82f63b78, bitwise per byte
 * through a nibble table: small, and fast enough next to the I/O it checks. */
static const uint32_t crc32c_nibble[16] = {
	0x00000000, 0x105ec76f, 0x20bd8ede, 0x30e349b1,
	0x417b1dbc, 0x5125dad3, 0x61c69362, 0x7198540d,
	0x82f63b78, 0x92a8fc17, 0xa24bb5a6, 0xb21572c9,
	0xc38d26c4, 0xd3d3e1ab, 0xe330a81a, 0xf36e6f75,
};

uint32_t crc32c(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ crc32c_nibble[crc & 15];
		crc = (crc >> 4) ^ crc32c_nibble[crc & 15];
	}
	return ~crc;
}

void verify_fill(void *buf, uint32_t len, uint64_t offset, struct rng *r)
{
	struct verify_header h = { .magic = VERIFY_MAGIC, .offset = offset,
				   .len = len };
	uint8_t *p = buf;
	size_t i;

	for (i = sizeof(h); i + 8 <= len; i += 8) {
		uint64_t v = rng_next(r);

		memcpy(p + i, &v, 8);
	}
	for (; i < len; i++)
		p[i] = (uint8_t)rng_next(r);
	h.crc = crc32c(0, p + sizeof(h), len - sizeof(h));
	memcpy(p, &h, sizeof(h));
}

int verify_check(const void *buf, uint32_t len, uint64_t offset, char *why,
		 size_t why_len)
{
	struct verify_header h;
	uint32_t crc;

	memcpy(&h, buf, sizeof(h));
	if (h.magic != VERIFY_MAGIC) {
		snprintf(why, why_len, "offset %llu: no verify header (magic %#llx)",
			 (unsigned long long)offset, (unsigned long long)h.magic);
		return -EILSEQ;
	}
	if (h.offset != offset || h.len != len) {
		snprintf(why, why_len,
			 "offset %llu: block claims offset %llu length %u",
			 (unsigned long long)offset,
			 (unsigned long long)h.offset, h.len);
		return -EILSEQ;
	}
	crc = crc32c(0, (const uint8_t *)buf + sizeof(h), len - sizeof(h));
	if (crc != h.crc) {
		snprintf(why, why_len,
			 "offset %llu: crc32c %08x, expected %08x",
			 (unsigned long long)offset, crc, h.crc);
		return -EILSEQ;
	}
	return 0;
}
