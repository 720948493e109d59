# Latency over time of every repeat (trace file 1.3; 1.4 since): a --repeat=3 run (psync randrw, 1 s, a loop device on tmpfs) keeps 3 series per job and direction in iodig.repeats.runs[].series, each repeat's adding up to its own I/O count with an IOPS mean that agrees with its own IOPS figure and its own steady_iops; the last repeat's is iodig.series; --svg draws each repeat (earlier ones thin) and loads in headless Chromium; a saved 1.2 file still loads, diffs and overlays.
source tests/host/lib.sh
need_root
command -v python3 >/dev/null || skip "python3 not installed (checks of the trace file and SVG)"
make_loop 256 || skip "cannot make a loop device"
OLD=tests/fuzz/seeds/tracefile/series_v1_2.json
JOB=(--name=ts --ioengine=psync --rw=randrw --bs=4k --direct=1 --time_based --runtime=1
     --no-progress --no-probes --target="$LOOP" --allow-destructive)

"$IODIG" run "${JOB[@]}" --repeat=3 --steady --save="$TMP/r3.trace" --svg="$TMP/svg-run" \
	--output-format=json >"$TMP/r3.json" 2>"$TMP/err" || fail "run --repeat=3: $(cat "$TMP/err")"
check "the trace file is version 1.4 (1.3 added the runs' series)" [ "$(jqr '.iodig_trace_version' "$TMP/r3.trace")" = 1.4 ]
check "the JSON report carries the runs' series too" \
	[ "$(jqr '[.iodig.repeats.runs[] | .series | length] | join(",")' "$TMP/r3.json")" = 2,2,2 ]

# Per repeat: one series per direction; the intervals tile the measurement
# (no gap, so the series' time is the worker's runtime_ns) and add up to
# the repeat's I/O count.  The IOPS figure is I/Os over the runtime in
# whole ms, as fio's, so the series' mean (over ns) is at most the figure
# and below it by at most the 1 ms truncation: 0 <= fig - mean <= fig *
# 1 ms / runtime (1e-9 relative added for the doubles).  steady_iops
# follows --steady's rule over that repeat's own series.
repeats_ok() {
	PYTHONPATH=tests/lib python3 - "$1" <<'PY'
import json, sys
from series_rule import mean_iops, steady_iops
doc = json.load(open(sys.argv[1]))
runs = doc["iodig"]["repeats"]["runs"]
bad = []
if len(runs) != 3:
    bad.append("%d runs" % len(runs))
for i, r in enumerate(runs):
    ser, fig = r.get("series", []), r["figures"]
    keys = sorted((s["job"], s["ddir"]) for s in ser)
    if keys != [("ts", "read"), ("ts", "write")]:
        bad.append("run %d: series %s" % (i, keys))
        continue
    ios = sum(sum(s["ios"]) for s in ser)
    if ios != fig["ios"] or ios <= 0:
        bad.append("run %d: series add up to %d I/Os, the repeat did %d" % (i, ios, fig["ios"]))
    for s in ser:
        dur = sum(s["dur_ns"])
        if dur != s["end_ns"][-1]:
            bad.append("run %d %s: intervals leave a gap" % (i, s["ddir"]))
        m, f = mean_iops(s, 0, len(s["ios"])), fig[s["ddir"] + ".iops"]
        print("run %d %s: series mean %.1f IOPS, figure %.1f, runtime %d ns"
              % (i, s["ddir"], m, f, dur))
        # each direction's figure divides by its runtime in whole ms,
        # rounded up as fio's runtime[ddir]: up to 1 ms either way
        if not (-f * (1e6 / dur + 1e-9) <= f - m <= f * (1e6 / dur + 1e-9)):
            bad.append("run %d %s: series mean %.3f against IOPS %.3f" % (i, s["ddir"], m, f))
    want = steady_iops(ser)
    if abs(fig["steady_iops"] - want) > 1e-6 * want:
        bad.append("run %d: steady_iops %f, by its own series %f" % (i, fig["steady_iops"], want))
if runs and runs[-1].get("series") != doc["iodig"].get("series"):
    bad.append("iodig.series is not the last run's")
print("\n".join(bad))
sys.exit(1 if bad else 0)
PY
}
check "3 series per direction, each agreeing with its repeat's figures" repeats_ok "$TMP/r3.trace"

"$IODIG" diff --steady --svg="$TMP/svg-diff" "$OLD" "$TMP/r3.trace" >"$TMP/diff.txt" 2>"$TMP/err" ||
	fail "iodig diff of a 1.2 file against a 1.3 file: $(cat "$TMP/err")"
check "diff 1.2 against 1.3: both files named" grep -q "r3.trace" "$TMP/diff.txt"
cp "$OLD" "$TMP/old-copy.json"
"$IODIG" diff "$OLD" "$TMP/old-copy.json" >/dev/null 2>"$TMP/err" ||
	fail "iodig diff of two 1.2 files: $(cat "$TMP/err")"

# lines_ok FILE LEGEND_LINES THIN_PER_LEGEND...: XML; each legend line's
# colour has one bold path per panel line and THIN thin ones of the
# earlier repeats, numbered 1..THIN, the bold one THIN+1
lines_ok() {
	python3 - "$@" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
legend = [t for t in root.iter(ns + "text") if t.get("class") == "legend"]
want = [int(x) for x in sys.argv[3:]]
ok = len(legend) == int(sys.argv[2]) == len(want)
for t, thin in zip(legend, want):
    paths = [p for p in root.iter(ns + "path") if p.get("class") == "series"
             and p.get("stroke") == t.get("fill") and p.get("d", "").count("L") >= 3]
    reps = {(p.get("stroke-width"), p.get("data-repeat")) for p in paths}
    expect = {("0.8", str(k)) for k in range(1, thin + 1)} | {("1.6", str(thin + 1))}
    print(t.text, sorted(reps))
    ok = ok and reps == expect and (thin == 0) == ("thin:" not in t.text)
sys.exit(0 if ok else 1)
PY
}
check "run --svg: each direction's 3 repeats, 2 thin" lines_ok "$TMP/svg-run/timeseries.svg" 2 2 2
check "diff --svg: the 1.2 file's last repeat and the 1.3 file's 3" \
	lines_ok "$TMP/svg-diff/timeseries.svg" 4 0 0 2 2

CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -n "$CHROME" ]; then
	for f in svg-run svg-diff; do
		svg=$TMP/$f/timeseries.svg
		timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run \
			--user-data-dir="$TMP/chrome" --enable-logging=stderr --v=0 \
			--dump-dom "file://$svg" >"$svg.dom" 2>"$svg.log" || fail "chromium could not load $f"
		check "$f/timeseries.svg: no JavaScript errors" \
			bash -c "! grep -Eq 'Uncaught|CONSOLE.*(Error|error)' '$svg.log'"
		check "$f/timeseries.svg: rendered with thin repeats" grep -q 'data-repeat="2"' "$svg.dom"
	done
else
	echo "chromium not installed: the SVG checked as XML only"
fi
done_testing
