# Loops that fio 3.33 cuts short, against fio: a job that only reads, with verify=, runs one loop (loops=, io_size, do_verify=0, verify_only, randread, numjobs, two files, libaio) and with number_ios and loops reads number_ios times loops as plain jobs' loops do in all, and ioengine=vsync at iodepth > 1 loses the completions of the first iodepth - iodepth_batch_submit I/Os and does one pass whatever loops= and io_size say, its verify phase reading nothing back; each tool's I/Os and bytes per direction (JSON) and write_iolog offsets must be fio's.
source tests/host/lib.sh
need_root
need_fio3
cd "$TMP" || exit 1

# per job: reads, bytes read, writes, bytes written
TOTALS='[.jobs[] | .read.total_ios, .read.io_bytes, .write.total_ios, .write.io_bytes] | @tsv'

# run_both CASE JOB-ARGS...: each tool runs the job in $TMP/CASE/{i,f},
# its JSON in $TMP/CASE/{i,f}.json (fio's vsync prints a note before it)
run_both() {
	local name=$1 d=$TMP/$1 rc=0
	shift
	mkdir -p "$d/i" "$d/f"
	(cd "$d/i" && "$IODIG" run --no-probes --no-save --output-format=json "$@" \
		>../i.json 2>../i.err) || rc=$?
	check "$name: iodig ran (exit $rc: $(head -c 300 "$d/i.err"))" [ $rc = 0 ]
	rc=0
	(cd "$d/f" && fio --output-format=json "$@" >../f.raw 2>/dev/null) || rc=$?
	check "$name: fio ran (exit $rc)" [ $rc = 0 ]
	sed -n '/^{/,$p' "$d/f.raw" >"$d/f.json"
}

# totals CASE JOB-ARGS...: the I/Os and bytes of each direction, job by
# job, must be fio's
totals() {
	local name=$1 f i
	run_both "$@"
	f=$(jq -r "$TOTALS" "$TMP/$name/f.json" 2>/dev/null)
	i=$(jq -r "$TOTALS" "$TMP/$name/i.json" 2>/dev/null)
	check "$name: fio reported its jobs" [ -n "$f" ]
	check "$name: fio's I/Os and bytes ($(echo $f); iodig $(echo $i))" [ "$f" = "$i" ]
}

# same CASE JOB-ARGS...: totals, and each tool's write_iolog must hold
# fio's I/O in fio's order (file, direction, offset, length)
same() {
	local name=$1 i=$TMP/$1/i/trace f=$TMP/$1/f/trace
	totals "$@" --write_iolog=trace
	check "$name: fio logged I/O ($(iolog_ios "$f" 2>/dev/null | wc -l) lines)" \
		[ -n "$(iolog_ios "$f" 2>/dev/null | head -1)" ]
	check "$name: fio's offsets: $(diff <(iolog_ios "$i" 2>&1) <(iolog_ios "$f" 2>&1) | head -4 | tr '\n' ' ')" \
		cmp -s <(iolog_ios "$i") <(iolog_ios "$f")
}

# data with md5 headers, as an earlier write job of fio's leaves it: one
# file, and the two files of job m
DATA=$TMP/data
mkdir -p "$TMP/two"
fio --name=w --filename="$DATA" --rw=write --bs=4k --size=48k --verify=md5 --do_verify=0 \
	>/dev/null 2>&1 || fail "fio could not write $DATA"
fio --name=m --directory="$TMP/two" --nrfiles=2 --rw=write --bs=4k --size=96k --verify=md5 \
	--do_verify=0 >/dev/null 2>&1 || fail "fio could not write the files of m"

R=(--name=r --filename="$DATA" --bs=4k --size=48k)
same read_loops2 "${R[@]}" --rw=read --loops=2 --verify=md5
same read_loops2_no_verify_phase "${R[@]}" --rw=read --loops=2 --verify=md5 --do_verify=0
same randread_loops3 "${R[@]}" --rw=randread --loops=3 --verify=md5 --randseed=5
same verify_only_loops3 "${R[@]}" --rw=randread --loops=3 --verify=md5 --verify_only=1
same read_iosize "${R[@]}" --rw=read --io_size=96k --verify=md5
same read_iosize_loops2 "${R[@]}" --rw=read --io_size=96k --loops=2 --verify=md5
same read_loops2_libaio "${R[@]}" --rw=read --loops=2 --verify=md5 --ioengine=libaio --iodepth=4
same two_files_loops2 --name=m --directory="$TMP/two" --nrfiles=2 --bs=4k --size=96k \
	--rw=read --loops=2 --verify=md5
totals numjobs2_loops2 "${R[@]}" --rw=read --loops=2 --verify=md5 --numjobs=2
# without verify= every loop reads
same read_loops2_plain "${R[@]}" --rw=read --loops=2

# number_ios with loops: fio's exceeds_number_ios counts the I/Os of all
# loops (io_blocks, verify reads too) against number_ios times loops, so
# a loop does its whole pass while that lasts and a reading verify job's
# one loop goes on to the product (loops=2, number_ios=5: 10 reads)
same read_verify_nios_loops2 "${R[@]}" --rw=read --loops=2 --number_ios=5 --verify=md5
same randread_verify_nios_loops3 "${R[@]}" --rw=randread --loops=3 --number_ios=5 --verify=md5
same read_nios_loops3 "${R[@]}" --rw=read --loops=3 --number_ios=5
same randread_nios_loops2 "${R[@]}" --rw=randread --loops=2 --number_ios=8
same randread_seed_nios_loops2 "${R[@]}" --rw=randread --loops=2 --number_ios=16 --randseed=7
W=(--name=w --filename=wdata --bs=4k --size=48k)
same rw_nios_loops4 "${W[@]}" --rw=rw --loops=4 --number_ios=7
same write_verify_nios_loops2 "${W[@]}" --rw=write --loops=2 --number_ios=5 --verify=md5
same randwrite_verify_nios_loops2 "${W[@]}" --rw=randwrite --loops=2 --number_ios=16 --verify=md5

# vsync at iodepth > 1 on the file of fio's first write
VDATA=$TMP/vdata
fio --name=w --filename="$VDATA" --rw=write --bs=4k --size=64k >/dev/null 2>&1 ||
	fail "fio could not write $VDATA"
V=(--name=v --filename="$VDATA" --ioengine=vsync --bs=4k --size=64k)
same vsync_read "${V[@]}" --iodepth=4 --rw=read
same vsync_write "${V[@]}" --iodepth=4 --rw=write
same vsync_randread "${V[@]}" --iodepth=4 --rw=randread --randseed=3
same vsync_randrw "${V[@]}" --iodepth=4 --rw=randrw --randseed=3
same vsync_read_loops2 "${V[@]}" --iodepth=4 --rw=read --loops=2
same vsync_read_iosize "${V[@]}" --iodepth=4 --rw=read --io_size=128k
same vsync_read_depth8 "${V[@]}" --iodepth=8 --rw=read
same vsync_read_batch2 "${V[@]}" --iodepth=4 --rw=read --iodepth_batch_submit=2
same vsync_read_batch4 "${V[@]}" --iodepth=4 --rw=read --iodepth_batch_submit=4
same vsync_write_verify "${V[@]}" --iodepth=4 --rw=write --verify=md5
same vsync_randwrite_verify "${V[@]}" --iodepth=4 --rw=randwrite --verify=md5 --randseed=2

done_testing
