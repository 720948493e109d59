# Files across loops against fio 3.33: fio closes every file before each loop (and before the verify phase) and opens each again as the job reaches it, so each tool's write_iolog must be equal line by line, I/O, syncs, opens and closes (one file or several, loops= or io_size passes, psync and libaio, verify with sequential or random writes, norandommap too, fsync=, end_fsync, a randseed's draws going on); and, as a block device's last close drops its cache, buffered reads of each loop come from the device again, with invalidate=0 too.
source tests/host/lib.sh
fio_loop_test 16

# both CASE JOB-ARGS...: each tool runs the job with write_iolog in its
# own empty directory; the logs must be equal but for their times
both() {
	local name=$1 i=$TMP/$1/i/trace f=$TMP/$1/f/trace
	iolog_pair "$@"
	check "$name: fio opened a file again ($(iolog_all "$f" 2>/dev/null | grep -c ' open$') opens)" \
		[ "$(iolog_all "$f" 2>/dev/null | grep -c ' open$')" -gt 1 ]
	check "$name: fio's log line by line: $(diff <(iolog_all "$i" 2>&1) <(iolog_all "$f" 2>&1) | head -4 | tr '\n' ' ')" \
		cmp -s <(iolog_all "$i") <(iolog_all "$f")
}

aio=(--ioengine=libaio --iodepth=4)
# one file, loops=3
both one_read --name=j --filename=f --size=16k --loops=3 --bs=4k --rw=read
both one_write --name=j --filename=f --size=16k --loops=3 --bs=4k --rw=write
both one_randread --name=j --filename=f --size=16k --loops=3 --bs=4k --rw=randread
both one_randread_noinv --name=j --filename=f --size=16k --loops=3 --bs=4k --rw=randread \
	--invalidate=0
both one_randread_aio --name=j --filename=f --size=16k --loops=3 --bs=4k --rw=randread "${aio[@]}"
both one_randrw_seed --name=j --filename=f --size=32k --loops=3 --bs=4k --rw=randrw --randseed=7
# one file, io_size passes: each a new loop of fio's
both one_iosize --name=j --filename=f --size=16k --io_size=48k --bs=4k --rw=read
# several files with a randseed: the draws go on from loop to loop
both files_randrw_seed --name=j --nrfiles=2 --size=64k --loops=2 --bs=4k --rw=randrw --randseed=7
both files3_random_seed --name=j --nrfiles=3 --size=96k --loops=3 --bs=4k --rw=randrw \
	--randseed=7 --file_service_type=random
both files3_seq_aio --name=j --nrfiles=3 --size=96k --loops=2 --bs=4k --rw=randrw --randseed=7 \
	--file_service_type=sequential --rwmixread=30 "${aio[@]}"
# jobs that keep every file open in iodig: fio's log opens each when
# reached, closes it when done and before each loop and the verify phase
both verify_one --name=j --filename=f --size=16k --loops=2 --bs=4k --rw=write --verify=crc32c
both verify_files --name=j --nrfiles=2 --size=32k --loops=2 --bs=4k --rw=write --verify=crc32c
both verify_files_aio --name=j --nrfiles=3 --size=48k --loops=2 --bs=4k --rw=write --verify=md5 \
	"${aio[@]}"
# a sync engine's write loop with verify goes on past size until the
# loops' budget is spent or its files are done: with a random map full,
# one more draw fails and closes the file, which moves the next loop's
# offsets along (the last loop, its budget spent, draws no more)
for n in 2 3; do
	both verify_random_seed$n --name=j --filename=f --size=48k --loops=$n --bs=4k \
		--rw=randwrite --randseed=3 --verify=md5
	both verify_files_random$n --name=j --nrfiles=2 --size=64k --loops=$n --bs=4k \
		--rw=randwrite --randseed=3 --verify=md5
	# without a random map no draw fails: the first loop writes all the
	# loops' bytes, the others none
	both verify_norandommap$n --name=j --filename=f --size=48k --loops=$n --bs=4k \
		--rw=randwrite --randseed=3 --verify=md5 --norandommap
done
# io_size past size: each loop's do_io ends with its offsets all the same
for rw in write randwrite; do
	both verify_iosize_$rw --name=j --filename=f --size=48k --io_size=192k --loops=2 --bs=4k \
		--rw=$rw --randseed=3 --verify=md5
done
both fsync_one --name=j --filename=f --size=16k --loops=2 --bs=4k --rw=write --fsync=2
both fsync_files --name=j --nrfiles=2 --size=32k --loops=2 --bs=4k --rw=write --fsync=2
both fsync_files_random --name=j --nrfiles=2 --size=32k --loops=2 --bs=4k --rw=randwrite --fsync=3
both end_fsync_one --name=j --filename=f --size=16k --loops=2 --bs=4k --rw=write --end_fsync=1
both end_fsync_files --name=j --nrfiles=2 --size=32k --loops=2 --bs=4k --rw=write --end_fsync=1

# device_reads TOOL INVALIDATE: sectors TOOL reads from LOOP in a
# buffered sequential read of 1 MiB, loops=3
dev=${LOOP#/dev/}
device_reads() {
	local before after
	settle "$dev"
	before=$(awk '{print $3}' "/sys/block/$dev/stat")
	if [ "$1" = fio ]; then
		fio --output-format=json --name=d --filename="$LOOP" --size=1m --bs=4k --rw=read \
			--loops=3 --invalidate="$2" >/dev/null 2>&1 || echo "fio failed" >&2
	else
		"$IODIG" run --no-probes --no-save --output-format=json --name=d --filename="$LOOP" \
			--size=1m --bs=4k --rw=read --loops=3 --invalidate="$2" >/dev/null 2>&1 ||
			echo "iodig failed" >&2
	fi
	settle "$dev"
	after=$(awk '{print $3}' "/sys/block/$dev/stat")
	echo $((after - before))
}
# each loop reads its 1 MiB (2048 sectors) from the device again: with
# invalidate=1 as the file opens, with invalidate=0 as the last close of
# the device drops its cache (readahead may add to it, a reclaimer too)
for inv in 1 0; do
	f=$(device_reads fio "$inv")
	i=$(device_reads iodig "$inv")
	check "invalidate=$inv: fio read each loop from the device ($f sectors)" [ "$f" -ge $((3 * 2048)) ]
	check "invalidate=$inv: iodig read each loop from the device ($i sectors, fio $f)" \
		[ "$i" -ge $((3 * 2048)) ]
done
done_testing
