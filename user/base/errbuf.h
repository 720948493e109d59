/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Error messages travel up with the error code: a helper that fails fills an
 * errbuf with one sentence (what, where, why) and returns -errno; only main
 * prints it.
 */
#ifndef IODIG_ERRBUF_H
#define IODIG_ERRBUF_H

#include <stddef.h>

#define ERRBUF_LEN 512

struct errbuf {
	char msg[ERRBUF_LEN];
};

/* Formats the message and returns -errnum (errnum > 0), or -EINVAL when
 * errnum is 0, so callers can write `return err_set(err, ENOENT, ...)`. */
int err_set(struct errbuf *err, int errnum, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* IODIG_ERRBUF_H */
