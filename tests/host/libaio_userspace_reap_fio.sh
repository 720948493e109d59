#!/bin/bash
# libaio's userspace_reap as fio 3.33: with iodepth_batch_complete_min=0
# the completions are taken from the kernel's ring in user space, so the
# job makes no io_getevents call at all (strace -c), in fio as in iodig,
# and does all its I/O; without iodepth_batch_complete_min=0 the option
# changes nothing and both reap by io_getevents.
. "$(dirname "$0")/lib.sh"
fio_loop_test 64
command -v strace >/dev/null || skip "needs strace"
# calls TOOL...: N, "IOS GETEVENTS" of a direct random read job on the loop
# device, with $opts after the engine (fio takes its options only there)
calls() {
	strace -f -c -e trace=io_getevents -o sc.txt "$@" --name=w --filename="$LOOP" \
		--rw=randread --bs=4k --size=8m --ioengine=libaio --direct=1 --iodepth=8 \
		$opts --output-format=json >out.txt 2>err.txt || fail "$1 failed: $(head -c 200 err.txt)"
	N="$(sed -n '/^{/,$p' out.txt | jqr '.jobs[0].read.total_ios')"
	N="$N $(awk '$NF == "io_getevents" {print $4}' sc.txt)"
	N=${N% }
	[ "${N#* }" = "$N" ] && N="$N 0"
}
while read -r fwant iwant opts; do
	calls fio; f=$N
	calls "$IODIG" run --no-probes --no-save; i=$N
	check "'$opts': I/Os and io_getevents calls iodig '$i', fio '$f'" \
		matches "$f $i" "^2048 $fwant 2048 $iwant\$"
done <<'EOS'
0 0 --iodepth_batch_complete_min=0 --userspace_reap=1
[1-9][0-9]* [1-9][0-9]* --userspace_reap=1
[1-9][0-9]* [1-9][0-9]* --iodepth_batch_complete_min=0
EOS
refused "userspace_reap with psync" "userspace_reap is an option of ioengine libaio" --rw=read --filename=$TMP/f --userspace_reap=1
done_testing
