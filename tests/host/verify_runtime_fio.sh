# Each direction's runtime, bw and iops as fio 3.33 gives them: the reads of a sized verify job get the verify phase's time, a time_based verify_backlog write job's reads get 0, a read job is unchanged, and verify reads take no bw/iops samples (JSON, averaged logs); same jobs run by fio on the same loop device, in JSON, text, terse and log files.
source tests/host/lib.sh
fio_loop_test 64
BASE=(--name=v --filename="$LOOP" --direct=1 --bs=4k --ioengine=psync)
# Timings: phases are compared within TOL_PCT % of the job's runtime plus
# TOL_MS (the gaps between fio's phases: sync, cache drop, reopen).
TOL_PCT=5
TOL_MS=15

# run_both TAG ARGS...: the job by fio and by iodig, JSON into TAG.f.json
# and TAG.i.json
run_both() {
	local tag=$1 rc; shift
	fio "${BASE[@]}" "$@" --output-format=json >"$tag.f.json" 2>"$tag.f.err"
	check "$tag: fio runs ($(head -c 200 "$tag.f.err"))" [ -s "$tag.f.json" ]
	"$IODIG" run --no-probes --no-save "${BASE[@]}" "$@" --output-format=json \
		>"$tag.i.json" 2>"$tag.i.err"
	rc=$?
	check "$tag: iodig runs (exit $rc: $(head -c 200 "$tag.i.err"))" [ "$rc" = 0 ]
}

# f TAG TOOL FIELD: a field of the job (TOOL f = fio, i = iodig)
f() { jqr ".jobs[0].$3" "$1.$2.json"; }

# same TAG FIELD...: iodig's fields equal fio's
same() {
	local tag=$1 k a b; shift
	for k in "$@"; do
		a=$(f "$tag" f "$k"); b=$(f "$tag" i "$k")
		check "$tag: $k is fio's ($a), iodig $b" [ "$a" = "$b" ]
	done
}

# only FILE YES NO: FILE has a line matching YES and none matching NO
only() { grep -q "$2" "$1" && ! grep -q "$3" "$1"; }

# near A B TOTAL: |A - B| within TOL_PCT % of TOTAL plus TOL_MS
near() { local d=$(($1 - $2)); [ "${d#-}" -le $(($3 * TOL_PCT / 100 + TOL_MS)) ]; }

# rates_follow TAG TOOL DIR: bw_bytes and iops are the direction's bytes and
# I/Os over its own runtime (0 when it has none), as fio computes them
rates_follow() {
	local t=$1 w=$2 d=$3 rt by ios bw iops
	rt=$(f "$t" "$w" "$d.runtime"); by=$(f "$t" "$w" "$d.io_bytes")
	ios=$(f "$t" "$w" "$d.total_ios"); bw=$(f "$t" "$w" "$d.bw_bytes")
	iops=$(f "$t" "$w" "$d.iops")
	if [ "$rt" = 0 ]; then
		check "$t/$w: $d without runtime has bw 0 ($bw), iops 0 ($iops)" \
			awk -v b="$bw" -v i="$iops" 'BEGIN { exit !(b == 0 && i == 0) }'
		return
	fi
	check "$t/$w: $d bw_bytes $bw = $by B / $rt ms" [ "$bw" = $((by * 1000 / rt)) ]
	check "$t/$w: $d iops $iops = $ios / $rt ms" \
		awk -v i="$iops" -v n="$ios" -v r="$rt" 'BEGIN { d = i - n * 1000 / r; exit !(d < 0.01 && d > -0.01) }'
}

# 1. Sized write with verify: write phase, then the verify phase reads it
# all back; the reads' runtime is the verify phase's, the writes' the
# write phase's, and the two make up the job's.
run_both sized --rw=write --verify=crc32c --size=32m
same sized read.total_ios read.io_bytes write.total_ios write.io_bytes \
	read.bw_samples read.iops_samples
for w in f i; do
	job=$(f sized $w job_runtime); rd=$(f sized $w read.runtime); wr=$(f sized $w write.runtime)
	check "sized/$w: reads ran ($rd ms) and writes ran ($wr ms), each less than the job ($job ms)" \
		[ "$rd" -gt 0 -a "$wr" -gt 0 -a "$rd" -lt "$job" -a "$wr" -lt "$job" ]
	check "sized/$w: read $rd + write $wr ms make up the job's $job ms" near $((rd + wr)) "$job" "$job"
	rates_follow sized $w read
	rates_follow sized $w write
done

# The averaged bw and iops logs leave the verify reads out too (fio's
# per-I/O lines keep them): write lines only.
LOGJOB=(--rw=write --verify=crc32c --size=32m --log_avg_msec=50)
fio "${BASE[@]}" "${LOGJOB[@]}" --write_bw_log=f --write_iops_log=f >/dev/null 2>&1
"$IODIG" run --no-probes --no-save "${BASE[@]}" "${LOGJOB[@]}" --write_bw_log=i \
	--write_iops_log=i >/dev/null 2>&1
for w in f i; do
	for k in bw iops; do
		lines=$(awk -F', ' '$3 == 1' ${w}_$k.1.log 2>/dev/null | wc -l)
		reads=$(awk -F', ' '$3 == 0' ${w}_$k.1.log 2>/dev/null | wc -l)
		check "logs/$w: averaged $k log: $lines write lines, $reads read lines" \
			[ "$lines" -gt 0 -a "$reads" = 0 ]
	done
done

# 2. A time_based randwrite with verify_backlog: its reads are the
# backlog's, the runtime ends the job before any verify phase, and fio
# gives the reads no runtime at all.
TB=(--rw=randwrite --verify=crc32c --verify_backlog=64 --size=32m --time_based --runtime=1)
run_both backlog "${TB[@]}"
same backlog read.runtime read.bw_bytes read.bw read.iops read.bw_samples
for w in f i; do
	rd=$(f backlog $w read.total_ios); wr=$(f backlog $w write.runtime)
	check "backlog/$w: reads were done ($rd) yet have runtime 0" \
		[ "$rd" -gt 0 -a "$(f backlog $w read.runtime)" = 0 ]
	check "backlog/$w: the writes ran the job's runtime ($wr ms)" near "$wr" 1000 1000
	rates_follow backlog $w read
	rates_follow backlog $w write
done
# fio's text leaves out a direction without runtime: no read block, no
# READ line in the group; the terse line shows 0 for its rates and runtime.
fio "${BASE[@]}" "${TB[@]}" >backlog.f.txt 2>&1
"$IODIG" run --no-probes --no-save "${BASE[@]}" "${TB[@]}" >backlog.i.txt 2>&1
for w in f i; do
	check "backlog/$w: text has a write block, no read block" \
		only backlog.$w.txt '^  write: IOPS=' '^  read: IOPS='
	check "backlog/$w: the group has WRITE, no READ" \
		only backlog.$w.txt '^  WRITE: bw=' '^   READ: bw='
done
fio "${BASE[@]}" "${TB[@]}" --output-format=terse >backlog.f.terse 2>/dev/null
"$IODIG" run --no-probes --no-save "${BASE[@]}" "${TB[@]}" --output-format=terse \
	>backlog.i.terse 2>/dev/null
for w in f i; do
	# terse v3: field 6 read KiB, 7 bw, 8 iops, 9 runtime
	read -r kib bw iops rt < <(awk -F';' '$1 == 3 { print $6, $7, $8, $9 }' backlog.$w.terse)
	check "backlog/$w: terse reads ${kib:-?} KiB at bw ${bw:-?}, iops ${iops:-?}, runtime ${rt:-?}" \
		[ "${kib:-0}" -gt 0 -a "$bw" = 0 -a "$iops" = 0 -a "$rt" = 0 ]
done

# 3. A sized randwrite with verify_backlog: the backlog reads most blocks
# during the write phase, so the reads' runtime (the short verify phase
# that is left) is well below the writes'.
run_both sizedbl --rw=randwrite --verify=crc32c --verify_backlog=64 --size=16m
same sizedbl read.total_ios read.io_bytes write.total_ios read.bw_samples
for w in f i; do
	rd=$(f sizedbl $w read.runtime); wr=$(f sizedbl $w write.runtime)
	check "sizedbl/$w: reads' runtime $rd ms below half the writes' $wr ms" \
		[ "$rd" -gt 0 -a $((rd * 2)) -lt "$wr" ]
	rates_follow sizedbl $w read
done

# 4. A read job: its reads' runtime is the job's, as before.
run_both plain --rw=read --size=32m
same plain read.total_ios read.io_bytes write.runtime write.total_ios
for w in f i; do
	job=$(f plain $w job_runtime); rd=$(f plain $w read.runtime)
	check "plain/$w: read runtime $rd ms is the job's $job ms" near "$rd" "$job" 0
	rates_follow plain $w read
done
done_testing
