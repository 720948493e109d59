/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Records kept zlib-compressed in chunks, as fio keeps its logs with
 * log_compression: records are gathered raw until the next would take
 * the chunk past its size, then the chunk becomes one zlib stream (zlib
 * header, default level) appended to the others.  A record never spans
 * two streams, so each stream inflates to whole records, which is what
 * fio's --inflate-log expects of its .fz files: the streams back to back.
 */
#ifndef IODIG_ZCHUNKS_H
#define IODIG_ZCHUNKS_H

#include <stddef.h>

struct zchunks {
	size_t chunk_bytes;   /* raw bytes per stream (a bigger record alone) */
	unsigned char *raw;   /* the records not compressed yet */
	size_t raw_len, raw_cap;
	size_t max_stream;    /* the most raw bytes one stream holds */
	unsigned char *z;     /* the streams, back to back */
	size_t z_len, z_cap;
};

/* An empty store whose streams hold @chunk_bytes of records each. */
void zchunks_init(struct zchunks *zc, size_t chunk_bytes);
/* Appends the record @rec of @len bytes; 0 or -errno (-ENOMEM, -EIO for
 * a zlib error). */
int zchunks_add(struct zchunks *zc, const void *rec, size_t len);
/* Compresses the records still raw into a last stream (an empty stream
 * when the store has none at all); 0 or -errno. */
int zchunks_flush(struct zchunks *zc);
/* Calls @each with the records of every stream in order, inflated; stops
 * at the first non-zero return of @each and returns it; 0 or -errno. */
int zchunks_inflate(const struct zchunks *zc,
		    int (*each)(const void *buf, size_t len, void *arg), void *arg);
/* Frees both buffers; the store is empty after. */
void zchunks_free(struct zchunks *zc);

#endif /* IODIG_ZCHUNKS_H */
