// libFuzzer target for the trace file reader and what reads it: any bytes must give 0 with a tracefile or -errno with a message, never a crash or leak; a file that loads must also compare (iodig diff) and render in every format, since its figure definitions label the rows.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "analysis/diff.h"
#include "analysis/tracefile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The file compared with itself, rendered three ways into nothing. */
static void compare(const uint8_t *data, size_t size)
{
	static FILE *sink;
	struct tracefile *tf[2] = { NULL, NULL };
	struct errbuf err = { "" };
	struct diff *d = NULL;

	if (!sink)
		sink = fopen("/dev/null", "w");
	for (int i = 0; i < 2; i++)
		if (tracefile_parse_buffer("fuzz.json", (const char *)data, size, &tf[i], &err))
			__builtin_trap();
	if (diff_build(tf, 2, &(struct diff_opts){ .alpha = 0.01, .min_change = 2 }, &d, &err) || !sink)
		__builtin_trap();
	diff_render_text(d, sink);
	diff_render_md(d, sink);
	diff_render_json(d, sink);
	diff_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tracefile *tf = NULL;
	struct errbuf err = { "" };
	int ret = tracefile_parse_buffer("fuzz.json", (const char *)data, size, &tf, &err);

	/* the contract: success gives a tracefile, failure a message and none */
	if ((ret == 0) != (tf != NULL) || (ret && !err.msg[0]))
		__builtin_trap();
	tracefile_free(tf);
	if (!ret)
		compare(data, size);
	return 0;
}
