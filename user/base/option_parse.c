// SPDX-License-Identifier: GPL-2.0
/*
 * The option machinery's value parsers: sizes and times with fio's units
 * (and iodig's own), digits, booleans.  Names and units follow fio 3.33;
 * the setters that use them are base/option.c.
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>
#include <strings.h>
#include <stdlib.h>

#include "base/option_internal.h"

#define NSEC_PER_SEC 1000000000ULL

struct unit {
	const char *suffix;
	uint64_t mult;
};

/* iodig's own sizes (--scratch-size): powers of 1024, "KiB" too. */
static const struct unit size_units[] = {
	{ "", 1 }, { "b", 1 },
	{ "k", 1ULL << 10 }, { "kb", 1ULL << 10 }, { "kib", 1ULL << 10 },
	{ "m", 1ULL << 20 }, { "mb", 1ULL << 20 }, { "mib", 1ULL << 20 },
	{ "g", 1ULL << 30 }, { "gb", 1ULL << 30 }, { "gib", 1ULL << 30 },
	{ "t", 1ULL << 40 }, { "tb", 1ULL << 40 }, { "tib", 1ULL << 40 },
	{ "p", 1ULL << 50 }, { "pb", 1ULL << 50 }, { "pib", 1ULL << 50 },
	{ NULL, 0 },
};

static const struct unit time_units[] = {
	{ "us", 1000ULL }, { "usec", 1000ULL },
	{ "ms", 1000000ULL }, { "msec", 1000000ULL },
	{ "s", NSEC_PER_SEC }, { "sec", NSEC_PER_SEC },
	{ "m", 60 * NSEC_PER_SEC }, { "min", 60 * NSEC_PER_SEC },
	{ "h", 3600 * NSEC_PER_SEC }, { "d", 86400 * NSEC_PER_SEC },
	{ NULL, 0 },
};

static int unit_find(const struct unit *units, const char *suffix,
		     uint64_t *mult)
{
	for (; units->suffix; units++) {
		if (!strcasecmp(units->suffix, suffix)) {
			*mult = units->mult;
			return 0;
		}
	}
	return -EINVAL;
}

/* Digits (decimal, or hex after 0x when @hex_ok), no sign, no spaces;
 * *end points at what follows. */
int parse_digits(const char *s, bool hex_ok, uint64_t *out,
			const char **end)
{
	int base = 10;
	char *e;

	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	if (hex_ok && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		if (!isxdigit((unsigned char)s[2]))
			return -EINVAL;
		base = 16;
	}
	errno = 0;
	*out = strtoull(s, &e, base);
	if (errno == ERANGE)
		return -ERANGE;
	*end = e;
	return 0;
}

static int parse_scaled(const char *s, bool hex_ok, const struct unit *units,
			uint64_t bare_mult, uint64_t *out)
{
	const char *end;
	uint64_t v, mult;
	int ret;

	ret = parse_digits(s, hex_ok, &v, &end);
	if (ret)
		return ret;
	if (*end == '\0')
		mult = bare_mult;
	else if (unit_find(units, end, &mult))
		return -EINVAL;
	if (v && mult > UINT64_MAX / v)
		return -ERANGE;
	*out = v * mult;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	return parse_scaled(s, true, size_units, 1, out);
}

/* fio's get_mult_bytes on the letters after a number (@unit, already
 * cut at fio's separators): "kib", "mib" ... are powers of the base other
 * than @kb_base, so with the default kb_base=1024 "1KiB" is 1000, as fio
 * 3.33 reads it; otherwise the first letter alone names the power of
 * @kb_base ("kb", "kbytes", "Kx" are all k), and "b" is bytes.  Any other
 * letter fio silently reads as 1: -EILSEQ. */
static int fio_size_mult(const char *unit, size_t len, unsigned int kb_base,
			 uint64_t *mult)
{
	static const char prefixes[] = "kmgtp";
	const char *p;
	uint64_t base = kb_base;

	*mult = 1;
	if (!len || (len == 1 && tolower((unsigned char)unit[0]) == 'b'))
		return 0;
	p = strchr(prefixes, tolower((unsigned char)unit[0]));
	if (!p || !*p)
		return -EILSEQ;
	if (len >= 3 && !strncasecmp(unit + 1, "ib", 2))
		base = kb_base == 1000 ? 1024 : 1000;
	for (long n = p - prefixes + 1; n > 0; n--)
		*mult *= base;
	return 0;
}

bool fio_separator(char c)
{
	return c == ',' || c == ':' || c == '-' || c == '/';
}

/*
 * A size as fio 3.33's str_to_decimal reads it: a number (hex when the
 * text holds "0x", and then no unit), then letters naming a unit; fio
 * stops at a separator (, : - /), which *@end then points at (else at the
 * NUL).  Where fio would silently drop what follows the digits ("1e6",
 * "1.5k", "4 k", "0x10k", all read as the bare number) this returns
 * -EILSEQ rather than a size nobody meant; '%' is -EDOM.
 */
int parse_size_fio(const char *s, unsigned int kb_base, uint64_t *out,
		   const char **end)
{
	bool hex = strstr(s, "0x") || strstr(s, "0X");
	const char *e, *unit;
	uint64_t v, mult;
	size_t len;
	int ret;

	if (!kb_base) /* unset: fio's default */
		kb_base = KB_BASE_DEFAULT;
	if (kb_base != 1000 && kb_base != 1024)
		return -EINVAL;
	ret = parse_digits(s, hex, &v, &e);
	if (ret)
		return ret;
	if (hex && isxdigit((unsigned char)s[0]) && s[1] != 'x' && s[1] != 'X')
		return -EILSEQ; /* "10x5": fio reads hex from the start */
	unit = e;
	for (len = 0; unit[len] && !fio_separator(unit[len]); len++)
		;
	*end = unit + len;
	if (unit[0] == '%')
		return -EDOM;
	if (len && (hex || !isalpha((unsigned char)unit[0])))
		return -EILSEQ;
	ret = fio_size_mult(unit, len, kb_base, &mult);
	if (ret)
		return ret;
	if (v && mult > UINT64_MAX / v)
		return -ERANGE;
	*out = v * mult;
	return 0;
}

int parse_size_kb(const char *s, unsigned int kb_base, uint64_t *out)
{
	const char *end;
	int ret = parse_size_fio(s, kb_base, out, &end);

	return ret ? ret : *end ? -EINVAL : 0;
}

int parse_time_ns(const char *s, uint64_t unit_ns, uint64_t *out)
{
	return parse_scaled(s, false, time_units, unit_ns, out);
}

/*
 * A time as fio 3.33's get_mult_time reads a job option: a number, then
 * "us..." or "ms..." (usec, msec), or exactly s, m, h or d, any case; a
 * bare number is in @unit_ns.  Other letters ("10sec", "1min") fio reads
 * as microseconds and a fraction ("1.5") as its whole part: -EILSEQ, as
 * nobody means that.  A separator (, : -) ends the value: *@end.
 */
int parse_time_fio(const char *s, uint64_t unit_ns, uint64_t *out,
		   const char **end)
{
	static const struct unit fio_time_units[] = {
		{ "s", NSEC_PER_SEC }, { "m", 60 * NSEC_PER_SEC },
		{ "h", 3600 * NSEC_PER_SEC }, { "d", 86400 * NSEC_PER_SEC },
		{ NULL, 0 },
	};
	const char *e;
	char unit[8];
	uint64_t v, mult = unit_ns;
	size_t len;
	int ret = parse_digits(s, false, &v, &e);

	if (ret)
		return ret;
	for (len = 0; e[len] && !fio_separator(e[len]); len++)
		;
	*end = e + len;
	if (len && !isalpha((unsigned char)e[0]))
		return -EILSEQ;
	if (len >= 2 && !strncasecmp(e, "us", 2))
		mult = 1000;
	else if (len >= 2 && !strncasecmp(e, "ms", 2))
		mult = 1000000;
	else if (len) {
		if (len >= sizeof(unit))
			return -EILSEQ;
		memcpy(unit, e, len);
		unit[len] = '\0';
		if (unit_find(fio_time_units, unit, &mult))
			return -EILSEQ;
	}
	if (v && mult > UINT64_MAX / v)
		return -ERANGE;
	*out = v * mult;
	return 0;
}

int parse_bool(const char *s, bool *out)
{
	static const char *const yes[] = { "1", "true", "yes", "on" };
	static const char *const no[] = { "0", "false", "no", "off" };

	if (!s) { /* a bare key, as in "time_based" */
		*out = true;
		return 0;
	}
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(s, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(s, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}
