/* SPDX-License-Identifier: GPL-2.0 */
/* Reading an open file to its end, whatever size it reports (/proc). */
#ifndef IODIG_READ_WHOLE_H
#define IODIG_READ_WHOLE_H

#include <stddef.h>

/*
 * Reads @fd to its end into a new buffer, *@out (free() it), *@len bytes
 * followed by a NUL.  0, -EFBIG past @max bytes, -ENOMEM, or the read's
 * -errno; *@out is left alone on failure.
 */
int read_whole(int fd, size_t max, char **out, size_t *len);

#endif /* IODIG_READ_WHOLE_H */
