/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fio's substitutions in an option line of a job file, in fio's order:
 * ${VAR} from the environment, then the reserved keywords $pagesize,
 * $mb_memory and $ncpus, then, on a line where a keyword was replaced and
 * the value holds + - * or /, the value evaluated as integer arithmetic
 * (fio 3.33 hands it to bc).  fio does none of this on its command line.
 */
#ifndef IODIG_EXPAND_H
#define IODIG_EXPAND_H

#include <stdbool.h>
#include <stddef.h>

#include "base/errbuf.h"

struct expand_notes {
	bool unset;        /* a ${VAR} is not set: fio puts "" there */
	char name[64];     /* the first such VAR */
};

/* Expands @in ("key=value" or a bare key) into @out.  Fails only for a
 * line too long once expanded or arithmetic fio could not evaluate. */
int jobline_expand(const char *in, char *out, size_t out_len,
		   struct expand_notes *notes, const char *where,
		   struct errbuf *err);

/* Evaluates @s as bc would with scale 0: whole numbers, + - * / % ^,
 * unary minus and parentheses; -EINVAL when it is not such an expression,
 * -ERANGE on overflow or division by zero. */
int arith_eval(const char *s, long long *out);

#endif /* IODIG_EXPAND_H */
