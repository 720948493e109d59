// SPDX-License-Identifier: GPL-2.0
/*
 * fio's substitutions in job-file option lines: ${VAR}, $pagesize,
 * $mb_memory, $ncpus, and bc-style arithmetic on a value where a keyword
 * was replaced.  Rules measured against fio 3.33: an unset ${VAR} becomes
 * an empty string; "${" without "}" stays as written; "size=4*1024"
 * (no keyword) is not evaluated; "size=2*$pagesize" is.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "job/expand.h"

/* ---- arithmetic, as bc with scale=0 ------------------------------------- */

struct arith {
	const char *p;
	int err;
};

static void skip_blanks(struct arith *a)
{
	while (isspace((unsigned char)*a->p))
		a->p++;
}

static bool eat(struct arith *a, char c)
{
	skip_blanks(a);
	if (*a->p != c)
		return false;
	a->p++;
	return true;
}

static long long fail(struct arith *a, int err)
{
	if (!a->err)
		a->err = err;
	return 0;
}

static long long expr(struct arith *a);

static long long primary(struct arith *a)
{
	long long v;
	char *end;

	if (eat(a, '(')) {
		v = expr(a);
		if (!eat(a, ')'))
			return fail(a, -EINVAL);
		return v;
	}
	skip_blanks(a);
	if (!isdigit((unsigned char)*a->p))
		return fail(a, -EINVAL);
	errno = 0;
	v = strtoll(a->p, &end, 10);
	if (errno == ERANGE)
		return fail(a, -ERANGE);
	a->p = end;
	return v;
}

/* bc: unary minus binds tighter than ^, so -2^2 is 4 */
static long long unary(struct arith *a)
{
	long long v;

	if (!eat(a, '-'))
		return primary(a);
	v = unary(a);
	if (v == LLONG_MIN)
		return fail(a, -ERANGE);
	return -v;
}

static long long power(struct arith *a)
{
	long long base = unary(a), exp, v = 1;

	if (!eat(a, '^'))
		return base;
	exp = power(a); /* right associative */
	if (exp < 0)
		return fail(a, -EINVAL); /* bc: a fraction, 0 with scale 0 */
	while (exp-- > 0 && !a->err)
		if (__builtin_mul_overflow(v, base, &v))
			return fail(a, -ERANGE);
	return v;
}

static long long term(struct arith *a)
{
	long long v = power(a), r;

	for (;;) {
		char op;

		skip_blanks(a);
		op = *a->p;
		if (op != '*' && op != '/' && op != '%')
			return v;
		a->p++;
		r = power(a);
		if (op == '*') {
			if (__builtin_mul_overflow(v, r, &v))
				return fail(a, -ERANGE);
		} else if (!r || (v == LLONG_MIN && r == -1)) {
			return fail(a, -ERANGE);
		} else {
			v = op == '/' ? v / r : v % r;
		}
	}
}

static long long expr(struct arith *a)
{
	long long v = term(a), r;

	for (;;) {
		bool add = eat(a, '+');

		if (!add && !eat(a, '-'))
			return v;
		r = term(a);
		if (add ? __builtin_add_overflow(v, r, &v) :
			  __builtin_sub_overflow(v, r, &v))
			return fail(a, -ERANGE);
	}
}

int arith_eval(const char *s, long long *out)
{
	struct arith a = { .p = s };
	long long v = expr(&a);

	skip_blanks(&a);
	if (!a.err && *a.p)
		a.err = -EINVAL;
	if (!a.err)
		*out = v;
	return a.err;
}

/* ---- substitutions ----------------------------------------------------- */

struct outbuf {
	char *s;
	size_t len, cap;
	bool full;
};

static void put(struct outbuf *o, const char *s, size_t n)
{
	if (o->len + n >= o->cap) {
		o->full = true;
		return;
	}
	memcpy(o->s + o->len, s, n);
	o->len += n;
	o->s[o->len] = '\0';
}

/* ${VAR}: the variable's value, or nothing when it is unset or the name
 * is empty; "${" without a closing "}" is kept. */
static void expand_env(const char *in, struct outbuf *o,
		       struct expand_notes *notes)
{
	while (*in) {
		const char *close = in[0] == '$' && in[1] == '{' ?
				    strchr(in + 2, '}') : NULL;
		char var[256];
		const char *val;
		size_t len;

		if (!close) {
			put(o, in++, 1);
			continue;
		}
		len = (size_t)(close - in - 2);
		snprintf(var, sizeof(var), "%.*s", (int)len, in + 2);
		val = len < sizeof(var) ? getenv(var) : NULL;
		if (val)
			put(o, val, strlen(val));
		else if (!notes->unset) {
			notes->unset = true;
			snprintf(notes->name, sizeof(notes->name), "%.*s",
				 (int)len, in + 2);
		}
		in = close + 1;
	}
}

static long keyword_value(int i)
{
	long page = sysconf(_SC_PAGESIZE);

	switch (i) {
	case 0:
		return page;
	case 1: /* fio: os_phys_mem() / 1 MiB */
		return (long)((unsigned long long)sysconf(_SC_PHYS_PAGES) *
			      (unsigned long long)page >> 20);
	default:
		return sysconf(_SC_NPROCESSORS_ONLN);
	}
}

/* $pagesize, $mb_memory, $ncpus; returns whether one was replaced. */
static bool expand_keywords(const char *in, struct outbuf *o)
{
	static const char *const words[] = { "$pagesize", "$mb_memory",
					     "$ncpus" };
	bool any = false;

	while (*in) {
		size_t k, n = 0;
		char num[32];
		int len;

		for (k = 0; k < 3; k++) {
			n = strlen(words[k]);
			if (!strncmp(in, words[k], n))
				break;
		}
		if (k == 3) {
			put(o, in++, 1);
			continue;
		}
		len = snprintf(num, sizeof(num), "%ld", keyword_value((int)k));

		put(o, num, (size_t)len);
		in += n;
		any = true;
	}
	return any;
}

/* fio's bc_calc: the value after the first '=' when it holds an
 * operator and no quote. */
static int evaluate_value(char *line, size_t cap, const char *where,
			  struct errbuf *err)
{
	char *value = strchr(line, '=');
	long long v;
	int ret;

	if (!value || !strpbrk(value + 1, "+-*/") || strchr(value, '\''))
		return 0;
	value++;
	ret = arith_eval(value, &v);
	if (ret == -ERANGE)
		return err_set(err, ERANGE, "%s: '%.64s' overflows or divides by "
			       "zero", where, value);
	if (ret)
		return err_set(err, EINVAL, "%s: '%.64s' uses $pagesize, "
			       "$mb_memory or $ncpus with an operator, so fio "
			       "evaluates it as arithmetic, but it is not an "
			       "expression of whole numbers", where, value);
	snprintf(value, cap - (size_t)(value - line), "%lld", v);
	return 0;
}

int jobline_expand(const char *in, char *out, size_t out_len,
		   struct expand_notes *notes, const char *where,
		   struct errbuf *err)
{
	char *env = malloc(out_len);
	struct outbuf o1 = { .s = env, .cap = out_len };
	struct outbuf o2 = { .s = out, .cap = out_len };
	bool keyword;
	int ret = 0;

	memset(notes, 0, sizeof(*notes));
	if (!env)
		return err_set(err, ENOMEM, "%s: out of memory", where);
	env[0] = out[0] = '\0';
	expand_env(in, &o1, notes);
	keyword = expand_keywords(env, &o2);
	if (o1.full || o2.full)
		ret = err_set(err, E2BIG, "%s: line is longer than %zu bytes "
			      "after expanding variables", where, out_len - 1);
	else if (keyword)
		ret = evaluate_value(out, out_len, where, err);
	free(env);
	return ret;
}
