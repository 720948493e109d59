# SVG pictures of a run and of a diff load in headless Chromium without JavaScript errors, show the expected kernel function names, the embedded search marks matching frames, and latency over time has a line per file.
source tests/host/lib.sh
need_root
CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
[ -n "$CHROME" ] || skip "chromium not installed (Debian package: chromium)"
# iodepth 1: every I/O waits in io_uring_enter, so even with sched taking
# stacks for 1 in 64 switches the off-CPU graph has hundreds of them.
JOB=(--name=svg --ioengine=io_uring --rw=randread --bs=4k --iodepth=1 --direct=1
     --runtime=2 --time_based --no-progress --target=scratch)
"$IODIG" run "${JOB[@]}" --save="$TMP/a.json" --svg="$TMP/run" --folded="$TMP/a.folded" \
	>/dev/null 2>"$TMP/err" || fail "iodig run --svg: $(cat "$TMP/err")"
"$IODIG" run "${JOB[@]}" --save="$TMP/b.json" >/dev/null 2>"$TMP/err" || fail "second run: $(cat "$TMP/err")"
"$IODIG" diff --svg="$TMP/diff" "$TMP/a.json" "$TMP/b.json" >/dev/null 2>"$TMP/err" ||
	fail "iodig diff --svg: $(cat "$TMP/err")"
check "folded file has on-cpu stacks" grep -q '^on-cpu;.* [0-9]*$' "$TMP/a.folded"

# render FILE QUERY: the DOM after scripts ran, console output in FILE.log
render() {
	timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run \
		--user-data-dir="$TMP/chrome" --enable-logging=stderr --v=0 \
		--dump-dom "file://$1$2" >"$1.dom" 2>"$1.log"
}
no_js_error() { ! grep -Eq 'Uncaught|CONSOLE.*(Error|error)' "$1.log"; }
for f in run/oncpu run/offcpu run/latency run/timeseries diff/oncpu-diff diff/offcpu-diff \
	 diff/latency diff/timeseries; do
	svg="$TMP/$f.svg"
	check "$f.svg exists" [ -s "$svg" ]
	render "$svg" "" || fail "chromium could not load $f.svg"
	check "$f.svg: no JavaScript errors" no_js_error "$svg"
	check "$f.svg: DOM rendered" grep -q '<svg' "$svg.dom"
	case $f in
	*oncpu*)
		check "$f.svg: scripts ran" grep -q 'data-ready="1"' "$svg.dom"
		check "$f.svg: shows io_submit_sqes" grep -q 'data-n="io_submit_sqes"' "$svg.dom"
		render "$svg" "?s=io_submit_sqes" || fail "chromium with search"
		check "$f.svg: search marks frames" grep -q 'class="f match"' "$svg.dom"
		check "$f.svg: search reports a share" grep -q 'Matched: [0-9.]*%' "$svg.dom" ;;
	*offcpu*)
		check "$f.svg: scripts ran" grep -q 'data-ready="1"' "$svg.dom"
		check "$f.svg: shows a blocking function" grep -Eq 'data-n="(io_cqring_wait|schedule|exit_to_user_mode_loop)"' "$svg.dom" ;;
	*latency*)
		check "$f.svg: marks p99.9" grep -q '>p99.9 ' "$svg.dom" ;;
	*timeseries*)
		check "$f.svg: IOPS over time" grep -q 'id="panel-iops"' "$svg.dom"
		lines=$(grep -o 'class="legend"' "$svg.dom" | wc -l)
		want=$([ "${f%%/*}" = run ] && echo 1 || echo 2)
		check "$f.svg: a line per file ($lines of $want)" [ "$lines" -eq "$want" ] ;;
	esac
done
done_testing
