# The same job file on both sides of iodig ab (4 runs each, ABBA, every default probe): nothing is called changed over all the diff's rows (Benjamini-Hochberg at the default alpha 0.01), the story has no kernel row, --fail-on=iops exits 0, no device or job warning, and the two trace files get distinct default names. timeout: 120
source tests/host/lib.sh
need_root
command -v jq >/dev/null || skip "jq not installed"
make_loop 64 || skip "cannot create a loop device"
printf '[same]\nfilename=%s\nrw=randread\nbs=4k\nioengine=io_uring\niodepth=8\ndirect=1\nruntime=1s\ntime_based\n' \
	"$LOOP" >"$TMP/same.fio"
export IODIG_RUNS_DIR=$TMP/runs

"$IODIG" ab "$TMP/same.fio" "$TMP/same.fio" --no-progress --format=json --fail-on=iops \
	>"$TMP/d.json" 2>"$TMP/err"
rc=$?
check "ab exits 0 with --fail-on=iops ($rc): $(head -c 300 "$TMP/err")" [ "$rc" = 0 ]
check "two trace files, same-A-TIME.json and same-B-TIME.json ($(ls "$TMP/runs" | tr '\n' ' '))" \
	[ -f "$(ls "$TMP"/runs/same-A-*.json)" -a -f "$(ls "$TMP"/runs/same-B-*.json)" ]
tested=$(jq '.statistics.tested_rows' "$TMP/d.json")
changed=$(jq -c '[.rows[] | select(.values[1].verdict == "changed") | .key]' "$TMP/d.json")
check "nothing called changed over $tested tested rows ($changed)" [ "$changed" = "[]" ]
check "tested rows include kernel rows ($tested)" [ "$tested" -gt 10 ]
check "the story shows no kernel row" [ "$(jq '.story.kernel | length' "$TMP/d.json")" = 0 ]
check "--fail-on says why it passed" grep -q -- "--fail-on" "$TMP/err"
no_match() { ! grep -q "$@"; }
check "no device or job warning" no_match "different target device\|the job differs" "$TMP/err"
for f in lat_mean_ns lat_p99_ns; do
	echo "info: $f: $(jq -c --arg f "$f" '.rows[] | select(.key == $f) |
		[.values[] | {mean, stdev, verdict, p}]' "$TMP/d.json")"
done
done_testing
