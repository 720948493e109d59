#!/bin/bash
# fadvise_hint against fio 3.33: what a buffered (direct=0) read job sends
# to the block device, its cache dropped before each run, is the same
# under iodig as under fio, with the default hint (1) and with 0, random
# and sequential: the device's read requests and sectors
# (/sys/block/X/stat) around each run.  Sequential and random reads of a
# raw loop device, of a file on ext4 on it and of a job's two files there
# (nrfiles), the mmap engine (whose madvise fio 3.33 gives by rw for any
# hint but 0), and iodig's own block tracepoint counts.  Repeated runs of
# fio give the same two numbers (but now and then a few requests more;
# mmap's on a block device within a few), so iodig's must be the same.
# The hint must matter too (RANDOM: one request per 4 KiB read;
# SEQUENTIAL: reads further than no advice, or the same in fewer
# requests), so agreeing cannot be vacuous.
# timeout: 180
. "$(dirname "$0")/lib.sh"
fio_loop_test 64
command -v mkfs.ext4 >/dev/null || skip "no mkfs.ext4"
DEV=$(basename "$LOOP")
BLOCKS=2048  # 4 KiB reads of the 8 MiB each job reads

stat_reads() { awk '{print $1, $3}' "/sys/block/$DEV/stat"; }
# drop TARGET: its cached pages go (a file's by POSIX_FADV_DONTNEED, each
# of a directory's files so, the device's by BLKFLSBUF) without touching
# the rest of the machine's cache
drop() {
	local f
	if [ -d "$1" ]; then
		for f in "$1"/*; do dd if="$f" iflag=nocache count=0 status=none; done
	elif [ -f "$1" ]; then
		dd if="$1" iflag=nocache count=0 status=none
	else
		blockdev --flushbufs "$1"
	fi
}
# run TOOL TARGET ARGS...: READ is "REQUESTS SECTORS", what the device
# read during an 8 MiB buffered 4 KiB read job of TARGET (a directory:
# the job's two files in it) with ARGS
run() {
	local tool=$1 target=$2 before after where
	shift 2
	where=(--filename="$target")
	[ -d "$target" ] && where=(--directory="$target" --nrfiles=2)
	drop "$target"
	settle "$DEV"
	before=$(stat_reads)
	if [ "$tool" = iodig ]; then
		"$IODIG" run ${PROBES:---no-probes} --no-save --output-format=json \
			--name=r "${where[@]}" --bs=4k --size=8m "$@" \
			>"$TMP/iodig.json" 2>"$TMP/err" ||
			fail "iodig $* on $target: $(head -c 200 "$TMP/err")"
	else
		fio --name=r "${where[@]}" --bs=4k --size=8m "$@" \
			>"$TMP/out" 2>&1 || fail "fio $* on $target: $(head -c 200 "$TMP/out")"
	fi
	settle "$DEV"
	after=$(stat_reads)
	READ=$(echo "$before $after" | awk '{print $3 - $1, $4 - $2}')
}
# same I F: reads I and F ("requests sectors") agree: equal, or with
# SLACK set, the same sectors in request counts within SLACK percent of
# the larger
same() {
	[ "$1" = "$2" ] && return
	[ -n "${SLACK:-}" ] && echo "$1 $2" | awk -v p="$SLACK" '
		{ d = $1 - $3; if (d < 0) d = -d; m = $1 > $3 ? $1 : $3
		  exit !($2 == $4 && d * 100 <= m * p) }'
}
# compare WHAT TARGET ARGS...: iodig's and fio's requests and sectors
# agree; sets IOS to iodig's request count, SECTORS to its sectors.  A
# pair that differs is run again, up to three times: on a busy machine a
# run with readahead now and then sends a few requests more than the same
# run did before, while a real difference shows in every pair.
compare() {
	local what=$1 target=$2 f i try
	shift 2
	for try in 1 2 3; do
		run fio "$target" "$@"; f=$READ
		run iodig "$target" "$@"; i=$READ
		same "$i" "$f" && break
		echo "note: $what: try $try: iodig '$i', fio '$f'"
	done
	check "$what: iodig read (requests sectors) '$i', fio '$f'${SLACK:+ (requests within $SLACK%)}" \
		same "$i" "$f"
	IOS=${i%% *}
	SECTORS=${i#* }
}
# fewer N: N requests read the 8 MiB, fewer than one per 4 KiB read
fewer() { [ "$1" -gt 0 ] && [ "$1" -lt "$BLOCKS" ]; }
# further R1 S1 R0 S0: R1 requests of S1 sectors read ahead further than R0
# of S0: past more of a device (a doubled window reads beyond the job's 8
# MiB, in requests as large as the device takes, so not always fewer), or,
# where the end of a file stops both, the same in fewer requests
further() { [ "$2" -gt "$4" ] || { [ "$2" -eq "$4" ] && [ "$1" -lt "$3" ]; }; }
# cases WHAT TARGET: the sequential and random jobs, and the checks that
# the hint changed what the device saw
cases() {
	local what=$1 target=$2 seq_default seq_none seq_random seq_seq seq_seq_read
	compare "$what, read, default" "$target" --rw=read; seq_default=$IOS
	compare "$what, read, hint 0" "$target" --rw=read --fadvise_hint=0
	seq_none="$IOS $SECTORS"
	compare "$what, read, hint random" "$target" --rw=read --fadvise_hint=random
	seq_random=$IOS
	compare "$what, read, hint sequential" "$target" --rw=read --fadvise_hint=sequential
	seq_seq=$IOS; seq_seq_read="$IOS $SECTORS"
	check "$what: hint random reads each 4 KiB alone ($seq_random = $BLOCKS requests)" \
		[ "$seq_random" -eq "$BLOCKS" ]
	check "$what: hint sequential ('$seq_seq_read') reads ahead further than 0 ('$seq_none')" \
		further $seq_seq_read $seq_none
	check "$what: the default for read is sequential ($seq_default = $seq_seq requests)" \
		[ "$seq_default" -eq "$seq_seq" ]
	compare "$what, randread, default" "$target" --rw=randread
	check "$what: the default for randread is random ($IOS = $BLOCKS requests)" \
		[ "$IOS" -eq "$BLOCKS" ]
	compare "$what, randread, hint 0" "$target" --rw=randread --fadvise_hint=0
	check "$what: randread with hint 0 reads ahead ($IOS < $BLOCKS requests)" \
		fewer "$IOS"
}

dd if=/dev/urandom of="$LOOP" bs=1M count=16 status=none
cases "block device" "$LOOP"
# mmap: fio 3.33 madvises the mapping by rw unless the hint is 0, so a
# sequential job with hint random faults in readahead-sized pieces (its
# fadvise only takes away the window's doubling), and a random job with
# hint 0 gets the kernel's fault-around.  Faults that read ahead on a
# block device merge as their timing lets them: the same sectors, in 15
# to 20 requests run to run for fio alone, so the counts agree within 40%
# (a real difference in advice reads other sectors, or one request per 4
# KiB)
SLACK=40
compare "block device, mmap read, hint random" "$LOOP" --rw=read --ioengine=mmap \
	--fadvise_hint=random
check "mmap read, hint random: readahead-sized faults ($IOS < $BLOCKS requests)" \
	fewer "$IOS"
compare "block device, mmap randread, default" "$LOOP" --rw=randread --ioengine=mmap
check "mmap randread, default: MADV_RANDOM, a fault per 4 KiB ($IOS requests)" \
	[ "$IOS" -eq "$BLOCKS" ]
compare "block device, mmap randread, hint 0" "$LOOP" --rw=randread --ioengine=mmap \
	--fadvise_hint=0
check "mmap randread, hint 0: fault-around ($IOS < $BLOCKS requests)" \
	fewer "$IOS"
SLACK=

# iodig's own report: its block tracepoints count the requests the device
# counted, so the hint shows there too
reported() { # WHAT ARGS...
	local what=$1 got
	shift
	PROBES=--probes=block run iodig "$LOOP" "$@"
	got=$(jqr '"\(.iodig.kernel.block.requests.read) \(.iodig.kernel.block.bytes.read / 512)"' \
		"$TMP/iodig.json")
	check "$what: iodig's block family reports (requests sectors) '$got', the device '$READ'" \
		[ "$got" = "$READ" ]
}
if "$IODIG" run --probes=block --no-save --output-format=json --name=p \
	--filename="$LOOP" --size=4k >"$TMP/probe.json" 2>/dev/null &&
	jq -e .iodig.kernel.block.requests.read "$TMP/probe.json" >/dev/null; then
	reported "block device, read, default" --rw=read
	reported "block device, read, hint random" --rw=read --fadvise_hint=random
else
	echo "note: no block probes here, iodig's report not checked"
fi

mkfs.ext4 -q "$LOOP" || skip "mkfs.ext4 failed"
mkdir "$TMP/mnt" && mount "$LOOP" "$TMP/mnt" || skip "cannot mount ext4"
dd if=/dev/urandom of="$TMP/mnt/f" bs=1M count=8 status=none conv=fsync
cases "ext4 file" "$TMP/mnt/f"
# nrfiles: each of the job's files is advised as it is opened
mkdir "$TMP/mnt/d"
fio --name=r --directory="$TMP/mnt/d" --nrfiles=2 --size=8m --rw=write --bs=1m \
	>"$TMP/out" 2>&1 || fail "fio laying out two files: $(head -c 200 "$TMP/out")"
cases "ext4, two files" "$TMP/mnt/d"
done_testing
