# Disk full while the report is written (--output on a full 64k tmpfs, stdout on /dev/full): non-zero exit, one message naming the file and the reason, no partial report, no temp file, no scratch device or BPF program left.
source tests/host/lib.sh
source tests/host/fault.lib
need_root
REPO=$PWD
cd "$TMP" || exit 1
MNT=$TMP/full
mkdir -p "$MNT"
mount -t tmpfs -o size=64k iodig-test-full "$MNT" || skip "cannot mount a tmpfs"
trap 'umount -l "$MNT" 2>/dev/null; cleanup' EXIT

JOB=(--name=df --rw=randread --bs=4k --ioengine=io_uring --iodepth=8 --runtime=1
     --time_based --target=scratch --scratch-size=64m --output-format=normal,json --no-progress)

# Leave 8k: the temp file is created, then a write fails part way.
head -c $((56 * 1024)) /dev/zero >"$MNT/pad" 2>/dev/null
"$IODIG" run "${JOB[@]}" --output="$MNT/report.json" >/dev/null 2>"$TMP/err" &
pid=$!
bpf_track "$pid" "$TMP/ids" &
wait $pid
rc=$?
wait
echo "--output on full tmpfs: exit $rc, stderr: $(cat "$TMP/err")"
check "exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "message names the file" grep -q "$MNT/report.json" "$TMP/err"
check "message gives the reason (no space)" grep -qi "no space left" "$TMP/err"
check "no report file" [ ! -e "$MNT/report.json" ]
check "no temp file left: $(ls "$MNT")" [ -z "$(ls "$MNT" | grep -v '^pad$')" ]
check "no scratch device or file left" [ -z "$(scratch_devs_of "$pid")$(scratch_files_of "$pid")" ]
left=$(bpf_leftovers "$TMP/ids")
check "$(sort -u "$TMP/ids" | wc -l) BPF ids tracked, none left: $left" [ -s "$TMP/ids" -a -z "$left" ]

# An earlier report at the path stays untouched (the rename never happens).
rm -f "$MNT/pad"
echo previous >"$MNT/report.json"
head -c $((52 * 1024)) /dev/zero >"$MNT/pad" 2>/dev/null
"$IODIG" run "${JOB[@]}" --output="$MNT/report.json" >/dev/null 2>"$TMP/err"
rc=$?
check "full again: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "earlier report kept intact" [ "$(cat "$MNT/report.json")" = previous ]
check "no temp file left: $(ls "$MNT")" [ -z "$(ls "$MNT" | grep -v -e '^pad$' -e '^report.json$')" ]

# stdout on a full device.
"$IODIG" run "${JOB[@]}" >/dev/full 2>"$TMP/err" &
pid=$!
wait $pid
rc=$?
echo "stdout on /dev/full: exit $rc, stderr: $(cat "$TMP/err")"
check "stdout full: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "stdout full: message says so" grep -qi "stdout" "$TMP/err"
check "stdout full: no scratch device or file left" [ -z "$(scratch_devs_of "$pid")$(scratch_files_of "$pid")" ]
umount "$MNT" && trap cleanup EXIT
check "tmpfs unmounted" bash -c "! mountpoint -q '$MNT'"
done_testing
