// SPDX-License-Identifier: GPL-2.0
/*
 * Filling and checking verify blocks, after fio 3.33's verify.c: the data
 * goes in first (seeded random bytes, or verify_pattern), then each
 * interval's header and checksum on top; verify_offset swaps the header
 * with the bytes at that offset.  A check stops at the first bad header,
 * as fio's does, and otherwise looks at every interval unless
 * verify_fatal asks to stop at the first bad one.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "workload/fio_rand.h"
#include "workload/verify.h"

static const char *const mode_names[] = {
	[VERIFY_NONE] = "none",         [VERIFY_META] = "meta",
	[VERIFY_MD5] = "md5",           [VERIFY_CRC64] = "crc64",
	[VERIFY_CRC32] = "crc32",       [VERIFY_CRC32C] = "crc32c",
	[VERIFY_CRC32C_INTEL] = "crc32c-intel",
	[VERIFY_CRC16] = "crc16",       [VERIFY_CRC7] = "crc7",
	[VERIFY_SHA256] = "sha256",     [VERIFY_SHA512] = "sha512",
	[VERIFY_SHA3_224] = "sha3-224", [VERIFY_SHA3_256] = "sha3-256",
	[VERIFY_SHA3_384] = "sha3-384", [VERIFY_SHA3_512] = "sha3-512",
	[VERIFY_XXHASH] = "xxhash",     [VERIFY_SHA1] = "sha1",
	[VERIFY_PATTERN] = "pattern",   [VERIFY_PATTERN_NO_HDR] = "pattern",
	[VERIFY_NULL] = "null",
};

const char *verify_mode_name(enum verify_mode mode)
{
	if ((unsigned int)mode >= sizeof(mode_names) / sizeof(mode_names[0]) ||
	    !mode_names[mode])
		return "unknown";
	return mode_names[mode];
}

unsigned int verify_hdr_size(enum verify_mode mode)
{
	if (mode == VERIFY_PATTERN_NO_HDR)
		return 0;
	return VERIFY_HDR_LEN + csum_field_size(mode);
}

static bool is_checksum(enum verify_mode mode)
{
	return csum_field_size(mode) != 0;
}

/* fio's get_hdr_inc: a block shorter than the interval is one interval. */
static uint32_t hdr_inc(const struct verify_spec *s, const struct verify_io *io)
{
	return s->interval && s->interval <= io->len ? s->interval : io->len;
}

static void swap_bytes(uint8_t *a, uint8_t *b, size_t n)
{
	uint8_t t[VERIFY_HDR_LEN + CSUM_FIELD_MAX];

	memcpy(t, a, n);
	memcpy(a, b, n);
	memcpy(b, t, n);
}

static void put_header(const struct verify_spec *s, uint8_t *p,
		       const struct verify_io *io, uint32_t index, uint32_t inc)
{
	struct verify_hdr h = {
		.magic = VERIFY_HDR_MAGIC,
		.verify_type = (uint16_t)s->mode,
		.len = inc,
		.rand_seed = io->seed,
		.offset = io->offset + (uint64_t)index * s->interval,
		.time_sec = (uint32_t)(io->time_ns / 1000000000ull),
		.time_nsec = (uint32_t)(io->time_ns % 1000000000ull),
		.thread = s->thread,
		.numberio = io->numberio,
	};

	h.crc32 = csum_crc32c_raw(&h, offsetof(struct verify_hdr, crc32));
	memcpy(p, &h, sizeof(h));
}

void verify_fill(const struct verify_spec *s, void *buf,
		 const struct verify_io *io)
{
	uint32_t inc = hdr_inc(s, io);
	unsigned int hsz = verify_hdr_size(s->mode);
	uint8_t *b = buf;

	if (s->pattern && s->pattern->len)
		pattern_spread(s->pattern, b, io->len, io->offset);
	else if (s->mode != VERIFY_NULL)
		frand_fill_compressible(b, io->len, io->seed, s->compress_pct,
					io->len, s->buffer_pattern);
	if (s->mode == VERIFY_NULL || !hsz)
		return;
	for (uint32_t i = 0, at = 0; at < io->len; i++, at += inc) {
		uint8_t *p = b + at;

		put_header(s, p, io, i, inc);
		if (is_checksum(s->mode))
			csum_compute(s->mode, p + hsz, inc - hsz,
				     p + VERIFY_HDR_LEN);
		if (s->hdr_offset)
			swap_bytes(p, p + s->hdr_offset, hsz);
	}
}

static int header_fault(struct verify_failure *f, enum verify_fault fault,
			uint64_t want, uint64_t got)
{
	f->fault = fault;
	f->want = want;
	f->got = got;
	return -EILSEQ;
}

static int check_header(const struct verify_spec *s, const uint8_t *p,
			const struct verify_io *io, uint32_t i, uint32_t inc,
			struct verify_failure *f)
{
	struct verify_hdr h;
	uint32_t crc;

	memcpy(&h, p, sizeof(h));
	f->media_type = h.verify_type;
	f->hdr_seed = h.rand_seed;
	if (h.magic != VERIFY_HDR_MAGIC)
		return header_fault(f, VF_MAGIC, VERIFY_HDR_MAGIC, h.magic);
	if (h.len != inc)
		return header_fault(f, VF_LEN, inc, h.len);
	if (s->check_seed && h.rand_seed != io->seed)
		return header_fault(f, VF_SEED, io->seed, h.rand_seed);
	if (h.offset != io->offset + (uint64_t)i * s->interval)
		return header_fault(f, VF_OFFSET,
				    io->offset + (uint64_t)i * s->interval, h.offset);
	if (s->check_numberio && h.numberio != io->numberio)
		return header_fault(f, VF_NUMBERIO, io->numberio, h.numberio);
	crc = csum_crc32c_raw(p, offsetof(struct verify_hdr, crc32));
	if (crc != h.crc32) /* fio: "bad header crc STORED, calculated NEW" */
		return header_fault(f, VF_HDR_CRC, crc, h.crc32);
	return 0;
}

/* The header size of the method the header names, which fio uses to find
 * the data even when the job asks for another method. */
static unsigned int media_hdr_size(const struct verify_spec *s, const uint8_t *p)
{
	struct verify_hdr h;

	memcpy(&h, p, sizeof(h));
	if (h.verify_type != s->mode && h.verify_type <= VERIFY_SHA1 &&
	    h.verify_type != VERIFY_NONE)
		return verify_hdr_size((enum verify_mode)h.verify_type);
	return verify_hdr_size(s->mode);
}

static int check_sum(const struct verify_spec *s, const uint8_t *p,
		     uint32_t inc, struct verify_failure *f)
{
	unsigned int n = csum_field_size(s->mode);
	unsigned int hsz = media_hdr_size(s, p);
	uint8_t got[CSUM_FIELD_MAX] = { 0 };

	if (hsz >= inc)
		hsz = verify_hdr_size(s->mode);
	if (s->mode == VERIFY_SHA512 && inc - hsz < CSUM_FIELD_MAX)
		memcpy(got, p + VERIFY_HDR_LEN, n); /* fio leaves the rest */
	csum_compute(s->mode, p + hsz, inc - hsz, got);
	if (!memcmp(got, p + VERIFY_HDR_LEN, n))
		return 0;
	f->fault = VF_SUM;
	memcpy(f->want_sum, p + VERIFY_HDR_LEN, n);
	memcpy(f->got_sum, got, n);
	return -EILSEQ;
}

static int check_pattern(const struct verify_spec *s, const uint8_t *p,
			 const struct verify_io *io, uint32_t i, uint32_t inc,
			 struct verify_failure *f)
{
	unsigned int hsz = verify_hdr_size(s->mode);
	size_t phase = ((size_t)inc * i + hsz) % s->pattern->len;
	uint8_t want;
	long bad = pattern_find_diff(s->pattern, p + hsz, inc - hsz, phase,
				    io->offset, &want);

	if (bad < 0)
		return 0;
	f->fault = VF_PATTERN;
	f->pos = (uint32_t)bad + hsz;
	f->want_byte = want;
	f->got_byte = p[hsz + bad];
	return -EILSEQ;
}

static int check_body(const struct verify_spec *s, const uint8_t *p,
		      const struct verify_io *io, uint32_t i, uint32_t inc,
		      struct verify_failure *f)
{
	bool has_pattern = s->pattern && s->pattern->len;

	switch (s->mode) {
	case VERIFY_META:
		return has_pattern ? check_pattern(s, p, io, i, inc, f) : 0;
	case VERIFY_PATTERN:
	case VERIFY_PATTERN_NO_HDR:
		return has_pattern ? check_pattern(s, p, io, i, inc, f) : 0;
	default:
		return is_checksum(s->mode) ? check_sum(s, p, inc, f) : 0;
	}
}

/* The verify_type and len a header at @p would hold (fio's hdr fields,
 * which its logs read even where no header was written). */
static void media_fields(const uint8_t *p, uint32_t inc, struct verify_failure *f)
{
	struct verify_hdr h = { 0 };

	memcpy(&h, p, inc < sizeof(h) ? inc : sizeof(h));
	f->media_type = h.verify_type;
	f->media_len = h.len;
}

int verify_check(const struct verify_spec *s, void *buf,
		 const struct verify_io *io, struct verify_failure *f)
{
	uint32_t inc = hdr_inc(s, io);
	unsigned int hsz = verify_hdr_size(s->mode);
	struct verify_failure cur;
	uint8_t *b = buf;
	int ret = 0;

	f->fault = VF_NONE;
	if (s->mode == VERIFY_NULL)
		return 0;
	for (uint32_t i = 0, at = 0; at < io->len; i++, at += inc) {
		uint8_t *p = b + at;
		int r = 0;

		if (ret && s->fatal)
			break;
		cur.fault = VF_NONE;
		cur.interval_index = i;
		cur.at = io->offset + at;
		cur.len = inc;
		if (s->hdr_offset && hsz)
			swap_bytes(p, p + s->hdr_offset, hsz);
		media_fields(p, inc, &cur);
		if (s->mode != VERIFY_PATTERN_NO_HDR)
			r = check_header(s, p, io, i, inc, &cur);
		if (r) {
			if (!ret)
				*f = cur;
			return r;
		}
		r = check_body(s, p, io, i, inc, &cur);
		if (r && !ret) {
			*f = cur;
			ret = r;
		}
	}
	return ret;
}

/* A checksum field for a message, its bytes in stored order as fio's
 * hexdump shows them, cut after @max bytes (12 fit the job's error line). */
static void sum_text(enum verify_mode mode, const uint8_t *field,
		     unsigned int max, char *out, size_t len)
{
	unsigned int n = csum_field_size(mode);
	size_t at = 0;

	out[0] = '\0';
	for (unsigned int i = 0; i < n && i < max && at + 3 < len; i++)
		at += (size_t)snprintf(out + at, len - at, "%02x", field[i]);
	if (n > max && at + 4 < len)
		snprintf(out + at, len - at, "...");
}

static int popcount8(uint8_t v)
{
	return __builtin_popcount(v);
}

void verify_failure_describe(const struct verify_spec *s,
			     const struct verify_failure *f, const char *path,
			     const struct verify_io *io, char *buf, size_t len)
{
	static const char *const field[] = {
		[VF_MAGIC] = "magic header", [VF_LEN] = "header length",
		[VF_SEED] = "header rand_seed", [VF_OFFSET] = "header offset",
		[VF_NUMBERIO] = "header numberio", [VF_HDR_CRC] = "header crc",
	};
	char where[160], want[48], got[48];

	snprintf(where, sizeof(where), "at file %s offset %llu, length %u "
		 "(requested block: offset=%llu, length=%u)", path,
		 (unsigned long long)f->at, f->len,
		 (unsigned long long)io->offset, io->len);
	if (f->fault == VF_SUM) {
		sum_text(s->mode, f->want_sum, 12, want, sizeof(want));
		sum_text(s->mode, f->got_sum, 12, got, sizeof(got));
		snprintf(buf, len, "%s: verify failed %s: expected %s, received %s%s",
			 verify_mode_name(s->mode), where, want, got,
			 f->media_type != s->mode ? " (the block has another "
			 "verify type)" : "");
	} else if (f->fault == VF_PATTERN) {
		snprintf(buf, len, "pattern: verify failed %s: got %02x, wanted %02x "
			 "at block offset %u (%d bad bits)", where, f->got_byte,
			 f->want_byte, f->pos,
			 popcount8((uint8_t)(f->got_byte ^ f->want_byte)));
	} else if (f->fault == VF_HDR_CRC || f->fault == VF_MAGIC) {
		snprintf(buf, len, "verify: bad %s %llx, %s %llx %s",
			 field[f->fault], (unsigned long long)f->got,
			 f->fault == VF_MAGIC ? "wanted" : "calculated",
			 (unsigned long long)f->want, where);
	} else {
		snprintf(buf, len, "verify: bad %s %llu, wanted %llu %s",
			 field[f->fault], (unsigned long long)f->got,
			 (unsigned long long)f->want, where);
	}
}

/* fio's log of a bad block, as its verify code writes it to stderr for
 * each block it finds bad: a header fault on one line, the same as the
 * summary; a checksum mismatch as three, with the io_u's flags, which
 * for a read of the verify list are IO_U_F_VER_LIST | IO_U_F_IN_CUR_DEPTH
 * (0x88) whatever the engine. */
void verify_failure_log_text(const struct verify_spec *s,
			     const struct verify_failure *f, const char *path,
			     const struct verify_io *io, char *buf, size_t len)
{
	char want[160], got[160];
	int n;

	if (f->fault == VF_SUM) {
		sum_text(s->mode, f->want_sum, UINT_MAX, want, sizeof(want));
		sum_text(s->mode, f->got_sum, UINT_MAX, got, sizeof(got));
		n = snprintf(buf, len, "%s: verify failed at file %s offset %llu, length %u "
			     "(requested block: offset=%llu, length=%u, flags=88)\n"
			     "       Expected CRC: %s\n       Received CRC: %s",
			     verify_mode_name(s->mode), path, (unsigned long long)f->at,
			     f->len, (unsigned long long)io->offset, io->len, want, got);
	} else if (f->fault == VF_PATTERN) {
		/* fio's verify_io_u_pattern: the byte, then its log_verify_failure,
		 * whose offset and length come from the header fields the
		 * interval's first bytes would be (its 32-bit product) */
		n = snprintf(buf, len, "fio: got pattern '%02x', wanted '%02x'. Bad bits %d\n"
			     "fio: bad pattern block offset %u\n"
			     "pattern: verify failed at file %s offset %llu, length %u "
			     "(requested block: offset=%llu, length=%u, flags=88)",
			     f->got_byte, f->want_byte,
			     popcount8((uint8_t)(f->got_byte ^ f->want_byte)),
			     f->pos - verify_hdr_size(s->mode), path,
			     (unsigned long long)(io->offset +
						  (uint32_t)(f->interval_index * f->media_len)),
			     f->media_len, (unsigned long long)io->offset, io->len);
	} else {
		verify_failure_describe(s, f, path, io, buf, len);
		return;
	}
	/* after a bad checksum or pattern, fio 3.33 names a header's other
	 * method, verify=pattern's none included */
	if (f->media_type != s->mode && n >= 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "\nfio: verify type mismatch (%u media, %u given)",
			 f->media_type, s->mode);
}
