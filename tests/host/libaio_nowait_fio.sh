#!/bin/bash
# libaio's nowait=1 as fio 3.33's: RWF_NOWAIT in the aio_rw_flags of every
# read and write iocb (io_submit as strace decodes it), the same I/Os on a
# device that takes it, and where the kernel refuses it (tmpfs, zram: no
# FMODE_NOWAIT; buffered writes to a block device) the same error number
# fio ends with (95), said before the run.  Where fio fails a buffered read
# with EAGAIN (err=11), iodig redoes it blocking and counts nowait_eagain,
# as its pvsync2 and io_uring do (docs/usage.md).
. "$(dirname "$0")/lib.sh"
command -v strace >/dev/null || skip "no strace"
fio_loop_test 16
ZRAM=
zram_cleanup() {
	[ -n "$ZRAM" ] && echo "$ZRAM" >/sys/class/zram-control/hot_remove
	cleanup
}
trap zram_cleanup EXIT

# run TOOL TARGET DIRECT RW: a 1 MiB libaio nowait=1 job of 4k I/Os at
# iodepth 4 on TARGET, its JSON report in TOOL.json, its io_submit calls
# in TOOL.st, its stderr in TOOL.err
run() {
	local tool=$1 args=(--name=t --filename=$2 --direct=$3 --rw=$4 --bs=4k
			    --size=1m --ioengine=libaio --iodepth=4 --nowait=1
			    --output-format=json)
	if [ "$tool" = fio ]; then
		strace -f -e trace=io_submit -o fio.st fio "${args[@]}" >fio.out 2>fio.err
		sed -n '/^{/,$p' fio.out >fio.json
	else
		strace -f -e trace=io_submit -o iodig.st "$IODIG" run --no-probes \
			--no-save "${args[@]}" >iodig.json 2>iodig.err
	fi
}
field() { jq -r "$2" "$1.json" 2>/dev/null; }
nowait_iocbs() { grep -o "aio_rw_flags=RWF_NOWAIT, aio_lio_opcode=IOCB_CMD_P$2," "$1.st" | wc -l; }

# A loop device takes NOWAIT with O_DIRECT: every I/O carries it.
for rw in randread randwrite; do
	[ $rw = randread ] && dd=READ key=.read.total_ios || dd=WRITE key=.write.total_ios
	run fio "$LOOP" 1 $rw
	run iodig "$LOOP" 1 $rw
	check "loop direct $rw: iodig ends err=$(field iodig .jobs[0].error), fio $(field fio .jobs[0].error)" \
		[ "$(field iodig .jobs[0].error)/$(field fio .jobs[0].error)" = 0/0 ]
	check "loop direct $rw: iodig $(field iodig .jobs[0]$key) I/Os, fio $(field fio .jobs[0]$key)" \
		[ "$(field iodig .jobs[0]$key)/$(field fio .jobs[0]$key)" = 256/256 ]
	f=$(nowait_iocbs fio $dd) i=$(nowait_iocbs iodig $dd)
	# iodig's one more NOWAIT read is its probe of the device, before the run
	[ $rw = randread ] && want=$((f + 1)) || want=$f
	check "loop direct $rw: iodig submits $i RWF_NOWAIT iocbs, fio $f (iodig probes with one read)" \
		[ "$f/$i" = "256/$want" ]
done

# A buffered read of a page not cached answers EAGAIN (invalidate=1 drops
# the cache first): fio fails the job there, iodig retries and counts.
run fio "$LOOP" 0 randread
run iodig "$LOOP" 0 randread
check "loop buffered randread: fio ends err=11 (got $(field fio .jobs[0].error))" \
	[ "$(field fio .jobs[0].error)" = 11 ]
e=$(field iodig .jobs[0].iodig.nowait_eagain)
[ "$e" = null ] && e=$(grep -o '"nowait_eagain" *: *[0-9]*' iodig.json | grep -o '[0-9]*$' | head -1)
check "loop buffered randread: iodig reads 256 (got $(field iodig .jobs[0].read.total_ios)), err 0, nowait_eagain $e > 0" \
	[ "$(field iodig .jobs[0].read.total_ios)/$(field iodig .jobs[0].error)/$((${e:-0} > 0))" = 256/0/1 ]

# refused_as_fio WHAT TARGET DIRECT RW PATTERN: fio ends with err=95, iodig
# with 95 and PATTERN on stderr, having done no I/O
refused_as_fio() {
	run fio "$2" "$3" "$4"
	run iodig "$2" "$3" "$4"
	check "$1: fio ends err=95 (got $(field fio .jobs[0].error))" [ "$(field fio .jobs[0].error)" = 95 ]
	check "$1: iodig ends err=95 (got $(field iodig .jobs[0].error)): $(head -c 160 iodig.err)" \
		[ "$(field iodig .jobs[0].error)/$(grep -c -- "$5" iodig.err)" = 95/1 ]
}
refused_as_fio "loop buffered randwrite" "$LOOP" 0 randwrite "buffered writes to a block device"
truncate -s 1m "$TMP/tmpfs-file"
refused_as_fio "tmpfs file" "$TMP/tmpfs-file" 0 randread "does not support non-blocking I/O"
if [ -w /sys/class/zram-control/hot_add ] && ZRAM=$(cat /sys/class/zram-control/hot_add) &&
	echo 16M >"/sys/block/zram$ZRAM/disksize"; then
	refused_as_fio "zram direct read" "/dev/zram$ZRAM" 1 randread "does not support non-blocking I/O"
else
	echo "note: no zram device of our own; its case is not checked"
fi
done_testing
