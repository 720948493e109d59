#!/bin/bash
# Where a job's pass over its file ends, against fio 3.33: an I/O that
# would pass the file's end ends the pass (fio's fill_io_u), so a
# sequential job whose size is not a multiple of bs stops short of it and
# one on a larger file or device goes past size by less than a block;
# with io_size beyond size, or loops=, another pass starts from the
# beginning while at least the largest block is left to do (fio's
# keep_running), its random sizes drawn again from their seeds
# (randrepeat); bsrange lengths round down to a multiple of a minimum
# that is not a power of 2.  Each job runs with iodig and with fio on the
# same target; total_ios and io_bytes per direction must be equal.  With
# nrfiles=, each file is done when its next I/O would pass its
# end, and the job when every file is (fio's set_io_u_file).
# timeout: 240
. "$(dirname "$0")/lib.sh"
fio_loop_test 1
L1=$LOOP
make_loop 2 || skip "cannot make a second loop device"
L2=$LOOP
F=$TMP/f

Q='[.jobs[0].read.total_ios, .jobs[0].read.io_bytes, .jobs[0].write.total_ios,
    .jobs[0].write.io_bytes, .jobs[0].trim.total_ios, .jobs[0].trim.io_bytes]'
# counts TOOL TARGET ARGS...: the six figures of a job on TARGET, one line
counts() {
	local tool=$1 target=$2; shift 2
	local where=--filename=$target
	[ -d "$target" ] && where=--directory=$target && rm -f "$target"/*
	if [ "$tool" = iodig ]; then
		"$IODIG" run --no-probes --no-save --output-format=json --name=x \
			"$where" "$@" >out.json 2>err.txt
	else
		fio --output-format=json --name=x "$where" "$@" >out.json 2>err.txt
	fi
	sed -n '/^{/,$p' out.json | jq -r "$Q | map(tostring) | join(\" \")" 2>/dev/null
}
equal() { [ -n "$2" ] && [ "$1" = "$2" ]; }
# same PREP TARGET ARGS...: the job by both tools; PREP is "fresh" (the
# file removed before each run, so each tool lays it out), "big" (a 2 MiB
# file, larger than size), "dev" (a loop device) or "dir" (a directory
# emptied before each run, for nrfiles=)
same() {
	local prep=$1 target=$2 i f
	shift 2
	[ "$prep" = fresh ] && rm -f "$target"
	[ "$prep" = big ] && truncate -s 0 "$target" && truncate -s 2M "$target"
	i=$(counts iodig "$target" "$@")
	[ "$prep" = fresh ] && rm -f "$target"
	[ "$prep" = big ] && truncate -s 0 "$target" && truncate -s 2M "$target"
	f=$(counts fio "$target" "$@")
	check "$prep $*: iodig [$i], fio [$f]" equal "$i" "$f"
}

for rw in read write; do
	for bs in 1000 3k; do
		for size in 1m 1049088; do
			same fresh "$F" --rw=$rw --bs=$bs --size=$size
		done
	done
	same fresh "$F" --rw=$rw --bsrange=1000-3000 --size=1m
	same fresh "$F" --rw=$rw --bssplit=1000/50:3k/50 --size=1m
	same fresh "$F" --rw=$rw --bsrange=1k-3k --size=1m --loops=2
	same fresh "$F" --rw=$rw --bs=1000 --size=1m --io_size=2096500
	same fresh "$F" --rw=$rw --bsrange=1k-3k --size=1m --io_size=2500000
	same big "$F" --rw=$rw --bs=1000 --size=1m
	same big "$F" --rw=$rw --bs=3k --size=1049088
done
same fresh "$F" --rw=rw --bs=1000 --size=1049088
same fresh "$F" --rw=rw --bs=3k --size=1m --io_size=2500000
same fresh "$F" --rw=randread --bs=1000 --size=1m --io_size=2096500
same fresh "$F" --rw=randread --bsrange=1k-3k --size=1m --io_size=2500000
same fresh "$F" --rw=read --bsrange=1000-2048 --size=4m
mkdir "$TMP/d"
for rw in read randread write; do
	same dir "$TMP/d" --rw=$rw --bs=1000 --size=1m --nrfiles=2
	same dir "$TMP/d" --rw=$rw --bs=3k --size=1m --nrfiles=2 --file_service_type=random
	same dir "$TMP/d" --rw=$rw --bs=1000 --size=1m --nrfiles=3 --file_service_type=sequential
	same dir "$TMP/d" --rw=$rw --bs=1000 --size=1m --nrfiles=3 --io_size=2500000
done
for rw in read write trim; do
	same dev "$L1" --rw=$rw --bs=3k --size=1m
	same dev "$L1" --rw=$rw --bs=3k --size=1m --direct=1
	same dev "$L1" --rw=$rw --bsrange=1k-3k --size=1m --direct=1
	same dev "$L2" --rw=$rw --bs=3k --size=1m --direct=1
done
for rw in read write; do
	same dev "$L1" --rw=$rw --bs=1000 --size=1m
	same dev "$L2" --rw=$rw --bs=1000 --size=1m
done
done_testing
