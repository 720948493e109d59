# Latency over time on a real run (psync randrw, 2 s, a loop device on tmpfs): per direction the intervals' I/Os add up exactly to the job's total, their count is runtime/interval, p99 >= p50 in each, --interval changes the grid, ramp_time is left out of the series, --steady's steady_iops follows its documented rule, and --svg (run and diff) writes a well-formed timeseries.svg with its panels, lines and ramp band.
source tests/host/lib.sh
need_root
command -v python3 >/dev/null || skip "python3 not installed (XML check of the SVG)"
make_loop 256 || skip "cannot make a loop device"
JOB=(--name=ts --ioengine=psync --rw=randrw --bs=4k --direct=1 --time_based
     --no-progress --no-probes --target="$LOOP" --allow-destructive --output-format=json)

# run NAME RUNTIME_S INTERVAL_MS [more options]: the JSON report in $TMP/NAME.json
run() {
	local name=$1 rt=$2 iv=$3; shift 3
	"$IODIG" run "${JOB[@]}" --runtime="$rt" --interval="$iv" --save="$TMP/$name.trace" \
		"$@" >"$TMP/$name.json" 2>"$TMP/$name.err" || fail "run $name: $(cat "$TMP/$name.err")"
}

# check_series NAME RUNTIME_S INTERVAL_MS
check_series() {
	local f=$TMP/$1.json want=$(($2 * 1000 / $3)) d n sum total bad
	for d in read write; do
		n=$(jqr --arg d $d '.iodig.series[] | select(.ddir == $d) | .ios | length' "$f")
		sum=$(jqr --arg d $d '.iodig.series[] | select(.ddir == $d) | .ios | add' "$f")
		total=$(jqr --arg d $d '[.jobs[] | .[$d].total_ios] | add' "$f")
		bad=$(jqr --arg d $d '.iodig.series[] | select(.ddir == $d) |
			[.clat_p99_ns, .clat_p50_ns] | transpose | map(select(.[0] < .[1])) | length' "$f")
		check "$1 $d: intervals sum to the job's $total I/Os (got $sum)" [ "$sum" = "$total" ]
		check "$1 $d: $n intervals, runtime/interval is $want" [ "$n" -ge $((want - 1)) -a "$n" -le $((want + 1)) ]
		check "$1 $d: p99 >= p50 in every interval ($bad not)" [ "$bad" = 0 ]
		check "$1 $d: intervals did I/O" [ "$total" -gt 0 ]
	done
}

run a 2 100 --svg="$TMP/svg-a"
check_series a 2 100
run b 2 250 --ramp_time=1 --iodepth=1 --steady
check_series b 2 250
ramp=$(jqr '.iodig.series[0].ramp_ns' "$TMP/b.json")
first=$(jqr '.iodig.series[0].end_ns[0] - .iodig.series[0].dur_ns[0]' "$TMP/b.json")
check "ramp_time is the series' ramp_ns ($ramp)" [ "$ramp" = 1000000000 ]
check "the first interval starts at the start of measurement ($first)" [ "$first" = 0 ]

# --steady's figures, by the rule written again here: from the first
# window of 5 intervals whose IOPS is within 5% of the rest's
steady_ok() {
	PYTHONPATH=tests/lib python3 - "$1" <<'PY'
import json, sys
from series_rule import steady_iops
doc = json.load(open(sys.argv[1]))
want = steady_iops(doc["iodig"]["series"])
got = doc["iodig"]["repeats"]["runs"][0]["figures"]["steady_iops"]
print("steady_iops", got, "by the rule", want)
sys.exit(0 if want > 0 and abs(got - want) <= 1e-6 * want else 1)
PY
}
check "run --steady: steady_iops follows the documented rule" steady_ok "$TMP/b.trace"
check "run without --steady: no steady figures" [ "$(jqr '.iodig.repeats.runs[0].figures | has("steady_iops")' "$TMP/a.trace")" = false ]

"$IODIG" diff --svg="$TMP/svg-diff" --steady "$TMP/a.trace" "$TMP/b.trace" >/dev/null 2>"$TMP/diff.err" ||
	fail "iodig diff --svg --steady: $(cat "$TMP/diff.err")"
# svg_ok FILE LINES: well-formed XML with the four panels, a time axis,
# LINES legend entries and at least LINES series paths
svg_ok() {
	python3 - "$1" "$2" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
want = int(sys.argv[2])
panels = {g.get("id") for g in root.iter(ns + "g") if g.get("class") == "panel"}
paths = [p for p in root.iter(ns + "path") if p.get("class") == "series" and p.get("d", "").count("L") >= 3]
legend = [t for t in root.iter(ns + "text") if t.get("class") == "legend"]
axis = [g for g in root.iter(ns + "g") if g.get("class") == "time-axis"]
ok = panels == {"panel-iops", "panel-bw", "panel-clat", "panel-lat"} and len(legend) == want \
     and len(paths) >= want and len(axis) == 1
print(sorted(panels), len(paths), "paths", len(legend), "legend lines")
sys.exit(0 if ok else 1)
PY
}
check "run --svg: timeseries.svg is XML with panels, axis and 2 lines" svg_ok "$TMP/svg-a/timeseries.svg" 2
check "diff --svg: timeseries.svg overlays A and B (4 lines)" svg_ok "$TMP/svg-diff/timeseries.svg" 4
check "diff --svg: B's ramp_time is shaded" grep -q 'class="ramp"' "$TMP/svg-diff/timeseries.svg"
check "diff --svg: lines are named A and B" grep -q '>B ts write' "$TMP/svg-diff/timeseries.svg"
done_testing
