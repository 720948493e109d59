// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/read_whole.h"

int read_whole(int fd, size_t max, char **out, size_t *len)
{
	size_t cap = 0, used = 0;
	char *buf = NULL;
	int ret = 0;

	for (;;) {
		/* Room for one byte more at least, the NUL included. */
		char *p = grow_for_one(buf, &cap, used, 1, 64 << 10);
		ssize_t n;

		if (!p) {
			ret = -ENOMEM;
			break;
		}
		buf = p;
		n = read(fd, buf + used, cap - used);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : 0;
			break;
		}
		used += (size_t)n;
		if (used > max) {
			ret = -EFBIG;
			break;
		}
	}
	if (ret) {
		free(buf);
		return ret;
	}
	buf[used] = '\0';
	*out = buf;
	*len = used;
	return 0;
}
