#!/bin/bash
# disk_util as fio 3.33: a job with disk_util=0 does not make its disk
# reported: no "Disk stats" section in text, no "disk_util" in JSON, none
# of terse's 9 fields per disk; a disk another job (default disk_util=1)
# uses is still reported, on every job's terse line.  Same jobs, both tools,
# on two loop devices.
. "$(dirname "$0")/lib.sh"
fio_loop_test 64
A=$LOOP
make_loop 64 || skip "cannot make a second loop device"
B=$LOOP
bn=$(basename "$B")
COMMON=(--bs=4k --size=4m --direct=1 --rw=read)

# both FORMAT ARGS...: the job's report by fio in fio.out, by iodig in iodig.out
both() {
	local fmt=$1; shift
	CASE="$* ($fmt)"
	fio "${COMMON[@]}" "$@" --output-format="$fmt" >fio.out 2>fio.err ||
		fail "fio $CASE: $(head -c 300 fio.err)"
	"$IODIG" run --no-probes --no-save "${COMMON[@]}" "$@" --output-format="$fmt" \
		>iodig.out 2>iodig.err || fail "iodig $CASE: $(head -c 300 iodig.err)"
}
# terse_shape FILE: each terse line's field count and 122nd field (the first
# disk's name), ';' between lines
terse_shape() { grep '^3;' "$1" | awk -F';' '{printf "%d:%s;", NF, $122}'; }
disks_json() { sed -n '/^{/,$p' "$1" | jq -r '[.disk_util[]?.name] | join(",")'; }

for du in 1 0; do
	both normal --name=a --filename="$A" --disk_util=$du
	f=$(grep -c '^Disk stats' fio.out) i=$(grep -c '^Disk stats' iodig.out)
	check "$CASE: 'Disk stats' sections: iodig $i, fio $f" [ "$i" = "$f" ]
	check "$CASE: iodig's says so when asked" [ "$i" = "$du" ]
	both json --name=a --filename="$A" --disk_util=$du
	f=$(sed -n '/^{/,$p' fio.out | jq 'has("disk_util")')
	i=$(sed -n '/^{/,$p' iodig.out | jq 'has("disk_util")')
	check "$CASE: JSON has disk_util: iodig $i, fio $f" [ -n "$i" -a "$i" = "$f" ]
	both terse --name=a --filename="$A" --disk_util=$du
	f=$(terse_shape fio.out) i=$(terse_shape iodig.out)
	check "$CASE: terse fields iodig '$i', fio '$f'" [ -n "$i" -a "$i" = "$f" ]
done

# one job without, one with: only the second's disk, on both lines
both terse --name=a --filename="$A" --disk_util=0 --name=b --filename="$B"
f=$(terse_shape fio.out) i=$(terse_shape iodig.out)
check "$CASE: terse fields iodig '$i', fio '$f'" [ -n "$i" -a "$i" = "$f" ]
check "$CASE: the disk is $bn's" [ "$i" = "130:$bn;130:$bn;" ]
both json --name=a --filename="$A" --disk_util=0 --name=b --filename="$B"
f=$(disks_json fio.out) i=$(disks_json iodig.out)
check "$CASE: JSON's disks iodig '$i', fio '$f'" [ "$i" = "$f" -a "$i" = "$bn" ]
done_testing
