// SPDX-License-Identifier: GPL-2.0
#include <sys/syscall.h>

#include "probes/sc_calls.h"

/* -1: not on this architecture. */
#ifndef SYS_io_submit
#define SYS_io_submit -1
#endif
#ifndef SYS_io_getevents
#define SYS_io_getevents -1
#endif
#ifndef SYS_io_pgetevents
#define SYS_io_pgetevents -1
#endif
#ifndef SYS_io_uring_enter
#define SYS_io_uring_enter -1
#endif
#ifndef SYS_preadv2
#define SYS_preadv2 -1
#endif
#ifndef SYS_pwritev2
#define SYS_pwritev2 -1
#endif

static const struct {
	const char *name;
	long nr;
} calls[SC_CALL_NR] = {
	[SC_CALL_IO_SUBMIT] = { "io_submit", SYS_io_submit },
	[SC_CALL_IO_GETEVENTS] = { "io_getevents", SYS_io_getevents },
	[SC_CALL_IO_PGETEVENTS] = { "io_pgetevents", SYS_io_pgetevents },
	[SC_CALL_URING_ENTER] = { "io_uring_enter", SYS_io_uring_enter },
	[SC_CALL_PREAD64] = { "pread64", SYS_pread64 },
	[SC_CALL_PWRITE64] = { "pwrite64", SYS_pwrite64 },
	[SC_CALL_PREADV2] = { "preadv2", SYS_preadv2 },
	[SC_CALL_PWRITEV2] = { "pwritev2", SYS_pwritev2 },
};

const char *sc_call_name(enum sc_call c)
{
	return c < SC_CALL_NR ? calls[c].name : "?";
}

long sc_call_nr(enum sc_call c)
{
	return c < SC_CALL_NR ? calls[c].nr : -1;
}
