#!/bin/bash
# The runner reads the clock twice per sync I/O (its start and its
# completion): a vDSO clock read costs about as much as the rest of the
# loop's work for an I/O on a VM's kvm-clock, and fio reads the TSC
# instead.  Counted with an LD_PRELOAD shim around clock_gettime in every
# process of a null-engine run (no I/O, so only the loop reads the clock).
. "$(dirname "$0")/lib.sh"
CC=${CC:-cc}
command -v "$CC" >/dev/null || skip "no C compiler ($CC) for the counting shim"
cd "$TMP" || exit 1
cat >shim.c <<'SHIM'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
static unsigned long calls;
int clock_gettime(clockid_t c, struct timespec *ts)
{
	static int (*real)(clockid_t, struct timespec *);

	if (!real)
		real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
	calls++;
	return real(c, ts);
}
static void report(void)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/calls.%d", getenv("SHIM_DIR"), getpid());
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%lu\n", calls);
		fclose(f);
	}
}
__attribute__((destructor)) static void at_exit(void) { report(); }
/* workers end with _exit, which runs no destructor */
void _exit(int status)
{
	void (*real)(int) = (void (*)(int))dlsym(RTLD_NEXT, "_exit");

	report();
	real(status);
	abort();
}
SHIM
"$CC" -O2 -shared -fPIC -o shim.so shim.c -ldl || skip "cannot build the counting shim"

# reads PER RW: clock reads per I/O of a 65536-I/O null job; the most
# any one process made (the worker's), less a start-up allowance
IOS=65536
for rw in randread read; do
	rm -f calls.*
	SHIM_DIR=$TMP LD_PRELOAD=$TMP/shim.so "$IODIG" run --no-probes --no-save \
		--name=c --ioengine=null --rw=$rw --bs=4k --size=$((IOS * 4))k \
		--output-format=json >out.json 2>err.txt
	ios=$(jqr '.jobs[0].read.total_ios' out.json)
	most=$(cat calls.* 2>/dev/null | sort -n | tail -1)
	check "$rw: $ios reads done" [ "$ios" = "$IOS" ]
	check "$rw: ${most:-no} clock reads in the busiest process, at most 2 per I/O" \
		[ "${most:-999999999}" -le $((2 * IOS + 2000)) ]
done
done_testing
