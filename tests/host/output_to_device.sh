#!/bin/bash
# A report (--output) and a trace file (--save) sent to a character device or a FIFO are written into it, never renamed over it: a temp file renamed onto /dev/null once replaced the machine's /dev/null with a regular file.
. "$(dirname "$0")/lib.sh"
need_root
[ -x "$IODIG" ] || skip "$IODIG not built"

# A private null device and a FIFO, so a regression cannot break the host's.
dev=$TMP/null fifo=$TMP/fifo
mknod -m 666 "$dev" c 1 3 || skip "cannot mknod a character device in $TMP"
mkfifo "$fifo" || skip "cannot make a FIFO in $TMP"
JOB=(--name=dev --ioengine=psync --rw=read --bs=4k --size=64k --filename="$TMP/data"
     --no-probes --no-progress)

"$IODIG" run "${JOB[@]}" --output="$dev" --save="$dev" >"$TMP/out" 2>"$TMP/err"
check "run with --output and --save on a character device exits 0 ($(head -c 200 "$TMP/err"))" \
	[ $? -eq 0 ]
check "the character device is still one" [ -c "$dev" ]
check "no temp file left beside it" [ -z "$(ls "$TMP" | grep iodig-tmp)" ]

cat "$fifo" >"$TMP/from-fifo" &
reader=$!
"$IODIG" run "${JOB[@]}" --no-save --output-format=json --output="$fifo" 2>"$TMP/err2"
rc=$?
wait $reader
check "run with --output on a FIFO exits 0 ($(head -c 200 "$TMP/err2"))" [ $rc -eq 0 ]
check "the FIFO is still one" [ -p "$fifo" ]
check "the report came through the FIFO" \
	[ "$(jq -r '.jobs[0].read.io_bytes' "$TMP/from-fifo" 2>/dev/null)" = 65536 ]
done_testing
