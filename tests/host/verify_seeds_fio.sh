# Verify seeds as fio 3.33 draws them, against fio: writes and reads of the verify log share one generator (verify_state), started over at each verify phase and, with randrepeat, at each loop, so a mixed job (randrw, rw) given randseed fails its second loop's verify on a bad header rand_seed, as does a randrw job with norandommap (log in offset order), while verify_backlog and randrepeat jobs pass; on a fresh file, one fio wrote and one iodig wrote, psync and libaio: each tool's I/Os and bytes per direction, error and exit status (JSON), first verify error line, and the seed in each block's header must be fio's.
source tests/host/lib.sh
need_root
need_fio3
cd "$TMP" || exit 1

# seeds FILE: each 4 KiB block's header seed, '-' where no header is
seeds() {
	od -An -v -w4096 -tx8 "$1" |
		awk '{ print (substr($1, 13, 4) == "acca" ? $2 : "-") }' | tr '\n' ' '
}

# run TOOL DIR PRE JOB-ARGS...: the job in DIR (its file f written first
# by the job PRE names: none, fio or iodig), its JSON in DIR.json, its
# stderr in DIR.err, its exit status in DIR.rc
run() {
	local tool=$1 d=$2 pre=$3 rc=0
	shift 3
	rm -rf "$d" && mkdir -p "$d"
	case $pre in
	fio) (cd "$d" && fio --name=w --filename=f --rw=write --bs=4k --size=48k \
		--verify=md5 --randseed=9 >/dev/null 2>&1) ;;
	iodig) (cd "$d" && "$IODIG" run --no-probes --no-save --name=w --filename=f \
		--rw=write --bs=4k --size=48k --verify=md5 --randseed=9 >/dev/null 2>&1) ;;
	esac
	if [ "$tool" = iodig ]; then
		(cd "$d" && "$IODIG" run --no-probes --no-save --output-format=json \
			"$@" >"$d.raw" 2>"$d.err") || rc=$?
	else
		(cd "$d" && fio --output-format=json "$@" >"$d.raw" \
			2>"$d.err") || rc=$?
	fi
	echo "$rc" >"$d.rc"
	sed -n '/^{/,$p' "$d.raw" >"$d.json"
}

# same NAME PRE JOB-ARGS...: both tools run the job; totals, error, exit
# status, first verify error and header seeds must be fio's
same() {
	local name=$1 pre=$2 i=$TMP/$1/i f=$TMP/$1/f fi ii
	shift 2
	mkdir -p "$TMP/$name"
	run fio "$f" "$pre" "$@"
	run iodig "$i" "$pre" "$@"
	totals_same "$name" "$f" "$i"
	fi=$(grep -m1 '^verify: ' "$f.err")
	ii=$(grep -m1 '^verify: ' "$i.err")
	check "$name: fio's verify error [${fi:0:90}] iodig [${ii:0:90}]" [ "$fi" = "$ii" ]
	fi=$(seeds "$f/f")
	ii=$(seeds "$i/f")
	check "$name: fio's header seeds: $(diff <(echo "$fi" | tr ' ' '\n') <(echo "$ii" | tr ' ' '\n') | head -3 | tr '\n' ' ')" \
		[ "$fi" = "$ii" ]
}

J=(--name=x --filename=f --bs=4k --size=48k --verify=md5)
# the second loop's writes go on from the first verify's draws, its
# verify starts over: the first block read back has another seed
same randrw_loops2_seed none "${J[@]}" --rw=randrw --loops=2 --randseed=3
same randrw_loops2_seed_fio_file fio "${J[@]}" --rw=randrw --loops=2 --randseed=3
same randrw_loops2_seed_iodig_file iodig "${J[@]}" --rw=randrw --loops=2 --randseed=3
same randrw_loops3_seed none "${J[@]}" --rw=randrw --loops=3 --randseed=1
same randrw_mix30_loops2 fio "${J[@]}" --rw=randrw --rwmixread=30 --loops=2 --randseed=5
same rw_loops3_seed none "${J[@]}" --rw=rw --loops=3 --randseed=3
same randrw_loops2_libaio none "${J[@]}" --rw=randrw --loops=2 --randseed=3 \
	--ioengine=libaio --iodepth=4
# randrepeat starts the seeds over at each loop: every loop passes
same randrw_loops2 fio "${J[@]}" --rw=randrw --loops=2
same randrw_loops3 iodig "${J[@]}" --rw=randrw --loops=3
same randwrite_loops2 none "${J[@]}" --rw=randwrite --loops=2
# norandommap: the log is read in offset order, the seeds were drawn in
# write order
same randrw_norandommap none "${J[@]}" --rw=randrw --norandommap
same randrw_norandommap_seed fio "${J[@]}" --rw=randrw --norandommap --randseed=7
# verify_backlog: its reads draw seeds between the writes; the check
# takes the header's seed
same write_backlog4 none "${J[@]}" --rw=write --verify_backlog=4
same randrw_backlog2_loops2 none "${J[@]}" --rw=randrw --verify_backlog=2 --loops=2 --randseed=3
# do_verify=0: no verify phase, the writes draw on
same randrw_loops3_no_verify fio "${J[@]}" --rw=randrw --loops=3 --randseed=3 --do_verify=0

done_testing
