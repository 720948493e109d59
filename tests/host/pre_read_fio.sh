#!/bin/bash
# pre_read against fio 3.33: a buffered sequential read of a 7 MiB file
# on ext4 whose pages were dropped first.  With pre_read=1 the job's files
# are read into the page cache before its I/O (invalidate=1, the default,
# is turned off so they stay), so the device sees the 8 MiB read before
# the job's first pread64 and no read after it; without, the job's own
# reads reach the device.  Both tools' runs are traced in an instance of
# the test's own: block_rq_issue on the device and the job's
# sys_enter_pread64 (psync; the pre-read is read(2)s, as fio's), told
# from other programs' by its size, bs=28k.  Also the
# refusals where fio fails or crashes (direct=1, ioengine=null).
# timeout: 180
. "$(dirname "$0")/lib.sh"
fio_loop_test 64
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
own_tracefs pre_read_fio
EV=$INST/events
[ -d "$EV/syscalls/sys_enter_pread64" ] || skip "no syscall tracepoints"
mkfs.ext4 -q "$LOOP" || skip "mkfs.ext4 failed"
mkdir "$TMP/mnt" && mount "$LOOP" "$TMP/mnt" || skip "cannot mount ext4"
F=$TMP/mnt/f
dd if=/dev/urandom of="$F" bs=1M count=7 status=none conv=fsync
SECTORS=$((7 * 2048))
echo "$(dev_filter "$LOOP")" >"$EV/block/block_rq_issue/filter"
echo 1 >"$EV/block/block_rq_issue/enable"

# run TOOL PRE_READ: the job on F, its cache dropped first; sets BEFORE and
# AFTER to the device's read sectors issued before and after the job's
# first pread64
run() {
	local tool=$1 pre=$2
	echo "count == $((28 * 1024)) && comm == \"$tool\"" >"$EV/syscalls/sys_enter_pread64/filter"
	echo 1 >"$EV/syscalls/sys_enter_pread64/enable"
	dd if="$F" iflag=nocache count=0 status=none  # POSIX_FADV_DONTNEED
	evictions_watch "$LOOP" "$tool"  # and a clean trace
	if [ "$tool" = iodig ]; then
		"$IODIG" run --no-probes --no-save --name=j --filename="$F" --rw=read \
			--bs=28k --size=7m --pre_read="$pre" >"$TMP/out" 2>"$TMP/err" ||
			fail "iodig pre_read=$pre: $(head -c 200 "$TMP/err")"
	else
		fio --name=j --filename="$F" --rw=read --bs=28k --size=7m \
			--pre_read="$pre" >"$TMP/out" 2>"$TMP/err" || fail "fio pre_read=$pre failed"
	fi
	echo 0 >"$EV/syscalls/sys_enter_pread64/enable"
	read -r BEFORE AFTER < <(awk '
		/ sys_pread64\(/ { started = 1 }
		/block_rq_issue/ && / R[A-Z]* / {
			for (i = 1; i < NF; i++) if ($i == "+") n = $(i + 1)
			if (started) after += n; else before += n
		}
		END { print before + 0, after + 0 }' "$INST/trace")
	grep -q " sys_pread64(" "$INST/trace" || fail "$tool: no pread64 of the job seen"
	EVICTED=$(evictions)
}
# cached TOOL: run TOOL 1, again while another task evicted cached pages
# of the device during it (what the job then read was not its doing)
cached() {
	local try
	for try in 1 2 3; do
		run "$1" 1
		[ -z "$EVICTED" ] && return
		echo "note: $EVICTED evicted cached pages during $1's run $try"
	done
	fail "$1: $EVICTED evicted cached pages during each of 3 runs"
}

for tool in fio iodig; do
	cached $tool
	check "$tool, pre_read=1: $BEFORE sectors read before the job's I/O (>= $SECTORS)" \
		[ "$BEFORE" -ge "$SECTORS" ]
	check "$tool, pre_read=1: $AFTER sectors read during it" [ "$AFTER" -eq 0 ]
	run $tool 0
	check "$tool, pre_read=0: $AFTER sectors read during the job's I/O (>= $SECTORS)" \
		[ "$AFTER" -ge "$SECTORS" ]
done

refused "pre_read with direct=1" "pre_read.*direct=1" --filename="$F" --pre_read=1 --direct=1
refused "pre_read with ioengine=null" "pre_read.*ioengine=null" --pre_read=1 --ioengine=null
done_testing
