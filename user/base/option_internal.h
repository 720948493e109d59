/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the option machinery's files share (base/option.c, the setters;
 * base/option_parse.c, the value parsers).  Private to them; everyone
 * else uses base/option.h.
 */
#ifndef IODIG_BASE_OPTION_INTERNAL_H
#define IODIG_BASE_OPTION_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/option.h"

/* option_parse.c: digits, for setters that read a number their own way
 * (a bool as fio's check_int, a zone count). */
int parse_digits(const char *s, bool hex_ok, uint64_t *out, const char **end);

#endif /* IODIG_BASE_OPTION_INTERNAL_H */
