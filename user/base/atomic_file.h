/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A file that appears complete or not at all: written unnamed (O_TMPFILE,
 * or a named temp file where the filesystem has none), given its name by
 * rename only once complete, so an error, Ctrl-C or SIGKILL never leaves
 * a half-written file under the name.  A path that names something other
 * than a regular file (/dev/null, /dev/stdout, a FIFO) is written in
 * place: renaming over it would replace the device with a file.
 */
#ifndef IODIG_ATOMIC_FILE_H
#define IODIG_ATOMIC_FILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

struct atomic_file {
	int fd;                     /* -1: closed */
	bool named;                 /* tmp exists on disk */
	bool in_place;              /* fd is @path itself, not a regular file */
	char path[PATH_MAX];
	char tmp[PATH_MAX + 64];
};

/* Creates the unnamed file in @path's directory; 0 or -errno. */
int atomic_file_open(struct atomic_file *af, const char *path);
/* Gives it @path (fsync first when @sync), replacing what was there;
 * 0 or -errno, and on error nothing is left.  Closes the file. */
int atomic_file_commit(struct atomic_file *af, bool sync);
/* Closes and removes it; safe on a closed one. */
void atomic_file_abort(struct atomic_file *af);

/* write(2) until all of @buf is written; 0 or -errno (-EIO for a write
 * that wrote nothing). */
int fd_write_all(int fd, const void *buf, size_t len);
/* @path holding @len bytes of @buf, atomically; 0 or -errno. */
int atomic_file_write(const char *path, const void *buf, size_t len);

#endif /* IODIG_ATOMIC_FILE_H */
