# unified_rw_reporting (none, mixed, both and the old 0/1/2) as fio 3.33 gives it, per job and under group_reporting: the same JSON keys ("mixed" instead of read/write/trim/sync, or after them), the same total_ios, io_bytes and io_kbytes in each block, the same text blocks and group lines (MIXED), the same terse directions; same jobs run by fio on the same loop device.
source tests/host/lib.sh
fio_loop_test 64
BASE=(--filename="$LOOP" --direct=1 --bs=4k --ioengine=psync)

# run_both TAG FORMAT ARGS...: the job by fio and by iodig into TAG.f and
# TAG.i (FORMAT: json, normal or terse)
run_both() {
	local tag=$1 fmt=$2 rc; shift 2
	fio "${BASE[@]}" "$@" --output-format="$fmt" >"$tag.f" 2>"$tag.f.err"
	check "$tag/$fmt: fio runs ($(head -c 200 "$tag.f.err"))" [ -s "$tag.f" ]
	"$IODIG" run --no-probes --no-save "${BASE[@]}" "$@" --output-format="$fmt" \
		>"$tag.i" 2>"$tag.i.err"
	rc=$?
	check "$tag/$fmt: iodig runs (exit $rc: $(head -c 200 "$tag.i.err"))" [ "$rc" = 0 ]
}

# same_json TAG: the jobs' keys (iodig's own "iodig" aside) and, in every
# block, total_ios, io_bytes and io_kbytes are fio's
same_json() {
	local t=$1 a b blk
	a=$(jq -c '[.jobs[] | keys - ["iodig"]]' "$t.f"); b=$(jq -c '[.jobs[] | keys - ["iodig"]]' "$t.i")
	check "$t: the jobs' keys are fio's ($a), iodig $b" [ "$a" = "$b" ]
	for blk in read write trim mixed; do
		a=$(jq -c "[.jobs[] | .$blk | select(. != null) | [.total_ios, .io_bytes, .io_kbytes]]" "$t.f")
		b=$(jq -c "[.jobs[] | .$blk | select(. != null) | [.total_ios, .io_bytes, .io_kbytes]]" "$t.i")
		check "$t: $blk total_ios, io_bytes, io_kbytes are fio's $a, iodig $b" [ "$a" = "$b" ]
	done
}

# text_lines FILE: each block's name and bytes, "issued rwts", and each
# group line's name and io=, one per line; fio 3.33's text shows zeros in
# the "mixed" block under both (its JSON and terse have the sums), so
# that block's bytes are left out here and checked apart
text_lines() {
	sed -nE -e 's/^  (read|write|trim): IOPS=.*\)\(([^/]*)\/.*/\1 \2/p' \
		-e 's/^  (mixed): IOPS=.*/\1/p' -e 's/^ *(issued rwts: total=[^ ]*).*/\1/p' \
		-e 's/^ *(READ|WRITE|TRIM|MIXED): bw=.*(io=[^ ]*).*/\1 \2/p' \
		-e 's/^  (fsync\/fdatasync).*/\1/p' "$1"
}
same_text() {
	local a b
	a=$(text_lines "$1.f" | tr '\n' '|'); b=$(text_lines "$1.i" | tr '\n' '|')
	check "$1: text blocks and group lines are fio's ($a), iodig $b" [ "$a" = "$b" ]
}

# terse_kib FILE: each direction's KiB (fields 6, 47, 88: 41 per
# direction, 34 after them), up to fio's disk fields (iodig has none)
terse_kib() {
	awk -F';' -v dev="${LOOP#/dev/}" '$1 == 3 {
		n = NF
		for (i = 6; i <= NF; i++) if ($i == dev) { n = i - 1; break }
		for (f = 6; f + 34 < n; f += 41) printf "%s ", $f
		print "" }' "$1"
}

# 1. A sized write with verify: 8 MiB written, then read back; its mixed
# block is 16 MiB in 4096 I/Os.
VJ=(--name=v --rw=write --verify=crc32c --size=8m)
for m in none mixed both 0 1 2; do
	run_both "v$m" json "${VJ[@]}" --unified_rw_reporting=$m
	same_json "v$m"
	run_both "v$m.txt" normal "${VJ[@]}" --unified_rw_reporting=$m
	same_text "v$m.txt"
done
check "mixed: one block, 4096 I/Os of 16 MiB" \
	[ "$(jq -c '.jobs[0].mixed | [.total_ios, .io_bytes]' vmixed.i)" = "[4096,16777216]" ]
check "mixed: no read, write, trim nor sync key" \
	[ "$(jq -c '.jobs[0] | [has("read"), has("write"), has("trim"), has("sync")]' vmixed.i)" = "[false,false,false,false]" ]
check "both: the mixed text block shows the 16 MiB (fio 3.33's shows 0B)" \
	grep -q '^  mixed: IOPS=.*(16.0MiB/' vboth.txt.i
for m in none mixed both; do
	run_both "v$m.terse" terse "${VJ[@]}" --unified_rw_reporting=$m
	a=$(terse_kib "v$m.terse.f"); b=$(terse_kib "v$m.terse.i")
	check "v$m: terse directions' KiB are fio's ($a), iodig $b" [ "$a" = "$b" ]
done
run_both vplus json+ "${VJ[@]}" --unified_rw_reporting=mixed
same_json vplus
for w in f i; do
	check "vplus/$w: json+'s mixed clat bins hold the 4096 I/Os" \
		[ "$(jq '[.jobs[0].mixed.clat_ns.bins[]] | add' "vplus.$w")" = 4096 ]
done

# 2. group_reporting over a reader and a writer: one entry, 4 MiB read and
# 2 MiB written, summed in the group's mixed block and MIXED line.
for m in mixed both; do
	cat >"g$m.fio" <<EOF
[global]
group_reporting
unified_rw_reporting=$m
[r]
rw=read
size=4m
[w]
rw=write
offset=4m
size=2m
EOF
	run_both "g$m" json "g$m.fio"
	same_json "g$m"
	run_both "g$m.txt" normal "g$m.fio"
	same_text "g$m.txt"
	check "g$m: one entry whose mixed block is 1536 I/Os" \
		[ "$(jq -c '[.jobs[] | .mixed.total_ios]' "g$m.i")" = "[1536]" ]
done

# 3. A randrw job with fsync: however the directions split, the mixed block
# holds the whole 8 MiB; fio keeps no "sync" key under mixed.
for m in mixed both; do
	run_both "s$m" json --name=s --rw=randrw --size=8m --fsync=16 --unified_rw_reporting=$m
	for w in f i; do
		check "s$m/$w: mixed is 2048 I/Os of 8 MiB" \
			[ "$(jq -c '.jobs[0].mixed | [.total_ios, .io_bytes]' "s$m.$w")" = "[2048,8388608]" ]
	done
	a=$(jq -c '.jobs[0] | has("sync")' "s$m.f"); b=$(jq -c '.jobs[0] | has("sync")' "s$m.i")
	check "s$m: a sync key as fio's ($a), iodig $b" [ "$a" = "$b" ]
done

# 4. A value fio refuses is refused, naming the option.
refused "unified_rw_reporting=3" "unified_rw_reporting" --unified_rw_reporting=3
done_testing
