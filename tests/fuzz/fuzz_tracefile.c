// libFuzzer target for the trace file reader: any bytes must give 0 with a tracefile or -errno with a message, never a crash or leak.
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "analysis/tracefile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tracefile *tf = NULL;
	struct errbuf err = { "" };
	int ret = tracefile_parse_buffer("fuzz.json", (const char *)data, size, &tf, &err);

	/* the contract: success gives a tracefile, failure a message and none */
	if ((ret == 0) != (tf != NULL) || (ret && !err.msg[0]))
		__builtin_trap();
	tracefile_free(tf);
	return 0;
}
