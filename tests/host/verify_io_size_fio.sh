# A writing job that verifies, with io_size past size, against fio 3.33: each do_io ends with the job's offsets (a sync engine's queue counts nothing toward size, so a mixed sequential one goes to both ends) or the loops' budget of io_size, the verify phase follows, and keep_running starts another loop while all the bytes done, verify reads too, fall short of io_size by a block or more (randrw, rw, write, randwrite, backlog, norandommap, bsrange, libaio, loops=2); with do_verify=0 and one loop the files stay done and one pass is all, verify= or not; each tool's I/Os, bytes per direction, error and exit status (JSON) and write_iolog must be fio's.
source tests/host/lib.sh
need_root
need_fio3
cd "$TMP" || exit 1

# run TOOL DIR JOB-ARGS...: the job in DIR, its JSON in DIR.json, its exit
# status in DIR.rc, its write_iolog in DIR/trace
run() {
	local tool=$1 d=$2 rc=0
	shift 2
	rm -rf "$d" && mkdir -p "$d"
	if [ "$tool" = iodig ]; then
		(cd "$d" && "$IODIG" run --no-probes --no-save --output-format=json \
			"$@" --write_iolog=trace >"$d.raw" 2>"$d.err") || rc=$?
	else
		(cd "$d" && fio --output-format=json "$@" --write_iolog=trace \
			>"$d.raw" 2>"$d.err") || rc=$?
	fi
	echo "$rc" >"$d.rc"
	sed -n '/^{/,$p' "$d.raw" >"$d.json"
}

# same NAME JOB-ARGS...: totals, error, exit status and the logged I/O
# (file, direction, offset, length, in order) must be fio's
same() {
	local name=$1 i=$TMP/$1/i f=$TMP/$1/f
	shift
	mkdir -p "$TMP/$name"
	run fio "$f" "$@"
	run iodig "$i" "$@"
	totals_same "$name" "$f" "$i"
	check "$name: fio's I/O: $(diff <(iolog_ios "$i/trace" 2>&1) <(iolog_ios "$f/trace" 2>&1) | head -4 | tr '\n' ' ')" \
		cmp -s <(iolog_ios "$i/trace") <(iolog_ios "$f/trace")
}

J=(--name=x --filename=f --bs=4k --size=48k --verify=md5)
# 48 KiB and 20 KiB read back a loop: two loops reach 96k
same randrw_96k "${J[@]}" --rw=randrw --io_size=96k
same randrw_200k "${J[@]}" --rw=randrw --io_size=200k
# 68 KiB done, 2 KiB short: no other loop
same randrw_70k "${J[@]}" --rw=randrw --io_size=70k
same randwrite_200k "${J[@]}" --rw=randwrite --io_size=200k
same write_200k "${J[@]}" --rw=write --io_size=200k
# psync: a loop reads and writes to the end (96 KiB); at 150k the second
# stops past the 54 KiB the budget leaves
same rw_200k "${J[@]}" --rw=rw --io_size=200k
same rw_150k "${J[@]}" --rw=rw --io_size=150k
# libaio: the queued bytes end each loop at size
same rw_200k_libaio "${J[@]}" --rw=rw --io_size=200k --ioengine=libaio --iodepth=4
same randrw_200k_backlog "${J[@]}" --rw=randrw --io_size=200k --verify_backlog=3
same rw_200k_backlog "${J[@]}" --rw=rw --io_size=200k --verify_backlog=3
same randrw_200k_norandommap "${J[@]}" --rw=randrw --io_size=200k --norandommap
same randwrite_200k_norandommap "${J[@]}" --rw=randwrite --io_size=200k --norandommap
same randrw_bsrange_200k "${J[@]}" --rw=randrw --bsrange=4k-12k --io_size=200k
same randrw_300k_loops2 "${J[@]}" --rw=randrw --io_size=300k --loops=2
# do_verify=0 leaves the files done (fio's reset_io_counters): one pass,
# with verify= or without
same randwrite_96k_no_verify "${J[@]}" --rw=randwrite --io_size=96k --do_verify=0
same randrw_96k_no_verify "${J[@]}" --rw=randrw --io_size=96k --do_verify=0
P=(--name=x --filename=f --bs=4k --size=48k)
same read_96k_no_verify "${P[@]}" --rw=read --io_size=96k --do_verify=0
same rw_200k_no_verify "${P[@]}" --rw=rw --io_size=200k --do_verify=0
same randwrite_200k_loops2_no_verify "${P[@]}" --rw=randwrite --io_size=200k --loops=2 \
	--do_verify=0

done_testing
