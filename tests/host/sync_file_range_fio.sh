#!/bin/bash
# sync_file_range=FLAGS:N as fio 3.33: after every N writes a
# sync_file_range(2) of the range written since the last sync, with FLAGS.
# The sync engines and libaio make the same calls (strace: offset, length
# and flags, call by call), io_uring queues the same SYNC_FILE_RANGE SQEs
# (its io_uring_submit_req tracepoint; fio 3.33's are refused by the
# kernel), posixaio fsyncs instead as fio's does, and the JSON "sync"
# object counts them as fio's.  On ext4 on a
# loop device the calls write the same sectors as fio's; without the
# option the same job writes none.  Bad flags are refused.
. "$(dirname "$0")/lib.sh"
fio_loop_test 256
command -v strace >/dev/null || skip "needs strace"
# sync [TOOL...]: the job's JSON fields and its syscalls' arguments
syncs() {
	strace -f -qq -e trace=sync_file_range,fsync -o st.txt "$@" >out.txt 2>err.txt ||
		fail "$1 failed: $(head -c 200 err.txt)"
	sed -n '/^{/,$p' out.txt >out.json
	FIELDS=$(jqr '.jobs[0] | "\(.write.total_ios) \(.sync.total_ios) \(.sync.lat_ns.N)"' out.json)
	# the calls without pid and descriptor, one a line
	CALLS=$(sed -n 's/^[0-9]* *sync_file_range([0-9]*, \(.*\)) = 0$/\1/p' st.txt | paste -sd';')
	NCALLS=$(grep -c 'sync_file_range(' st.txt)
	NFSYNC=$(grep -c 'fsync(' st.txt)
}
job=(--name=w --filename=$TMP/f --rw=write --bs=4k --size=1m --output-format=json)
for e in psync vsync pvsync2 libaio posixaio; do
	for o in write:8 wait_before,write,wait_after:16 wait_after; do
		args=("${job[@]}" --ioengine=$e --sync_file_range=$o)
		syncs fio "${args[@]}"; ff=$FIELDS; fc=$CALLS; fn="$NCALLS $NFSYNC"
		syncs "$IODIG" run --no-probes --no-save "${args[@]}"
		check "$e $o: writes fsyncs syncs iodig '$FIELDS', fio '$ff'" [ "$FIELDS" = "$ff" ]
		check "$e $o: sync_file_range and fsync calls iodig '$NCALLS $NFSYNC', fio '$fn'" \
			[ "$NCALLS $NFSYNC" = "$fn" ]
		check "$e $o: the same calls (offset, length, flags)" [ "$CALLS" = "$fc" ]
	done
done
# libaio at depth: the writes in flight complete before the sync, as fio's
args=("${job[@]}" --ioengine=libaio --iodepth=8 --sync_file_range=write:8)
syncs fio "${args[@]}"; ff=$FIELDS; fc=$CALLS
syncs "$IODIG" run --no-probes --no-save "${args[@]}"
check "libaio iodepth=8: iodig '$FIELDS', fio '$ff'" [ "$FIELDS" = "$ff" ]
check "libaio iodepth=8: the same calls" [ "$CALLS" = "$fc" ]

# io_uring queues IORING_OP_SYNC_FILE_RANGE (8) SQEs, counted by the
# tracepoints in an instance of the test's own: those submitted, and those
# the kernel refused.  fio 3.33 queues as many, but in an SQE that still
# holds the previous write's buffer address, which the kernel refuses
# (EINVAL) and fio does not look at: its syncs write nothing.
own_tracefs sfr
evs=$INST/events/io_uring
[ -d "$evs/io_uring_req_failed" ] || skip "no io_uring tracepoints"
sqes() { # sqes TOOL...: N, "submitted refused" SYNC_FILE_RANGE SQEs while TOOL ran
	local e
	echo >"$INST/trace"
	for e in io_uring_submit_req io_uring_req_failed; do
		echo 'opcode == 8' >"$evs/$e/filter" && echo 1 >"$evs/$e/enable"
	done
	"$@" >out.txt 2>err.txt || fail "$1 failed: $(head -c 200 err.txt)"
	for e in io_uring_submit_req io_uring_req_failed; do echo 0 >"$evs/$e/enable"; done
	N=($(grep -c 'io_uring_submit_req:' "$INST/trace") $(grep -c 'io_uring_req_failed:' "$INST/trace"))
}
args=("${job[@]}" --ioengine=io_uring --sync_file_range=write:8)
sqes fio "${args[@]}"; fs=("${N[@]}")
sqes "$IODIG" run --no-probes --no-save "${args[@]}"; is=("${N[@]}")
check "io_uring: SYNC_FILE_RANGE SQEs iodig ${is[*]}, fio ${fs[*]} (submitted refused)" \
	[ $((is[0] + is[1])) = $((fs[0] + fs[1])) -a "${is[*]}" = "31 0" ]
sed -n '/^{/,$p' out.txt >out.json
check "io_uring: 31 syncs in the JSON ($(jqr '.jobs[0].sync.lat_ns.N' out.json))" \
	[ "$(jqr '.jobs[0].sync.lat_ns.N' out.json)" = 31 ]

# what the device sees: ext4 on the loop device, a file written once and
# synced; the job overwrites it and only its sync_file_range calls write
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LOOP" || skip "no mkfs.ext4"
mkdir mnt && mount "$LOOP" mnt || skip "cannot mount ext4"
dd if=/dev/urandom of=mnt/f bs=1M count=1 status=none && sync
dev=${LOOP#/dev/}
sectors() { # sectors TOOL...: N, sectors written to the device while TOOL ran
	local a b
	sync; a=$(awk '{print $7}' /sys/block/$dev/stat)
	"$@" >out.txt 2>err.txt || fail "$1 failed: $(head -c 200 err.txt)"
	settle "$dev" # write alone starts the writeback, which may still run
	b=$(awk '{print $7}' /sys/block/$dev/stat)
	N=$((b - a))
}
ext=(--name=w --filename=mnt/f --rw=write --bs=4k --size=1m)
for o in wait_before,write,wait_after:8 write:8; do
	sectors fio "${ext[@]}" --sync_file_range=$o; fs=$N
	sectors "$IODIG" run --no-probes --no-save "${ext[@]}" --sync_file_range=$o; is=$N
	# 31 syncs of 8 writes of 4k: 1984 sectors (a journal commit may add a few)
	check "ext4 $o: sectors written iodig $is, fio $fs (1984 and up)" \
		[ "$fs" -ge 1984 -a "$is" -ge 1984 -a $((is - fs)) -le 64 -a $((fs - is)) -le 64 ]
done
sectors "$IODIG" run --no-probes --no-save "${ext[@]}" --ioengine=io_uring \
	--sync_file_range=write,wait_after:8; is=$N
check "ext4 io_uring: iodig's SQEs write $is sectors (1984 and up)" \
	[ "$is" -ge 1984 -a "$is" -le 2048 ]
sectors "$IODIG" run --no-probes --no-save "${ext[@]}"; is=$N
check "ext4 without sync_file_range: iodig writes $is sectors during the job (few)" [ "$is" -lt 512 ]
umount mnt

# write_barrier: no fio 3.33 engine issues barriers, so the same calls as
# without it, in both tools
for t in fio iodig; do
	tool=(fio); [ $t = iodig ] && tool=("$IODIG" run --no-probes --no-save)
	for o in "" --write_barrier=4; do
		strace -f -c -o sc.txt "${tool[@]}" --name=w --filename=$TMP/f --rw=write --bs=4k \
			--size=64k $o >out.txt 2>err.txt || fail "$t $o failed: $(head -c 200 err.txt)"
		eval "${t}_${o:+wb}=\"$(awk '$NF ~ /^(pwrite64|fsync|fdatasync|sync_file_range)$/ \
			{print $NF "=" $4}' sc.txt | sort | paste -sd' ')\""
	done
done
check "write_barrier=4: iodig calls '$iodig_wb' as without ('$iodig_'), fio '$fio_wb' ('$fio_')" \
	[ "$iodig_wb" = "$iodig_" -a "$fio_wb" = "$fio_" -a "$iodig_wb" = "$fio_wb" ]
refused "write_barrier=x" "option 'write_barrier'" --rw=write --filename=$TMP/f --write_barrier=x
# fio's words only, and N a number
refused "an unknown flag" "'foo' is not one of wait_before, write, wait_after" \
	--rw=write --filename=$TMP/f --sync_file_range=foo:8
refused "no flags" "needs flags" --rw=write --filename=$TMP/f --sync_file_range=:8
refused "N not a number" "is not FLAGS:N" --rw=write --filename=$TMP/f --sync_file_range=write:x
refused "null at iodepth 8" "sync_file_range with ioengine=null at iodepth=8" \
	--rw=write --ioengine=null --iodepth=8 --sync_file_range=write:8
done_testing
