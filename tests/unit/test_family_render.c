// A family's JSON numbers written from a table (probes/family_render.c, json_add_fields): the keys in the table's order, 64-bit counters as JSON integers (above INT64_MAX as INT64_MAX, as json_u64), doubles as json-c writes them, each read from its own member.
#include <stdint.h>
#include <string.h>

#include <json-c/json.h>

#include "tests/lib/check.h"
#include "probes/family_render.h"

struct sample {
	uint32_t pad;              /* members at offsets other than 0 */
	uint64_t count;
	double share;
	struct { uint64_t n, w; } nested;
	uint64_t huge;
};

static const struct json_field fields[] = {
	JSON_U64("count", struct sample, count),
	JSON_DOUBLE("share", struct sample, share),
	JSON_U64("w", struct sample, nested.w),
	JSON_U64("n", struct sample, nested.n),
	JSON_U64("huge", struct sample, huge),
};

int main(void)
{
	struct sample s = { .pad = 7, .count = 12, .share = 0.25,
			    .nested = { .n = 3, .w = 48 }, .huge = UINT64_MAX };
	struct json_object *o = json_object_new_object();
	struct json_object *empty = json_object_new_object();
	const char *got;

	JSON_FIELDS(o, &s, fields);
	got = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	CHECK_MSG(!strcmp(got, "{\"count\":12,\"share\":0.25,\"w\":48,\"n\":3,"
			  "\"huge\":9223372036854775807}"), "got %s", got);

	json_add_fields(empty, &s, fields, 0);
	got = json_object_to_json_string_ext(empty, JSON_C_TO_STRING_PLAIN);
	CHECK_MSG(!strcmp(got, "{}"), "no rows: got %s", got);

	json_object_put(o);
	json_object_put(empty);
	return CHECK_DONE();
}
