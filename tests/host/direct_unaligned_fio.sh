#!/bin/bash
# direct=1 with a bs that is no multiple of 512, as fio 3.33: the job is
# not refused up front; the kernel decides.  On tmpfs (as on FUSE, e.g.
# mountpoint-s3's read_latency_ttfb.fio) O_DIRECT takes any size and both
# tools do the same I/Os and bytes; on a loop device the first I/O fails
# with EINVAL and both end with err=22 after that one I/O.  (Sizes are
# multiples of bs: where they are not, iodig does one I/O more than fio
# on a file of exactly that size, direct or not, a difference of its own.)
. "$(dirname "$0")/lib.sh"
fio_loop_test 16

# run TOOL TARGET OPTIONS...: a direct=1 job, its JSON report in TOOL.json
run() {
	local tool=$1 target=$2; shift 2
	local args=(--name=t --filename="$target" --direct=1 --output-format=json "$@")
	if [ "$tool" = fio ]; then
		fio "${args[@]}" 2>fio.err | sed -n '/^{/,$p' >fio.json
	else
		"$IODIG" run --no-probes --no-save "${args[@]}" >iodig.json 2>iodig.err
	fi
}
# summary TOOL DIR: error/ios/bytes of the job's DIR (read or write)
summary() { jqr ".jobs[0] | \"\(.error)/\(.$2.total_ios)/\(.$2.io_bytes)\"" "$1.json"; }

for c in "read --bs=1000 --size=1000k" "write --bs=1000 --size=250k" \
	 "randread --bs=1536 --size=768k" "read --bs=1 --size=16k"; do
	set -- $c
	rw=$1; shift
	dir=read; [[ $rw == *write ]] && dir=write
	rm -f "$TMP/tmpfs-file"
	run fio "$TMP/tmpfs-file" --rw=$rw "$@"; f=$(summary fio $dir)
	rm -f "$TMP/tmpfs-file"
	run iodig "$TMP/tmpfs-file" --rw=$rw "$@"; i=$(summary iodig $dir)
	check "tmpfs rw=$rw $*: iodig err/ios/bytes $i, fio $f" [ "${f%%/*}" = 0 -a "$i" = "$f" ]
done

for bs in 1000 1; do
	run fio "$LOOP" --rw=read --bs=$bs --size=1m; f=$(summary fio read)
	run iodig "$LOOP" --rw=read --bs=$bs --size=1m; i=$(summary iodig read)
	check "loop bs=$bs: iodig err/ios/bytes $i, fio $f (EINVAL at the first I/O)" \
		[ "${f%%/*}" = 22 -a "${i%%/*}/$(jqr '.jobs[0].read.total_ios' iodig.json)" = "22/$(jqr '.jobs[0].read.total_ios' fio.json)" ]
	check "loop bs=$bs: iodig says the kernel's error: $(head -c 120 iodig.err)" \
		grep -q "read of $bs bytes at offset 0 on $LOOP failed: Invalid argument" iodig.err
done
done_testing
