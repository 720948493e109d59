// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "base/zchunks.h"

void zchunks_init(struct zchunks *zc, size_t chunk_bytes)
{
	memset(zc, 0, sizeof(*zc));
	zc->chunk_bytes = chunk_bytes;
}

static int reserve(unsigned char **buf, size_t *cap, size_t need)
{
	size_t n = *cap ? *cap : 4096;
	unsigned char *p;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	p = realloc(*buf, n);
	if (!p)
		return -ENOMEM;
	*buf = p;
	*cap = n;
	return 0;
}

int zchunks_flush(struct zchunks *zc)
{
	z_stream s = { 0 };
	uLong bound;
	int ret;

	/* an empty store still gets its one (empty) stream: fio's
	 * --inflate-log refuses an empty file */
	if (!zc->raw_len && zc->z_len)
		return 0;
	if (deflateInit(&s, Z_DEFAULT_COMPRESSION) != Z_OK)
		return -ENOMEM;
	bound = deflateBound(&s, zc->raw_len);
	ret = reserve(&zc->z, &zc->z_cap, zc->z_len + bound);
	if (!ret) {
		s.next_in = zc->raw;
		s.avail_in = zc->raw_len;
		s.next_out = zc->z + zc->z_len;
		s.avail_out = bound;
		/* deflateBound leaves room for the whole stream in one call */
		ret = deflate(&s, Z_FINISH) == Z_STREAM_END ? 0 : -EIO;
	}
	if (!ret) {
		zc->z_len += s.total_out;
		if (zc->raw_len > zc->max_stream)
			zc->max_stream = zc->raw_len;
		zc->raw_len = 0;
	}
	deflateEnd(&s);
	return ret;
}

int zchunks_add(struct zchunks *zc, const void *rec, size_t len)
{
	int ret = 0;

	if (zc->raw_len && zc->raw_len + len > zc->chunk_bytes)
		ret = zchunks_flush(zc);
	if (!ret)
		ret = reserve(&zc->raw, &zc->raw_cap, zc->raw_len + len);
	if (ret)
		return ret;
	memcpy(zc->raw + zc->raw_len, rec, len);
	zc->raw_len += len;
	return 0;
}

int zchunks_inflate(const struct zchunks *zc,
		    int (*each)(const void *buf, size_t len, void *arg), void *arg)
{
	unsigned char *out = malloc(zc->max_stream ? zc->max_stream : 1);
	size_t at = 0;
	int ret = out ? 0 : -ENOMEM;

	while (!ret && at < zc->z_len) {
		z_stream s = { 0 };
		int zret;

		if (inflateInit(&s) != Z_OK) {
			ret = -ENOMEM;
			break;
		}
		s.next_in = zc->z + at;
		s.avail_in = zc->z_len - at;
		s.next_out = out;
		s.avail_out = zc->max_stream ? zc->max_stream : 1;
		zret = inflate(&s, Z_FINISH);
		at += s.total_in;
		ret = zret == Z_STREAM_END ? each(out, s.total_out, arg) : -EIO;
		inflateEnd(&s);
	}
	free(out);
	return ret;
}

void zchunks_free(struct zchunks *zc)
{
	free(zc->raw);
	free(zc->z);
	zchunks_init(zc, zc->chunk_bytes);
}
