/* SPDX-License-Identifier: GPL-2.0 */
/* The probe tests' reads of a JSON report: a member, or -1 / NULL when it
 * is missing. */
#ifndef IODIG_TEST_JSON_GET_H
#define IODIG_TEST_JSON_GET_H

#include <stdint.h>

#include <json-c/json.h>

static inline struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *x = NULL;

	return o && json_object_object_get_ex(o, k, &x) ? x : NULL;
}

static inline int64_t get_i64(struct json_object *o, const char *k)
{
	struct json_object *x = get(o, k);

	return x ? json_object_get_int64(x) : -1;
}

/* A string member, "" when missing. */
static inline const char *get_str(struct json_object *o, const char *k)
{
	struct json_object *x = get(o, k);
	const char *s = x ? json_object_get_string(x) : NULL;

	return s ? s : "";
}

#endif /* IODIG_TEST_JSON_GET_H */
