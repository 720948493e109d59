// SPDX-License-Identifier: GPL-2.0
/*
 * fio's pattern syntax (HOWTO: buffer_pattern, verify_pattern), parsed the
 * way fio 3.33 parses it so that a job file means the same bytes here:
 * pieces follow each other without separators, a decimal number ends where
 * a "0x" starts (-100xab is -10 then 0xab), and a hex run gives up its last
 * '0' when an "x" follows it (0xff0x14 is ff then 14).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "workload/pattern.h"

struct pat_parse {
	struct pattern *p;
	const char *where;
	const char *what;
	struct errbuf *err;
	int ret;
};

static int room_error(struct pat_parse *ps)
{
	return ps->ret = err_set(ps->err, EINVAL, "%s: option '%s': the pattern is "
				 "longer than %d bytes", ps->where, ps->what, PATTERN_MAX);
}

/* 'file': as much of the file as fits. */
static const char *parse_file(struct pat_parse *ps, const char *s)
{
	const char *end = strchr(s + 1, '\'');
	char path[PATH_MAX];
	size_t room = PATTERN_MAX - ps->p->len;
	ssize_t n = 0, got;
	int fd;

	if (!end || (size_t)(end - s - 1) >= sizeof(path)) {
		ps->ret = err_set(ps->err, EINVAL, "%s: option '%s': a 'file' has no closing quote",
			ps->where, ps->what);
		return NULL;
	}
	memcpy(path, s + 1, (size_t)(end - s - 1));
	path[end - s - 1] = '\0';
	/* non-blocking: a pipe or terminal named here must not hang parsing */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) {
		ps->ret = err_set(ps->err, errno, "%s: option '%s': cannot open pattern file %s: %s",
			ps->where, ps->what, path, strerror(errno));
		return NULL;
	}
	while ((size_t)n < room && (got = read(fd, ps->p->bytes + ps->p->len + n,
					      room - (size_t)n)) > 0)
		n += got;
	close(fd);
	if (n <= 0) {
		ps->ret = err_set(ps->err, EINVAL, "%s: option '%s': pattern file %s is empty or "
			"unreadable", ps->where, ps->what, path);
		return NULL;
	}
	ps->p->len += (uint16_t)n;
	return end + 1;
}

/* "text", no escapes, as fio. */
static const char *parse_string(struct pat_parse *ps, const char *s)
{
	const char *end = strchr(s + 1, '"');
	size_t n;

	if (!end) {
		ps->ret = err_set(ps->err, EINVAL, "%s: option '%s': a \"string\" has no closing "
			"quote", ps->where, ps->what);
		return NULL;
	}
	n = (size_t)(end - s - 1);
	if (!n) {
		ps->ret = err_set(ps->err, EINVAL, "%s: option '%s': an empty \"\" string", ps->where, ps->what);
		return NULL;
	}
	if (n > (size_t)(PATTERN_MAX - ps->p->len)) {
		room_error(ps);
		return NULL;
	}
	memcpy(ps->p->bytes + ps->p->len, s + 1, n);
	ps->p->len += (uint16_t)n;
	return end + 1;
}

static const char *parse_offset_format(struct pat_parse *ps, const char *s,
				       bool allow)
{
	struct pattern *p = ps->p;

	if (!allow || strncmp(s, "%o", 2)) {
		ps->ret = err_set(ps->err, EINVAL, "%s: option '%s': '%.8s' is not a format it "
			"takes%s", ps->where, ps->what, s, allow ? " (only %o, the block offset)" :
			" (formats are for verify_pattern)");
		return NULL;
	}
	if (p->nr_offsets == PATTERN_FMT_MAX) {
		ps->ret = err_set(ps->err, EINVAL, "%s: option '%s': more than %d %%o formats",
			ps->where, ps->what, PATTERN_FMT_MAX);
		return NULL;
	}
	if (PATTERN_MAX - p->len < PATTERN_OFF_LEN) {
		room_error(ps);
		return NULL;
	}
	p->offset_at[p->nr_offsets++] = p->len;
	memset(p->bytes + p->len, 0, PATTERN_OFF_LEN);
	p->len += PATTERN_OFF_LEN;
	return s + 2;
}

static int hexval(char c)
{
	return isdigit((unsigned char)c) ? c - '0' : tolower((unsigned char)c) - 'a' + 10;
}

/* 0x...: bytes in the order written; an odd count makes the first byte
 * of one digit. */
static const char *parse_hex(struct pat_parse *ps, const char *s)
{
	const char *d = s + 2;
	size_t n = 0, bytes;

	while (isxdigit((unsigned char)d[n]))
		n++;
	if (n && (d[n] == 'x' || d[n] == 'X') && d[n - 1] == '0')
		n--; /* that '0' starts the next 0x */
	if (!n) {
		ps->ret = err_set(ps->err, EINVAL, "%s: option '%s': '%.8s' has no hex digits",
			ps->where, ps->what, s);
		return NULL;
	}
	bytes = (n + 1) / 2;
	if (bytes > (size_t)(PATTERN_MAX - ps->p->len)) {
		room_error(ps);
		return NULL;
	}
	for (size_t i = 0; i < n;) {
		int v = hexval(d[i++]);

		if ((n - i) % 2)
			v = v * 16 + hexval(d[i++]);
		ps->p->bytes[ps->p->len++] = (uint8_t)v;
	}
	return d + n;
}

/* A decimal number, which stops where a "0x" begins. */
static const char *parse_decimal(struct pat_parse *ps, const char *s)
{
	const char *hex = strcasestr(s, "0x");
	char num[32], *end;
	size_t n = hex && hex > s ? (size_t)(hex - s) : strlen(s);
	long v;

	if (n >= sizeof(num))
		n = sizeof(num) - 1;
	memcpy(num, s, n);
	num[n] = '\0';
	errno = 0;
	v = strtol(num, &end, 10);
	if (end == num || errno || v > INT_MAX || v < INT_MIN) {
		ps->ret = err_set(ps->err, EINVAL, "%s: option '%s': '%.16s' is not a number, "
			"0x hex, \"string\", 'file'%s", ps->where, ps->what, s,
			ps->p->nr_offsets || strchr(s, '%') ? " or %o" : "");
		return NULL;
	}
	if (!v) {
		if (ps->p->len == PATTERN_MAX) {
			room_error(ps);
			return NULL;
		}
		ps->p->bytes[ps->p->len++] = 0;
	}
	for (unsigned int u = (unsigned int)v; u; u >>= 8) {
		if (ps->p->len == PATTERN_MAX) {
			room_error(ps);
			return NULL;
		}
		ps->p->bytes[ps->p->len++] = (uint8_t)u;
	}
	return s + (end - num);
}

int pattern_parse(struct pattern *p, const char *value, bool allow_offset,
		  const char *where, const char *what, struct errbuf *err)
{
	struct pattern tmp = { .len = 0 };
	struct pat_parse ps = { .p = &tmp, .where = where, .what = what,
				.err = err };
	const char *s = value;

	if (!s || !*s)
		return err_set(err, EINVAL, "%s: option '%s' needs a pattern",
			       where, what);
	while (s && *s) {
		if (*s == '\'')
			s = parse_file(&ps, s);
		else if (*s == '"')
			s = parse_string(&ps, s);
		else if (*s == '%')
			s = parse_offset_format(&ps, s, allow_offset);
		else if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
			s = parse_hex(&ps, s);
		else
			s = parse_decimal(&ps, s);
	}
	if (!s)
		return ps.ret;
	*p = tmp;
	return 0;
}

/* The pattern with @offset pasted into its %o places. */
static void pattern_with_offset(const struct pattern *p, uint8_t *out,
				uint64_t offset)
{
	uint8_t le[PATTERN_OFF_LEN];

	for (int i = 0; i < PATTERN_OFF_LEN; i++)
		le[i] = (uint8_t)(offset >> (8 * i));
	memcpy(out, p->bytes, p->len);
	for (unsigned int i = 0; i < p->nr_offsets; i++)
		memcpy(out + p->offset_at[i], le, PATTERN_OFF_LEN);
}

void pattern_spread(const struct pattern *p, void *buf, size_t len,
		  uint64_t offset)
{
	uint8_t *b = buf;
	size_t have;

	if (!p->len || !len)
		return;
	if (p->nr_offsets || len < p->len) {
		uint8_t full[PATTERN_MAX];

		pattern_with_offset(p, full, offset);
		have = len < p->len ? len : p->len;
		memcpy(b, full, have);
	} else {
		have = p->len;
		memcpy(b, p->bytes, have);
	}
	/* Double the filled part until the buffer is full: each copy starts
	 * at a multiple of the pattern length, so the period holds. */
	while (have < len) {
		size_t n = have < len - have ? have : len - have;

		memcpy(b + have, b, n);
		have += n;
	}
}

long pattern_find_diff(const struct pattern *p, const void *buf, size_t len,
		      size_t phase, uint64_t offset, uint8_t *want)
{
	uint8_t full[PATTERN_MAX];
	const uint8_t *b = buf;
	size_t i = 0, at = phase % p->len;

	pattern_with_offset(p, full, offset);
	while (i < len) {
		size_t n = p->len - at;

		if (n > len - i)
			n = len - i;
		if (memcmp(b + i, full + at, n)) {
			for (size_t k = 0; k < n; k++) {
				if (b[i + k] != full[at + k]) {
					*want = full[at + k];
					return (long)(i + k);
				}
			}
		}
		i += n;
		at = 0;
	}
	return -1;
}
