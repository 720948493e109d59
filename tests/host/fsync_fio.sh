#!/bin/bash
# fsync=, fdatasync=, end_fsync, fsync_on_close as fio 3.33, psync, libaio and
# io_uring, on a file on tmpfs: the same writes and bytes, the same sync
# counts in the JSON "sync" object (total_ios counts fsyncs only, lat_ns.N
# every sync), and the same number of fsync(2)/fdatasync(2) calls more than
# the same job without the option (strace: end_fsync's are in no JSON).
. "$(dirname "$0")/lib.sh"
command -v fio >/dev/null || skip "no fio"
cd "$TMP" || exit 1
have_strace=0
command -v strace >/dev/null && have_strace=1
# run TOOL... : the job's JSON to out.json; the syncs strace saw to SYNCS
run() {
	if [ $have_strace = 1 ]; then
		strace -f -qq -e trace=fsync,fdatasync -o st.txt "$@" >out.txt 2>err.txt
		SYNCS="$(grep -c '^[0-9]* *fsync(' st.txt) $(grep -c '^[0-9]* *fdatasync(' st.txt)"
	else
		"$@" >out.txt 2>err.txt
		SYNCS=
	fi
	sed -n '/^{/,$p' out.txt >out.json
}
# fields: write total_ios, io_bytes, sync total_ios, sync lat_ns.N
fields() {
	jqr '.jobs[0] | "\(.write.total_ios) \(.write.io_bytes) \(.sync.total_ios) \(.sync.lat_ns.N)"' out.json
}
# delta A B: "x y" minus "u v", per field
delta() { local a=($1) b=($2); echo "$((a[0] - b[0])) $((a[1] - b[1]))"; }
for e in psync io_uring libaio; do
	base=(--name=w --filename=$TMP/f --rw=write --bs=4k --size=1m --ioengine=$e
	      --output-format=json)
	run fio "${base[@]}"; f0=$SYNCS
	run "$IODIG" run --no-probes --no-save "${base[@]}"; i0=$SYNCS
	for o in fsync=8 fdatasync=8 end_fsync=1 fsync_on_close=1; do
		run fio "${base[@]}" --$o
		ff=$(fields); fs=$SYNCS
		if ! run "$IODIG" run --no-probes --no-save "${base[@]}" --$o; then
			fail "$e $o: iodig failed: $(head -c 200 err.txt)"
			continue
		fi
		if=$(fields); is=$SYNCS
		check "$e $o: iodig '$if', fio '$ff' (writes bytes fsyncs syncs)" [ "$if" = "$ff" ]
		[ $have_strace = 1 ] || continue
		check "$e $o: iodig adds $(delta "$is" "$i0") (fsync fdatasync) calls, fio $(delta "$fs" "$f0")" \
			[ "$(delta "$is" "$i0")" = "$(delta "$fs" "$f0")" ]
	done
done
# fio's text report: the sync block, and the fsyncs in issued rwts' total
text() {
	"$@" --name=w --filename=$TMP/f --rw=write --bs=4k --size=1m --fsync=8 >out.txt 2>&1
	echo "$(grep -c '^  fsync/fdatasync/sync_file_range:$' out.txt)" \
		"$(grep -c '^    sync ([num]sec): min=' out.txt)" \
		"$(grep -o 'issued rwts: total=[0-9,]*' out.txt)"
}
it=$(text "$IODIG" run --no-probes --no-save); ft=$(text fio)
check "text report: iodig '$it', fio '$ft'" [ "$it" = "$ft" ]
# libaio drains before its syncs, as fio's does: the same counts at depth 8
run fio "${base[@]/--ioengine=*/--ioengine=libaio}" --iodepth=8 --fsync=8; ff=$(fields)
run "$IODIG" run --no-probes --no-save "${base[@]/--ioengine=*/--ioengine=libaio}" --iodepth=8 --fsync=8
check "libaio iodepth=8 fsync=8: iodig '$(fields)', fio '$ff'" [ "$(fields)" = "$ff" ]
# io_uring and posixaio at iodepth > 1: tests/host/fsync_queued_fio.sh; an
# engine that neither syncs at once nor queues syncs is refused, with why
refused "null iodepth=8 fdatasync=8" "fdatasync with ioengine=null at iodepth=8: iodig" \
	--rw=write --ioengine=null --iodepth=8 --fdatasync=8
# the counts must show: fsync=8 over 256 writes syncs 31 times (not after the last)
run "$IODIG" run --no-probes --no-save --name=w --filename=$TMP/f --rw=write --bs=4k \
	--size=1m --fsync=8 --output-format=json
check "fsync=8: 31 fsyncs reported, '$(fields)'" [ "$(fields)" = "256 1048576 31 31" ]
done_testing
