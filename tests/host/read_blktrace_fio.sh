# read_iolog of a blktrace binary trace against fio 3.33: a fio job's I/O on one loop device, captured with blktrace (or, where blktrace cannot capture, made from the block tracepoints' queue, merge and complete events into the records of the kernel's include/uapi/linux/blktrace_api.h), replayed by both tools onto another loop device (replay_redirect): the same counts, syncs, sectors the device saw (/sys/block/*/stat), offsets in the trace's order; in big-endian records too; replay_scale/align/skip; the trace's own device; the trace's depth; a cut-short or corrupt trace is one error naming the file and byte.
source tests/host/lib.sh
fio_loop_test 64
SRC=$LOOP
make_loop 64 || skip "cannot make a second loop device"
DST=$LOOP
RUN=(--no-probes --no-save --no-progress --allow-destructive)
JOB=(--name=c --filename="$SRC" --rw=randrw --bs=4k --size=2m --direct=1 --ioengine=libaio
	--iodepth=4 --fsync=8)

# blktrace_api.h's struct blk_io_trace: magic, sequence, time, sector, bytes,
# action, pid, device, cpu, error, pdu_len (48 bytes); an action is its
# categories (1 << 16 + bit) | what happened (queue 1, merges 2 and 3,
# complete 8)
cat >"$TMP/bt.py" <<'EOF'
import re, struct, sys
FMT = 'IIQQIIIIIHH'
MAGIC = 0x65617400 | 7
def tc(bit): return 1 << (16 + bit)
def records(path, order):
    data, at = open(path, 'rb').read(), 0
    while at + 48 <= len(data):
        r = struct.unpack(order + FMT, data[at:at + 48])
        yield at, r
        at += 48 + r[10]
def order_of(path):
    return '<' if struct.unpack('<I', open(path, 'rb').read(4))[0] >> 8 == MAGIC >> 8 else '>'
cmd = sys.argv[1]
if cmd == 'queued':  # what fio replays: the offsets of queued reads and writes
    for at, r in records(sys.argv[2], order_of(sys.argv[2])):
        act = r[5]
        if act & 0xffff == 1 and not act & (tc(10) | tc(2) | tc(13)) and r[4]:
            print(r[3] * 512)
elif cmd == 'swap':  # the same trace in the other byte order
    src, out = sys.argv[2], sys.argv[3]
    o = order_of(src)
    with open(out, 'wb') as f:
        data = open(src, 'rb').read()
        for at, r in records(src, o):
            f.write(struct.pack(('>' if o == '<' else '<') + FMT, *r))
            f.write(data[at + 48:at + 48 + r[10]])
elif cmd == 'corrupt':  # record N's magic zeroed
    data = bytearray(open(sys.argv[2], 'rb').read())
    at = [a for a, r in records(sys.argv[2], order_of(sys.argv[2]))][int(sys.argv[4])]
    data[at:at + 4] = b'\0\0\0\0'
    open(sys.argv[3], 'wb').write(data)
    print(at)
elif cmd == 'from_events':  # tracepoint lines to records
    ev_act = {'block_bio_queue': 1, 'block_bio_backmerge': 2,
              'block_bio_frontmerge': 3, 'block_rq_complete': 8}
    line_re = re.compile(r'\s(\d+\.\d+): (block_\w+): (\d+),(\d+) (\w+) (?:\(\) )?(\d+) \+ (\d+)')
    def cats(rwbs):  # the kernel's blk_fill_rwbs read backwards
        c, i = 0, 0
        if len(rwbs) > 1 and rwbs[0] == 'F' and rwbs[1] in 'RWDN':
            c, i = tc(2), 1  # a preflush
        c |= {'R': tc(0), 'W': tc(1), 'D': tc(13) | tc(1), 'F': tc(2)}.get(rwbs[i:i + 1], 0)
        for ch in rwbs[i + 1:]:
            c |= {'S': tc(3), 'M': tc(12), 'A': tc(11), 'F': tc(15)}.get(ch, 0)
        return c | tc(8)  # fs requests
    with open(sys.argv[3], 'wb') as f:
        pdu = b'fio'.ljust(16, b'\0')  # a process notify, its comm as pdu, as blktrace writes
        f.write(struct.pack('<' + FMT, MAGIC, 0, 0, 0, 0, tc(10), 1, 0, 0, 0, len(pdu)) + pdu)
        for seq, line in enumerate(open(sys.argv[2])):
            m = line_re.search(line)
            if m:
                ts, ev, maj, mnr, rwbs, sector, nsec = m.groups()
                f.write(struct.pack('<' + FMT, MAGIC, seq, int(round(float(ts) * 1e9)),
                                    int(sector), int(nsec) * 512, ev_act[ev] | cats(rwbs),
                                    0, int(maj) << 20 | int(mnr), 0, 0, 0))
EOF

# capture_blktrace: the job's trace by blktrace itself into $TMP/trace.bin
# (blkparse -d), debugfs mounted for it if it was not; fails where blktrace
# cannot capture, its reason in $TMP/blktrace.err
capture_blktrace() {
	if ! command -v blktrace >/dev/null || ! command -v blkparse >/dev/null; then
		echo "blktrace is not installed" >"$TMP/blktrace.err"
		return 1
	fi
	if ! mountpoint -q /sys/kernel/debug; then
		mount -t debugfs none /sys/kernel/debug 2>"$TMP/blktrace.err" || return 1
		DEBUGFS_MINE=1
	fi
	mkdir -p "$TMP/bt"
	blktrace -d "$SRC" -o cap -D "$TMP/bt" -w 60 >"$TMP/blktrace.out" 2>"$TMP/blktrace.err" &
	local bt=$! i
	# it traces once its per-CPU relay files are open, or fails opening them
	for i in $(seq 40); do
		[ -s "$TMP/blktrace.err" ] || ! kill -0 $bt 2>/dev/null && break
		[ -e "$TMP/bt/cap.blktrace.0" ] && [ "$i" -gt 10 ] && break
		sleep 0.05
	done
	if [ -s "$TMP/blktrace.err" ] || ! kill -0 $bt 2>/dev/null; then
		kill -INT $bt 2>/dev/null; wait $bt 2>/dev/null
		return 1
	fi
	fio "${JOB[@]}" >/dev/null 2>&1
	kill -INT $bt && wait $bt
	blkparse -i cap -D "$TMP/bt" -d "$TMP/trace.bin" -O >/dev/null 2>>"$TMP/blktrace.err" &&
		[ -s "$TMP/trace.bin" ]
}
# capture_events: the same job's queue, merge and complete events of the
# block tracepoints, made into blktrace records in $TMP/trace.bin
capture_events() {
	own_tracefs iodig-blktrace
	trap 'rmdir "$INST" 2>/dev/null; umount -q "$TRACE"; unmount_debugfs; cleanup' EXIT
	local e evs=(block_bio_queue block_bio_backmerge block_bio_frontmerge block_rq_complete)
	for e in "${evs[@]}"; do
		[ -d "$INST/events/block/$e" ] || skip "no $e tracepoint"
		dev_filter "$SRC" >"$INST/events/block/$e/filter"
		echo 1 >"$INST/events/block/$e/enable"
	done
	fio "${JOB[@]}" >/dev/null 2>&1
	for e in "${evs[@]}"; do echo 0 >"$INST/events/block/$e/enable"; done
	python3 "$TMP/bt.py" from_events "$INST/trace" "$TMP/trace.bin"
}
DEBUGFS_MINE=0
unmount_debugfs() { [ "$DEBUGFS_MINE" = 1 ] && umount /sys/kernel/debug; return 0; }
trap 'unmount_debugfs; cleanup' EXIT

command -v python3 >/dev/null || skip "needs python3 to read and write trace records"
if capture_blktrace; then
	echo "note: the trace is blktrace's"
else
	echo "note: blktrace cannot capture here ($(head -c 200 "$TMP/blktrace.err" | tr '\n' ' ')); the trace is made from the block tracepoints"
	capture_events
fi
unmount_debugfs; DEBUGFS_MINE=0
python3 "$TMP/bt.py" queued "$TMP/trace.bin" >"$TMP/queued"
check "the trace has the job's 512 reads and writes ($(wc -l <"$TMP/queued"))" \
	[ "$(wc -l <"$TMP/queued")" = 512 ]

same() { [ -n "$1" ] && [ "$1" = "$2" ]; }
json() { sed -n '/^{/,$p' "$1"; } # fio prints notes before its JSON
counts() { json "$1" | jq -r '.jobs[0] | "\(.read.total_ios) \(.read.io_bytes) \(.write.total_ios) \(.write.io_bytes) \(.sync.total_ios)"'; }
lat_offsets() { awk -F', ' '{ print $5 }' "$1"; }
# reads, sectors read, writes, sectors written of device $1 so far
dev_stat() { awk '{ print $1, $3, $5, $7 }' "/sys/block/${1#/dev/}/stat"; }
delta() { paste -d' ' <(echo "$2") <(echo "$1") | awk '{ print $5 - $1, $6 - $2, $7 - $3, $8 - $4 }'; }

# replay CASE DEVICE ARGS...: iodig and fio replay the trace, each in its
# own directory, with the same options, direct so that DEVICE sees each
# I/O: the same counts, the same requests at DEVICE, the same offsets
replay() {
	local name=$1 dev=$2 before ic fc is fs rc; shift 2
	mkdir -p "$TMP/$name/i" "$TMP/$name/f"
	settle "${dev#/dev/}"; before=$(dev_stat "$dev")
	(cd "$TMP/$name/i" && "$IODIG" run "${RUN[@]}" --output-format=json --name=r --direct=1 \
		--write_lat_log=lat --log_offset=1 "$@" >out.json 2>err)
	rc=$?
	check "$name: iodig replayed ($(head -c 300 "$TMP/$name/i/err"))" [ "$rc" = 0 ]
	settle "${dev#/dev/}"; is=$(delta "$(dev_stat "$dev")" "$before"); before=$(dev_stat "$dev")
	(cd "$TMP/$name/f" && fio --output-format=json --name=r --direct=1 --write_lat_log=lat \
		--log_offset=1 "$@" >out.json 2>err)
	settle "${dev#/dev/}"; fs=$(delta "$(dev_stat "$dev")" "$before")
	ic=$(counts "$TMP/$name/i/out.json"); fc=$(counts "$TMP/$name/f/out.json")
	check "$name: reads, bytes, writes, bytes, syncs as fio's ($ic vs $fc)" same "$ic" "$fc"
	check "$name: $dev saw fio's reads, sectors, writes, sectors ($is vs $fs)" same "$is" "$fs"
	check "$name: each I/O's offset in fio's order" \
		cmp -s <(lat_offsets "$TMP/$name/i/lat_lat.1.log") <(lat_offsets "$TMP/$name/f/lat_lat.1.log")
}

replay redirect "$DST" --read_iolog="$TMP/trace.bin" --replay_redirect="$DST" --ioengine=psync
check "redirect: the replay's offsets are the trace's queued ones" \
	cmp -s "$TMP/queued" <(lat_offsets "$TMP/redirect/i/lat_lat.1.log")
check "redirect: the trace's fsyncs were replayed ($(counts "$TMP/redirect/i/out.json"))" \
	[ "$(counts "$TMP/redirect/i/out.json" | cut -d' ' -f5)" -gt 0 ]

python3 "$TMP/bt.py" swap "$TMP/trace.bin" "$TMP/trace.be"
replay big_endian "$DST" --read_iolog="$TMP/trace.be" --replay_redirect="$DST" --ioengine=psync
check "big_endian: the replay's offsets are the trace's queued ones" \
	cmp -s "$TMP/queued" <(lat_offsets "$TMP/big_endian/i/lat_lat.1.log")

replay scale_align "$DST" --read_iolog="$TMP/trace.bin" --replay_redirect="$DST" --ioengine=psync \
	--replay_scale=3 --replay_align=8k
replay skip_writes "$DST" --read_iolog="$TMP/trace.bin" --replay_redirect="$DST" --ioengine=psync \
	--replay_skip=write,sync --replay_no_stall=1
# no redirect: onto the trace's own device, found by its major:minor
replay own_device "$SRC" --read_iolog="$TMP/trace.bin" --ioengine=psync --replay_no_stall=1

# the trace's depth (the job's 4) is the job's unless it sets iodepth: I/O
# at depths above 1 in both tools, none with iodepth=1.  The device sees
# the same requests; fio's lat log is in completion order and its io_bytes
# fall a few blocks short of what it issued here, so only the I/O counts
# are compared.
deep() { json "$1" | jq -r '.jobs[0].iodepth_level | [.["2"], .["4"], .["8"]] | add > 0'; }
ios() { json "$1" | jq -r '.jobs[0] | "\(.read.total_ios) \(.write.total_ios) \(.sync.total_ios)"'; }
mkdir -p "$TMP/depth/i" "$TMP/depth/f"
settle "${DST#/dev/}"; before=$(dev_stat "$DST")
(cd "$TMP/depth/i" && "$IODIG" run "${RUN[@]}" --output-format=json --name=r --direct=1 \
	--read_iolog="$TMP/trace.bin" --replay_redirect="$DST" --ioengine=libaio \
	--replay_no_stall=1 >out.json 2>err)
settle "${DST#/dev/}"; is=$(delta "$(dev_stat "$DST")" "$before"); before=$(dev_stat "$DST")
(cd "$TMP/depth/f" && fio --output-format=json --name=r --direct=1 --read_iolog="$TMP/trace.bin" \
	--replay_redirect="$DST" --ioengine=libaio --replay_no_stall=1 >out.json 2>err)
settle "${DST#/dev/}"; fs=$(delta "$(dev_stat "$DST")" "$before")
check "depth: $DST saw fio's reads, sectors, writes, sectors ($is vs $fs)" same "$is" "$fs"
ic=$(ios "$TMP/depth/i/out.json") fc=$(ios "$TMP/depth/f/out.json")
check "depth: reads, writes, syncs as fio's ($ic vs $fc)" same "$ic" "$fc"
check "depth: fio took the trace's depth" [ "$(deep "$TMP/depth/f/out.json")" = true ]
check "depth: iodig took the trace's depth" [ "$(deep "$TMP/depth/i/out.json")" = true ]
(cd "$TMP/depth/i" && "$IODIG" run "${RUN[@]}" --output-format=json --name=r --read_iolog="$TMP/trace.bin" \
	--replay_redirect="$DST" --ioengine=libaio --replay_no_stall=1 --iodepth=1 >one.json 2>/dev/null)
check "depth: iodepth=1 overrides it" [ "$(deep "$TMP/depth/i/one.json")" = false ]

# a cut-short trace and a corrupt record: one error naming the file and the
# record's byte offset, nothing run (fio 3.33 replays what it read up to a
# cut-short record)
bad() {
	local name=$1 file=$2 want=$3
	mkdir -p "$TMP/$name" && (cd "$TMP/$name" && "$IODIG" run "${RUN[@]}" --name=r --read_iolog="$file" \
		--replay_redirect="$DST" --write_lat_log=lat >/dev/null 2>err)
	local rc=$?
	check "$name: refused" [ "$rc" != 0 ]
	check "$name: names the file and byte ($(cat "$TMP/$name/err"))" grep -qE "$want" "$TMP/$name/err"
	check "$name: nothing was run" [ ! -e "$TMP/$name/lat_lat.1.log" ]
}
size=$(stat -c %s "$TMP/trace.bin")
head -c $((size - 20)) "$TMP/trace.bin" >"$TMP/cut.bin"
bad cut_short "$TMP/cut.bin" "cut.bin: byte [0-9]+: a blktrace record cut short \\([0-9]+ of its 48 bytes\\)"
at=$(python3 "$TMP/bt.py" corrupt "$TMP/trace.bin" "$TMP/corrupt.bin" 100)
bad corrupt "$TMP/corrupt.bin" "corrupt.bin: byte $at: not a blktrace record"
done_testing
