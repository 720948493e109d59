#!/bin/bash
# invalidate against fio 3.33: a buffered read of data already in the page
# cache reaches the device with invalidate=1 (fio's default: a file's
# pages dropped by posix_fadvise, a block device's cache by BLKFLSBUF)
# and does not with invalidate=0, for a file on ext4 and for the block
# device itself.  What reached the device is the device's own read
# counter (/sys/block/X/stat) around each run, for iodig and fio alike,
# and iodig's disk_util figure.  A run in which another task evicted any
# of the device's cached pages is run again: what it read was not its
# own doing (docs/testing.md, "Tests on a busy machine").
# timeout: 120
. "$(dirname "$0")/lib.sh"
need_root
command -v fio >/dev/null || skip "no fio"
command -v jq >/dev/null || skip "no jq"
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
make_loop 64 || skip "no loop device"
own_tracefs invalidate_fio
DEV=$(basename "$LOOP")
MIB8=$((8 * 2048))  # sectors of the 8 MiB the jobs read
ATTEMPTS=3

sectors_read() { awk '{print $3}' "/sys/block/$DEV/stat"; }
# run TOOL TARGET INVALIDATE: sets READ to the sectors the device read
# during a buffered sequential read of 8 MiB of TARGET, its cache warmed
# first, and EVICTED to the other tasks that evicted cached pages of the
# device meanwhile.  The warming read takes the whole target: the job's
# own readahead runs up to twice read_ahead_kb past its 8 MiB
# (fadvise_hint's default advises a sequential job POSIX_FADV_SEQUENTIAL),
# and on the 64 MiB device those pages must be cached too, or a run with
# invalidate=0 reads them.
run() {
	local tool=$1 target=$2 inv=$3 before
	evictions_watch "$LOOP" "$tool"
	dd if="$target" of=/dev/null bs=1M status=none
	settle "$DEV"  # the warming read's readahead past its end
	before=$(sectors_read)
	if [ "$tool" = iodig ]; then
		"$IODIG" run --no-probes --no-save --output-format=json --name=r \
			--filename="$target" --rw=read --bs=4k --size=8m \
			--invalidate="$inv" >"$TMP/iodig.json" 2>"$TMP/err" ||
			fail "iodig on $target: $(head -c 200 "$TMP/err")"
	else
		fio --output-format=json --name=r --filename="$target" --rw=read \
			--bs=4k --size=8m --invalidate="$inv" >/dev/null 2>&1 ||
			fail "fio on $target failed"
	fi
	READ=$(($(sectors_read) - before))
	EVICTED=$(evictions)
}
# measure TOOL TARGET INVALIDATE: run, again while another task evicted
# part of the cache during it, at most ATTEMPTS times
measure() {
	local try
	for try in $(seq "$ATTEMPTS"); do
		run "$@"
		[ -z "$EVICTED" ] && return
		echo "note: $EVICTED evicted cached pages of $DEV during $1's run $try with invalidate=$3 (it read $READ sectors)"
	done
	fail "$1 on $2: $EVICTED evicted cached pages during each of $ATTEMPTS runs"
}
# both TARGET WHAT: the four runs and their checks
both() {
	local target=$1 what=$2 tool
	for tool in iodig fio; do
		measure $tool "$target" 0
		check "$what, $tool, invalidate=0: cached, the device read $READ sectors" [ "$READ" -eq 0 ]
		[ $tool = iodig ] && check "$what: iodig's disk_util shows no reads" \
			[ "$(jqr '.disk_util[0].read_ios' "$TMP/iodig.json")" = 0 ]
		measure $tool "$target" 1
		check "$what, $tool, invalidate=1: the device read $READ sectors (>= $MIB8)" \
			[ "$READ" -ge "$MIB8" ]
		[ $tool = iodig ] && check "$what: iodig's disk_util shows the reads" \
			[ "$(jqr '.disk_util[0].read_ios' "$TMP/iodig.json")" -gt 0 ]
	done
}

# The block device: its cache lives while it is open (the last close
# drops it), so the test holds it open throughout.
dd if=/dev/urandom of="$LOOP" bs=1M count=8 status=none
exec 9<"$LOOP"
both "$LOOP" "block device"
exec 9<&-

# A file on ext4, written and synced, so its pages are cached and clean.
mkfs.ext4 -q "$LOOP" || skip "mkfs.ext4 failed"
mkdir "$TMP/mnt" && mount "$LOOP" "$TMP/mnt" || skip "cannot mount ext4"
dd if=/dev/urandom of="$TMP/mnt/f" bs=1M count=8 status=none conv=fsync
both "$TMP/mnt/f" "ext4 file"
done_testing
