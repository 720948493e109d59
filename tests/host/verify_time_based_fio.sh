#!/bin/bash
# A time_based writing verify job on a queueing engine (libaio) runs passes of size bytes written then read back and checked until its runtime, as fio 3.33 (do_io breaks at size "to run verification", counting what it queued; thread_main goes on while the runtime lasts); on a sync engine (psync) it writes the whole runtime and verifies nothing, as fio.  ChromiumOS's hardware_StorageFio "quick_write" is such a job.
# Counts are the runtime's, so what is compared is their shape: reads
# behind the writes by less than a pass, every read checked.
. "$(dirname "$0")/lib.sh"
need_root
command -v fio >/dev/null || skip "needs fio"
command -v jq >/dev/null || skip "needs jq"
cd "$TMP" || exit 1

PASS_IOS=64 # size=256k of bs=4k
# counts ENGINE TOOL...: "writes reads verify-errors" of a 1 s run
counts() {
	local eng=$1; shift
	rm -f tb.f
	"$@" --name=tb --filename="$TMP/tb.f" --rw=write --bs=4k --size=256k --ioengine="$eng" \
		--iodepth=4 --verify=md5 --time_based --runtime=1 --output-format=json \
		>out.txt 2>err.txt || fail "$1 $eng failed: $(head -c 200 err.txt)"
	sed -n '/^{/,$p' out.txt | jq -r '.jobs[0] | "\(.write.total_ios) \(.read.total_ios) \(.error)"'
}
for tool in fio iodig; do
	if [ $tool = fio ]; then run=(fio); else run=("$IODIG" run --no-probes --no-save --no-progress); fi
	read -r w r e <<<"$(counts libaio "${run[@]}")"
	check "$tool libaio: passes of writes and verify reads ($w writes, $r reads)" \
		[ "$r" -ge "$PASS_IOS" -a "$r" -le "$w" -a $((w - r)) -le "$PASS_IOS" ]
	check "$tool libaio: no verify error ($e)" [ "$e" = 0 ]
	read -r w r e <<<"$(counts psync "${run[@]}")"
	check "$tool psync: writes all the runtime, reads nothing ($w writes, $r reads)" \
		[ "$r" = 0 -a "$w" -gt "$PASS_IOS" ]
done
done_testing
