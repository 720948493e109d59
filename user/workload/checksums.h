/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The checksum of each verify= method, bit for bit as fio 3.33 stores it
 * after the block header, so that fio verifies what iodig wrote and iodig
 * what fio wrote.  Several differ from the published algorithm of the same
 * name; checksums.c says how at each one.
 */
#ifndef IODIG_CHECKSUMS_H
#define IODIG_CHECKSUMS_H

#include <stddef.h>
#include <stdint.h>

#include "base/errbuf.h"
#include "workload/job.h"

#define CSUM_FIELD_MAX 128 /* the largest field: fio's sha512 */

/* Bytes of @mode's field after the 40-byte header; 0 for the methods
 * that store none (meta, pattern, null). */
unsigned int csum_field_size(enum verify_mode mode);

/* Opens what @mode's checksum needs (libcrypto, for md5, sha1, sha256 and
 * sha3); 0, or -errno naming @where and the reason. */
int csum_open(enum verify_mode mode, const char *where, struct errbuf *err);

/* Computes @mode's field over @data into @field (csum_field_size bytes).
 * @field is written, never read, except for sha512 over fewer than 128
 * bytes, where fio leaves the rest of the field as it was. */
void csum_compute(enum verify_mode mode, const void *data, size_t len,
		  uint8_t *field);

/* CRC-32C (Castagnoli) without the final inversion, as fio's crc32c and
 * its header checksum: the standard CRC-32C is its complement. */
uint32_t csum_crc32c_raw(const void *buf, size_t len);
/* CRC-32/CKSUM's register without the final inversion (poly 0x04C11DB7,
 * not reflected, init 0): fio's crc32. */
uint32_t csum_crc32_fio(const void *buf, size_t len);
/* CRC-64/REDIS (Jones polynomial, reflected, init 0, no final xor). */
uint64_t csum_crc64_redis(const void *buf, size_t len);
/* CRC-16/ARC (poly 0x8005 reflected, init 0). */
uint16_t csum_crc16_arc(const void *buf, size_t len);
/* CRC-7/MMC (poly 0x09, init 0), in the low 7 bits. */
uint8_t csum_crc7_mmc(const void *buf, size_t len);

#endif /* IODIG_CHECKSUMS_H */
