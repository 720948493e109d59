/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bytes added at the end of a file that several processes add to, each
 * of their additions whole: the writers take turns under an exclusive
 * flock, so one's bytes never land between another's.
 */
#ifndef IODIG_APPEND_FILE_H
#define IODIG_APPEND_FILE_H

#include <stddef.h>

/* @len bytes of @buf at the end of @path, made (mode 0644) if it is not
 * there; 0 or -errno. */
int append_file_locked(const char *path, const void *buf, size_t len);

#endif /* IODIG_APPEND_FILE_H */
