#!/bin/bash
# SIGTERM while a reading job's file is laid out stops the layout after the write under way, as fio 3.33's extend_file (it checks td->terminate before each write): the run ends before any I/O, the file the layout was creating is gone (fio unlinks it too), and a shorter file that was there keeps its old size and bytes.
# The layout's writes, from the third on, are held 100 ms each by strace's
# delay injection, so the signal lands mid-layout whatever the machine's
# speed; the count of writes made says whether the layout went on.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/fault.lib"
need_root
command -v fio >/dev/null || skip "needs fio"
command -v strace >/dev/null || skip "needs strace"
cd "$TMP" || exit 1

MIB=48 # the layout: 48 writes of 1 MiB (bs=1m is fio's layout chunk too)

# writes_done N: N writes of 1 MiB are in strace's log
writes_done() { local n; n=$(grep -c ') = 1048576' st.txt 2>/dev/null); [ "${n:-0}" -ge "$1" ]; }

# layout_stopped NAME SYSCALL TOOL...: TOOL lays out NAME (48 MiB, read);
# SIGTERM once two of its SYSCALL writes to the file are done.  Sets RC
# (TOOL's exit status) and WRITES (the writes of 1 MiB it made).
layout_stopped() {
	local name=$1 sc=$2 tracer pid; shift 2
	rm -f st.txt
	strace -f -qq -o st.txt -e trace="$sc" -e inject="$sc":delay_enter=100000:when=3+ \
		"$@" --name=lay --filename="$TMP/$name" --rw=read --bs=1m --filesize=${MIB}m \
		>out.txt 2>err.txt &
	tracer=$!
	wait_for writes_done 2 \
		|| fail "$1: the layout did not start: $(head -c 200 err.txt)"
	pid=$(pgrep -P "$tracer" | head -n 1)
	kill -TERM "$pid"
	wait "$tracer"
	RC=$?
	WRITES=$(grep -c ') = 1048576' st.txt)
}

layout_stopped new.f write fio --output-format=terse
check "fio: stopped by the signal (exit $RC)" [ "$RC" -ne 0 ]
check "fio: the layout stopped ($WRITES of $MIB writes)" [ "$WRITES" -lt 10 ]
check "fio: the file it was laying out is removed" [ ! -e new.f ]

layout_stopped new.i pwrite64 "$IODIG" run --no-probes --no-save --no-progress
check "iodig: exit 143 for SIGTERM (got $RC)" [ "$RC" -eq 143 ]
check "iodig: the layout stopped ($WRITES of $MIB writes)" [ "$WRITES" -lt 10 ]
check "iodig: the file it was laying out is removed" [ ! -e new.i ]
check "iodig: says nothing ran: $(cat err.txt)" grep -q "before the workload started; nothing was run" err.txt

# A file that was there, shorter than the job needs: fio 3.33 unlinks it
# before laying out anew; iodig extends it, and on the signal cuts it back.
head -c 1048576 /dev/urandom >keep.i && cp keep.i keep.orig
layout_stopped keep.i pwrite64 "$IODIG" run --no-probes --no-save --no-progress
check "iodig: existing file, exit 143 (got $RC)" [ "$RC" -eq 143 ]
check "iodig: existing file, the layout stopped ($WRITES of $((MIB - 1)) writes)" [ "$WRITES" -lt 10 ]
check "iodig: existing file keeps its size and bytes" cmp -s keep.i keep.orig
done_testing
