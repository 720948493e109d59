# A mixed read/write job's trace file keeps each direction's IOPS, bandwidth, lat avg and lat p99 beside the totals (the directions' rates sum to the total, and match fio's per-direction figures in the same report), and iodig diff's headline shows them; a read-only job has none, so its trace file and headline are as before; a write+verify job's read rates are over the reads' own runtime (the verify phase), in the trace file and in iodig diff, as in its report.
source tests/host/lib.sh
need_root
command -v jq >/dev/null || skip "jq not installed"
JOB=(--name=mix --ioengine=psync --bs=4k --runtime=1 --time_based --size=16m --no-probes --no-progress
     --filename="$TMP/data" --output-format=json)
for s in a b; do
	"$IODIG" run "${JOB[@]}" --rw=randrw --save="$TMP/$s.json" --output="$TMP/$s.report.json" \
		2>"$TMP/err" || fail "iodig run randrw: $(cat "$TMP/err")"
done
"$IODIG" run "${JOB[@]}" --rw=randread --save="$TMP/r.json" --output="$TMP/r.report.json" \
	2>"$TMP/err" || fail "iodig run randread: $(cat "$TMP/err")"

fig() { jq -r --arg k "$2" '.iodig.repeats.runs[0].figures[$k] // "none"' "$1"; }
for d in read write; do
	for k in iops bw_kib lat_mean_ns lat_p99_ns; do
		v=$(fig "$TMP/a.json" "$d.$k")
		check "randrw keeps $d.$k ($v)" awk -v v="$v" 'BEGIN { exit !(v + 0 > 0) }'
	done
	fio_iops=$(jq -r ".jobs[0].$d.iops" "$TMP/a.report.json")
	check "$d.iops $(fig "$TMP/a.json" "$d.iops") is the report's $d iops $fio_iops" \
		awk -v a="$(fig "$TMP/a.json" "$d.iops")" -v b="$fio_iops" \
		'BEGIN { exit !(b > 0 && a / b > 0.999 && a / b < 1.001) }'
done
sum=$(awk -v r="$(fig "$TMP/a.json" read.iops)" -v w="$(fig "$TMP/a.json" write.iops)" 'BEGIN { print r + w }')
check "read.iops + write.iops = iops ($sum, $(fig "$TMP/a.json" iops))" \
	awk -v s="$sum" -v t="$(fig "$TMP/a.json" iops)" 'BEGIN { exit !(t > 0 && s / t > 0.999 && s / t < 1.001) }'
check "a read-only job keeps no per-direction figure" [ "$(fig "$TMP/r.json" read.iops)" = none ]

"$IODIG" diff "$TMP/a.json" "$TMP/b.json" >"$TMP/diff.txt" 2>&1 || fail "diff: $(cat "$TMP/diff.txt")"
headline=$(sed -n '/^Headline/,/^$/p' "$TMP/diff.txt")
for label in "read IOPS" "read lat p99" "write IOPS" "write lat avg"; do
	check "the headline shows $label" grep -q "^  $label " <<<"$headline"
done
cp "$TMP/r.json" "$TMP/r2.json"
"$IODIG" diff "$TMP/r.json" "$TMP/r2.json" >"$TMP/diff.txt" 2>&1 || fail "diff: $(cat "$TMP/diff.txt")"
check "a read-only diff's headline has IOPS" grep -q "^  IOPS " "$TMP/diff.txt"
check "a read-only diff's headline has no per-direction row" \
	[ "$(grep -c "^  read IOPS" "$TMP/diff.txt")" -eq 0 ]

# A write+verify job: the reads ran in the verify phase only, so their IOPS
# is over that phase's runtime, in the trace file and in iodig diff as in
# the report (not over the whole job's runtime).
WV=(--name=wv --ioengine=psync --bs=4k --size=16m --rw=write --verify=crc32c --verify_state_save=0 --no-probes
    --no-progress --filename="$TMP/wv" --output-format=json)
for s in a b; do
	"$IODIG" run "${WV[@]}" --save="$TMP/wv$s.json" --output="$TMP/wv$s.report.json" \
		2>"$TMP/err" || fail "iodig run write+verify: $(cat "$TMP/err")"
done
rt=$(jq -r '.jobs[0].read.runtime' "$TMP/wva.report.json")
job=$(jq -r '.jobs[0].job_runtime' "$TMP/wva.report.json")
check "write+verify: the reads ran ${rt} ms of the job's ${job} ms" [ "$rt" -gt 0 -a "$rt" -lt "$job" ]
rep=$(jq -r '.jobs[0].read.iops' "$TMP/wva.report.json")
check "write+verify: trace read.iops $(fig "$TMP/wva.json" read.iops) is the report's read iops $rep" \
	awk -v a="$(fig "$TMP/wva.json" read.iops)" -v b="$rep" \
	'BEGIN { exit !(b > 0 && a / b > 0.999 && a / b < 1.001) }'
"$IODIG" diff --format=json "$TMP/wva.json" "$TMP/wvb.json" >"$TMP/wvdiff.json" 2>"$TMP/err" ||
	fail "diff write+verify: $(cat "$TMP/err")"
dif=$(jq -r '[.. | objects | select(.key? == "read.iops") | .values[0].mean] | first // "none"' \
	"$TMP/wvdiff.json")
check "write+verify: iodig diff's read IOPS of A ($dif) is the report's $rep" \
	awk -v a="$dif" -v b="$rep" 'BEGIN { exit !(b > 0 && a / b > 0.999 && a / b < 1.001) }'
done_testing
