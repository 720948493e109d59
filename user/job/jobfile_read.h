/* SPDX-License-Identifier: GPL-2.0 */
/* Reading job files, and resolving fio's include directive. */
#ifndef IODIG_JOBFILE_READ_H
#define IODIG_JOBFILE_READ_H

#include <stddef.h>
#include <sys/stat.h>

/* Bounds for hostile input (the parser is fuzzed): a job file is text a
 * person wrote, so this is far above anything real. */
#define JOBFILE_MAX_BYTES (16u << 20)

/* Reads all of @path into a malloc()ed *@out; -errno, -EFBIG for a file
 * larger than JOBFILE_MAX_BYTES, -EISDIR for a directory.  @sb receives
 * its fstat. */
int read_text(const char *path, char **out, size_t *out_len, struct stat *sb);

/* The reason read_text()'s @ret gives, for a message. */
const char *read_error(int ret);

/* fio: an include path is taken as given when it exists from the current
 * directory, else relative to the directory of @including. */
void include_path(const char *including, const char *arg, char *out,
		  size_t len);

#endif /* IODIG_JOBFILE_READ_H */
