# The target fails mid-run: a loop device whose backing tmpfs fills up (writes fail with ENOSPC), a target detached with losetup -d, iodig's own scratch device detached, the backing file truncated (EIO); each ends with the right exit status and message, a valid report, and no leftovers. timeout: 240
source tests/host/lib.sh
source tests/host/fault.lib
need_root
REPO=$PWD
cd "$TMP" || exit 1
MNT=$TMP/small
mkdir -p "$MNT"
mount -t tmpfs -o size=4m iodig-test-small "$MNT" || skip "cannot mount a tmpfs"
trap 'umount -l "$MNT" 2>/dev/null; cleanup' EXIT

# run_bg ARGS...: starts iodig with a BPF tracker; sets PID
run_bg() {
	"$IODIG" run --no-progress --output-format=json --output="$TMP/out.json" "$@" \
		>/dev/null 2>"$TMP/err" &
	PID=$!
	: >"$TMP/ids"
	bpf_track "$PID" "$TMP/ids" &
}
# finish TAG: waits, sets RC, checks what every case must leave behind
finish() {
	wait "$PID"
	RC=$?
	wait
	echo "--- $1: exit $RC, stderr: $(tr '\n' ' ' <"$TMP/err")"
	check "$1: report is valid JSON" jqe '.jobs[0].job_runtime >= 0' "$TMP/out.json"
	check "$1: no temp output" [ -z "$(ls "$TMP" | grep iodig-tmp)" ]
	check "$1: no scratch device or file" [ -z "$(scratch_devs_of "$PID")$(scratch_files_of "$PID")" ]
	local left
	left=$(bpf_leftovers "$TMP/ids")
	check "$1: $(sort -u "$TMP/ids" | wc -l) BPF ids tracked, none left: $left" [ -s "$TMP/ids" -a -z "$left" ]
}

# 1. Writes fail part way: the loop's 32 MiB sparse backing file lives on a
#    4 MiB tmpfs, so the loop driver gets ENOSPC from tmpfs after ~4 MiB.
for engine in libaio io_uring psync; do
	rm -f "$MNT/back"
	truncate -s 32M "$MNT/back"
	DEV=$(losetup -f --show "$MNT/back") || skip "cannot create a loop device"
	LOOPS+=("$DEV")
	# startdelay: the writes fail within milliseconds of the first, so
	# the probes stay attached a second before it, long enough for the
	# tracker to see their ids on a loaded machine.
	run_bg --probes=block,sched --name=e --filename="$DEV" --rw=write --bs=64k --size=16m \
		--ioengine=$engine --iodepth=4 --direct=1 --startdelay=1
	finish "backing full ($engine)"
	check "full ($engine): exit 1 (got $RC)" [ "$RC" -eq 1 ]
	check "full ($engine): message names job, device and reason" \
		grep -Eq "job 'e'.*$DEV.*(No space left|Input/output error)" "$TMP/err"
	check "full ($engine): JSON error is ENOSPC or EIO" \
		jqe '.jobs[0].error == 28 or .jobs[0].error == 5' "$TMP/out.json"
	check "full ($engine): report covers the writes done before" \
		jqe '.jobs[0].write.io_bytes >= 1048576' "$TMP/out.json"
	losetup -d "$DEV"
done
rm -f "$MNT/back"
umount "$MNT" && trap cleanup EXIT

# 2. losetup -d on the target mid-run: the kernel defers the detach to the
#    last close, so the run completes and the device goes away after it.
make_loop 64 || skip "cannot create a loop device"
run_bg --probes=block --name=d --filename="$LOOP" --rw=randread --bs=4k --size=64m \
	--ioengine=io_uring --iodepth=8 --direct=1 --runtime=3 --time_based
await_workers "$PID" >/dev/null
sleep 1
losetup -d "$LOOP"
finish "losetup -d mid-run"
check "detached: exit 0 (got $RC)" [ "$RC" -eq 0 ]
check "detached: reads done after the detach (runtime ~3 s)" \
	jqe '.jobs[0].job_runtime >= 2500 and .jobs[0].read.io_bytes > 0' "$TMP/out.json"
check "detached: device gone after the run" wait_for bash -c "! losetup '$LOOP' >/dev/null 2>&1"

# 3. Someone detaches iodig's own scratch device mid-run.
run_bg --probes=block --name=s --rw=randwrite --bs=4k --size=32m --target=scratch --scratch-size=64m \
	--ioengine=psync --runtime=3 --time_based
await_workers "$PID" >/dev/null
sleep 1
sdev=$(scratch_devs_of "$PID")
check "scratch device found mid-run ($sdev)" [ -n "$sdev" ]
[ -n "$sdev" ] && losetup -d "/dev/${sdev##*/}"
finish "scratch detached mid-run"
check "scratch detached: exit 0 (got $RC)" [ "$RC" -eq 0 ]

# 4. The backing file is truncated to 0 mid-run: the loop driver fails
#    direct reads past the file's end with EIO.
make_loop 64 || skip "cannot create a loop device"
back=$(cat /sys/block/"${LOOP##*/}"/loop/backing_file)
run_bg --probes=block --name=t --filename="$LOOP" --rw=randread --bs=4k --size=64m \
	--ioengine=libaio --iodepth=8 --direct=1 --runtime=3 --time_based
await_workers "$PID" >/dev/null
sleep 1
truncate -s 0 "$back"
finish "backing truncated mid-run"
check "truncated: exit 1 (got $RC)" [ "$RC" -eq 1 ]
check "truncated: message names job, device and EIO" \
	grep -Eq "job 't': read .* on $LOOP failed: Input/output error" "$TMP/err"
check "truncated: JSON error is EIO" jqe '.jobs[0].error == 5' "$TMP/out.json"
check "truncated: report covers the reads done before" jqe '.jobs[0].read.io_bytes > 0' "$TMP/out.json"
done_testing
