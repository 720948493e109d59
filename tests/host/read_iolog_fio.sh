# read_iolog against fio 3.33 on a loop device of the test's own: logs written by iodig's and fio's write_iolog (v3) and a v2 one, replayed by both: the same I/O counts and bytes, a log's syncs counted as fio counts them, and each I/O's offset, in the log's order (write_lat_log with log_offset); replay_redirect, replay_scale/align; a log write_iolog wrote with numjobs (one log per clone in one file) replayed whole; a malformed line names the log and line.
source tests/host/lib.sh
need_root
command -v fio >/dev/null || skip "needs fio"
make_loop 64 || skip "cannot make a loop device"
RUN=(--no-probes --no-save --no-progress --allow-destructive)

# the offsets of a log's reads and writes, in order
log_offsets() { awk '$(NF-2) ~ /^(read|write)$/ { print $(NF-1) }' "$1"; }
# the offsets of the I/O a lat log recorded, in order
lat_offsets() { awk -F', ' '{ print $5 }' "$1"; }
same() { [ -n "$1" ] && [ "$1" = "$2" ]; }
counts() { jq -r '.jobs[0] | "\(.read.total_ios) \(.read.io_bytes) \(.write.total_ios) \(.write.io_bytes)"' "$1"; }

# replay CASE LOG ARGS...: iodig and fio replay LOG, each in its own
# directory with the same options; same counts, same offsets in order.
replay() {
	local name=$1 log=$2; shift 2
	mkdir -p "$TMP/$name/i" "$TMP/$name/f"
	(cd "$TMP/$name/i" && "$IODIG" run "${RUN[@]}" --output-format=json --name=r \
		--read_iolog="$log" --write_lat_log=lat --log_offset=1 "$@" >out.json 2>err)
	rc=$?
	check "$name: iodig replayed ($(head -c 300 "$TMP/$name/i/err"))" [ "$rc" = 0 ]
	(cd "$TMP/$name/f" && fio --output-format=json --name=r --read_iolog="$log" \
		--write_lat_log=lat --log_offset=1 "$@" >out.json 2>err)
	local ic fc
	ic=$(counts "$TMP/$name/i/out.json"); fc=$(counts "$TMP/$name/f/out.json")
	check "$name: reads, read bytes, writes, write bytes as fio's ($ic vs $fc)" \
		same "$ic" "$fc"
	check "$name: each I/O's offset in fio's order" \
		cmp -s <(lat_offsets "$TMP/$name/i/lat_lat.1.log") <(lat_offsets "$TMP/$name/f/lat_lat.1.log")
}

# Logs: iodig's (random writes and reads mixed), fio's (mixed sizes, libaio)
"$IODIG" run "${RUN[@]}" --output-format=json --name=w --filename="$LOOP" --rw=randrw --bs=4k \
	--size=1m --write_iolog="$TMP/ilog" >/dev/null 2>"$TMP/w.err"
check "iodig wrote a log ($(head -c 200 "$TMP/w.err"))" [ -s "$TMP/ilog" ]
fio --name=w --filename="$LOOP" --rw=randrw --bsrange=4k-64k --size=4m --ioengine=libaio \
	--iodepth=4 --write_iolog="$TMP/flog" >/dev/null 2>&1
check "fio wrote a log" [ -s "$TMP/flog" ]

replay iodig_log "$TMP/ilog" --ioengine=psync
check "iodig_log: the replay's offsets are the log's" \
	cmp -s <(log_offsets "$TMP/ilog") <(lat_offsets "$TMP/iodig_log/i/lat_lat.1.log")
replay fio_log "$TMP/flog" --ioengine=psync
check "fio_log: the replay's offsets are the log's" \
	cmp -s <(log_offsets "$TMP/flog") <(lat_offsets "$TMP/fio_log/i/lat_lat.1.log")
replay fio_log_libaio "$TMP/flog" --ioengine=libaio --iodepth=1
replay no_stall "$TMP/flog" --ioengine=psync --replay_no_stall=1

# version 2: the same log without its times
{ echo "fio version 2 iolog"; sed -E '1d; s/^[0-9]+ //' "$TMP/flog"; } >"$TMP/flog2"
replay v2 "$TMP/flog2" --ioengine=psync

replay scale_align "$TMP/flog" --ioengine=psync --replay_scale=3 --replay_align=8k

# replay_redirect: all of it onto a file of each tool's own (fio fails a
# read past a file's end, so the file is there and large enough)
mkdir -p "$TMP/redirect/i" "$TMP/redirect/f"
truncate -s 8m "$TMP/redirect/i/FILE" "$TMP/redirect/f/FILE"
replay redirect "$TMP/flog" --ioengine=psync --replay_redirect=FILE
check "redirect: the writes went to the file" [ -n "$(tr -d '\0' <"$TMP/redirect/i/FILE" | head -c 1)" ]

# a log of two files (relative names: each tool makes them in its directory)
mkdir -p "$TMP/mlog" && (cd "$TMP/mlog" && fio --name=m --nrfiles=2 --rw=randwrite --bs=4k \
	--size=128k --write_iolog="$TMP/mlog.log" >/dev/null 2>&1)
replay two_files "$TMP/mlog.log" --ioengine=psync
both_files() { [ -s "$1/m.0.0" ] && [ -s "$1/m.0.1" ]; }
check "two_files: both files written" both_files "$TMP/two_files/i"

# a log fio's write_iolog wrote with numjobs=3: each clone's log appended
# to the one file; fio reads on past each header and replays them all
mkdir -p "$TMP/nj" && (cd "$TMP/nj" && fio --name=n --rw=randwrite --bs=4k --size=64k \
	--numjobs=3 --write_iolog="$TMP/njlog" >/dev/null 2>&1)
check "fio wrote 3 logs into one file" [ "$(grep -c '^fio version' "$TMP/njlog")" = 3 ]
replay numjobs_log "$TMP/njlog" --ioengine=psync
check "numjobs_log: the replay's offsets are the 3 logs'" \
	cmp -s <(log_offsets "$TMP/njlog") <(lat_offsets "$TMP/numjobs_log/i/lat_lat.1.log")

# a log with fsync=/fdatasync='s sync and datasync lines: replayed, each
# sync counted in the job's sync figures as fio counts it (total_ios the
# fsyncs, lat_ns.N all)
fio --name=s --filename="$LOOP" --rw=write --bs=4k --size=128k --fsync=4 --fdatasync=3 \
	--write_iolog="$TMP/slog" >/dev/null 2>&1
check "fio logged syncs and datasyncs" [ "$(grep -cE ' (sync|datasync) ' "$TMP/slog")" -gt 8 ]
syncs() { jq -r '.jobs[0] | "\(.sync.total_ios) \(.sync.lat_ns.N)"' "$1"; }
for e in psync libaio; do
	replay "syncs_$e" "$TMP/slog" --ioengine=$e
	is=$(syncs "$TMP/syncs_$e/i/out.json") fs=$(syncs "$TMP/syncs_$e/f/out.json")
	check "syncs_$e: fsyncs, syncs as fio's ($is vs $fs)" same "$is" "$fs"
done

# a malformed line: the log and the line named, nothing run
{ head -4 "$TMP/flog"; echo "123 $LOOP write 4096"; tail -n +5 "$TMP/flog"; } >"$TMP/bad.log"
mkdir -p "$TMP/bad" && (cd "$TMP/bad" && "$IODIG" run "${RUN[@]}" --name=r --read_iolog="$TMP/bad.log" \
	--write_lat_log=lat >/dev/null 2>err)
check "bad line: refused" [ $? != 0 ]
check "bad line: names the log and line 5 ($(cat "$TMP/bad/err"))" grep -q "bad.log:5: expected" "$TMP/bad/err"
check "bad line: nothing was written" [ ! -e "$TMP/bad/lat_lat.1.log" ]
done_testing
