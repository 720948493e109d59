// SPDX-License-Identifier: GPL-2.0
/* base/lazy_lib: a library opens on first use with every symbol resolved
 * and callable; a missing library or symbol gives -ELIBACC, a reason that
 * names it, and no half-filled table; a second open answers the same. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "tests/lib/check.h"
#include "base/lazy_lib.h"

static const char *const good_names[] = { "cos", "sqrt" };
static void *good_fns[2];
static struct lazy_lib good = LAZY_LIB("libm.so.6", good_names, good_fns);

static const char *const nolib_names[] = { "x" };
static void *nolib_fns[1];
static struct lazy_lib nolib = LAZY_LIB("libiodig-none.so.0", nolib_names, nolib_fns);

static const char *const nosym_names[] = { "cos", "iodig_no_such_symbol" };
static void *nosym_fns[2];
static struct lazy_lib nosym = LAZY_LIB("libm.so.6", nosym_names, nosym_fns);

typedef double unary_fn(double);

int main(void)
{
	const char *why = NULL;

	CHECK(lazy_lib_fn(&good, 0) == NULL);  /* not open yet */
	CHECK(lazy_lib_open(&good, &why) == 0);
	CHECK(lazy_lib_fn(&good, 0) && lazy_lib_fn(&good, 1));
	CHECK(LAZY_FN(&good, unary_fn, 0)(0.0) == 1.0);
	CHECK(LAZY_FN(&good, unary_fn, 1)(9.0) == 3.0);
	CHECK(lazy_lib_open(&good, &why) == 0);

	CHECK(lazy_lib_open(&nolib, &why) == -ELIBACC);
	CHECK_MSG(strstr(why, "libiodig-none.so.0"), "reason: %s", why);
	CHECK(lazy_lib_fn(&nolib, 0) == NULL);
	CHECK(lazy_lib_open(&nolib, &why) == -ELIBACC);

	CHECK(lazy_lib_open(&nosym, &why) == -ELIBACC);
	CHECK_MSG(strstr(why, "iodig_no_such_symbol"), "reason: %s", why);
	CHECK(lazy_lib_fn(&nosym, 0) == NULL && nosym_fns[0] == NULL);
	return CHECK_DONE();
}
