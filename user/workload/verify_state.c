// SPDX-License-Identifier: GPL-2.0
/*
 * fio 3.33's verify state file, field by field (little-endian): a header
 * {version 3, size, crc32c of the rest}, then {completions, depth, files,
 * writes issued, index, offset generator state (56 bytes), name (64
 * bytes)} and per completion {file number, offset}.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload/checksums.h"
#include "workload/verify_state.h"

#define VSTATE_VERSION 3
#define VSTATE_HDR_LEN 24
#define VSTATE_RAND_LEN 56
#define VSTATE_LIST_LEN (8 + 4 + 4 + 8 + 8 + VSTATE_RAND_LEN + VSTATE_NAME_LEN)
#define VSTATE_COMP_LEN 16

void verify_state_path(const char *name, uint64_t index, char *buf, size_t len)
{
	snprintf(buf, len, "local-%s-%llu-verify.state", name,
		 (unsigned long long)index);
}

static uint8_t *put(uint8_t *p, uint64_t v, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++)
		p[i] = (uint8_t)(v >> (8 * i));
	return p + n;
}

static uint64_t get(const uint8_t *p, unsigned int n)
{
	uint64_t v = 0;

	for (unsigned int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

/* Writes (@writing) or reads all @n bytes at @b: 0, or -errno (-EIO
 * when the file ends first). */
static int transfer_all(int fd, uint8_t *b, size_t n, bool writing)
{
	while (n) {
		ssize_t done = writing ? write(fd, b, n) : read(fd, b, n);

		if (done <= 0)
			return done < 0 ? -errno : -EIO;
		b += done;
		n -= (size_t)done;
	}
	return 0;
}

int verify_state_save(const struct verify_state *s, struct errbuf *err)
{
	size_t size = VSTATE_LIST_LEN + (size_t)s->nr_comps * VSTATE_COMP_LEN;
	uint8_t *buf = calloc(1, VSTATE_HDR_LEN + size), *p;
	char path[VSTATE_NAME_LEN + 64];
	int fd, ret;

	if (!buf)
		return err_set(err, ENOMEM, "no memory for the verify state");
	p = put(buf + VSTATE_HDR_LEN, s->nr_comps, 8);
	p = put(p, s->depth, 4);
	p = put(p, 1, 4);            /* one file */
	p = put(p, s->numberio, 8);
	p = put(p, s->index, 8);
	p += VSTATE_RAND_LEN;        /* fio's offset generator: not ours */
	memcpy(p, s->name, strnlen(s->name, VSTATE_NAME_LEN - 1));
	p += VSTATE_NAME_LEN;
	for (uint32_t i = 0; i < s->nr_comps; i++) {
		p = put(p, 0, 8);
		p = put(p, s->comps[i], 8);
	}
	p = put(buf, VSTATE_VERSION, 8);
	p = put(p, size, 8);
	put(p, csum_crc32c_raw(buf + VSTATE_HDR_LEN, size), 8);
	verify_state_path(s->name, s->index, path, sizeof(path));
	fd = open(path, O_CREAT | O_TRUNC | O_WRONLY | O_SYNC | O_CLOEXEC, 0644);
	ret = fd < 0 ? -errno : transfer_all(fd, buf, VSTATE_HDR_LEN + size, true);
	if (fd >= 0)
		close(fd);
	free(buf);
	if (ret)
		return err_set(err, -ret, "cannot write verify state file %s: %s",
			       path, strerror(-ret));
	return 0;
}

static int parse_list(struct verify_state *s, const uint8_t *p, size_t size,
		      const char *path, struct errbuf *err)
{
	uint64_t n = get(p, 8);

	if (size < VSTATE_LIST_LEN || (size - VSTATE_LIST_LEN) / VSTATE_COMP_LEN < n)
		return err_set(err, EINVAL, "verify state file %s: %llu completions "
			       "do not fit its %zu bytes", path,
			       (unsigned long long)n, size);
	s->nr_comps = (uint32_t)n;
	s->depth = (uint32_t)get(p + 8, 4);
	s->numberio = get(p + 16, 8);
	s->index = get(p + 24, 8);
	memcpy(s->name, p + 32 + VSTATE_RAND_LEN, VSTATE_NAME_LEN);
	s->name[VSTATE_NAME_LEN - 1] = '\0';
	s->comps = calloc(n ? n : 1, sizeof(*s->comps));
	if (!s->comps)
		return err_set(err, ENOMEM, "no memory for verify state %s", path);
	for (uint64_t i = 0; i < n; i++)
		s->comps[i] = get(p + VSTATE_LIST_LEN + i * VSTATE_COMP_LEN + 8, 8);
	return 0;
}

/* Reads the header and the rest of an open state file into *@list. */
static int read_state(int fd, const char *path, uint8_t **list, size_t *size,
		      struct errbuf *err)
{
	uint8_t hdr[VSTATE_HDR_LEN];
	uint64_t n;

	if (transfer_all(fd, hdr, sizeof(hdr), false))
		return err_set(err, EIO, "cannot read verify state file %s", path);
	if (get(hdr, 8) != VSTATE_VERSION)
		return err_set(err, EINVAL, "verify state file %s is version %llu, "
			       "not fio 3.33's %d", path,
			       (unsigned long long)get(hdr, 8), VSTATE_VERSION);
	n = get(hdr + 8, 8);
	if (n < VSTATE_LIST_LEN || n > (64u << 20))
		return err_set(err, EINVAL, "verify state file %s: bad size %llu",
			       path, (unsigned long long)n);
	*list = malloc(n);
	if (!*list)
		return err_set(err, ENOMEM, "no memory for verify state %s", path);
	*size = n;
	if (transfer_all(fd, *list, n, false))
		return err_set(err, EIO, "verify state file %s is truncated", path);
	if (csum_crc32c_raw(*list, n) != get(hdr + 16, 8))
		return err_set(err, EINVAL, "verify state file %s is corrupt "
			       "(crc32c differs)", path);
	return 0;
}

int verify_state_load(struct verify_state *s, const char *name,
		      uint64_t index, struct errbuf *err)
{
	char path[VSTATE_NAME_LEN + 64];
	uint8_t *list = NULL;
	size_t size = 0;
	int fd, ret;

	memset(s, 0, sizeof(*s));
	verify_state_path(name, index, path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return err_set(err, errno, "cannot open verify state file %s: %s",
			       path, strerror(errno));
	ret = read_state(fd, path, &list, &size, err);
	if (!ret)
		ret = parse_list(s, list, size, path, err);
	free(list);
	close(fd);
	return ret;
}

bool verify_state_should_stop(const struct verify_state *s,
			      uint64_t reads_done, uint64_t offset)
{
	/* Not yet within the last iodepth writes: all of these completed. */
	if ((reads_done < s->depth || s->numberio - reads_done > s->depth) &&
	    s->numberio > s->depth)
		return false;
	/* Within them: only those seen completed. */
	for (uint32_t i = 0; i < s->nr_comps; i++)
		if (s->comps[i] == offset)
			return false;
	return true;
}
