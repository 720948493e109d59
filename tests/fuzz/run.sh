#!/bin/bash
# Runs libFuzzer targets: first replays every input in regressions/<name>/,
# then fuzzes FUZZ_SECONDS each from seeds/<name>/ plus a working corpus in
# $OUT/fuzz/corpus.  A crash found by `make fuzz` is copied to
# regressions/<name>/ so it is replayed from then on; with --smoke (the test
# suite) it stays in $OUT/fuzz/artifacts and the run fails.
# Usage: tests/fuzz/run.sh [--smoke] NAME...
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-build}
secs=${FUZZ_SECONDS:-45}
smoke=
[ "${1:-}" = --smoke ] && { smoke=1; shift; }
[ $# -gt 0 ] || { echo "usage: $0 [--smoke] NAME..." >&2; exit 2; }

failed=0 total_execs=0 total_secs=0
for name in "$@"; do
	bin=$OUT/fuzz/bin/fuzz_$name
	seeds=tests/fuzz/seeds/$name
	regs=tests/fuzz/regressions/$name
	work=$OUT/fuzz/corpus/$name
	arts=$OUT/fuzz/artifacts/$name
	log=$OUT/fuzz/$name.log
	if [ ! -x "$bin" ]; then
		echo "$name: $bin is not built (make fuzz-build)"
		failed=$((failed + 1))
		continue
	fi
	mkdir -p "$work" "$arts"
	inputs=()
	for f in "$regs"/*; do [ -f "$f" ] && [[ "$f" != */README* ]] && inputs+=("$f"); done
	if [ ${#inputs[@]} -gt 0 ]; then
		if "$bin" -runs=1 "${inputs[@]}" >"$log.replay" 2>&1; then
			echo "$name: ${#inputs[@]} regression input(s) replayed clean"
		else
			echo "$name: FAIL: a regression input crashes again:"
			grep -E 'Running: |ERROR: |runtime error|SUMMARY' "$log.replay" | tail -n 6 | sed 's/^/    /'
			failed=$((failed + 1))
			continue
		fi
	fi
	# -max_len: real inputs fit; longer ones only slow the search.  -timeout: a parser taking 10 s is a hang.
	maxlen=65536
	[ "$name" = tracefile ] && maxlen=300000   # real trace files run 20-270 KB
	start=$SECONDS
	"$bin" -max_total_time="$secs" -max_len=$maxlen -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$arts/" "$work" "$seeds" >"$log" 2>&1
	rc=$?
	execs=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')
	execs=${execs:-0}
	total_execs=$((total_execs + execs)) total_secs=$((total_secs + SECONDS - start))
	if [ "$rc" -eq 0 ]; then
		echo "$name: ${execs} executions in $((SECONDS - start)) s, corpus $(ls "$work" | wc -l) inputs, no crash"
		continue
	fi
	failed=$((failed + 1))
	echo "$name: FAIL (exit $rc) after ${execs} executions:"
	grep -E 'ERROR: |runtime error|SUMMARY|Test unit written' "$log" | head -n 6 | sed 's/^/    /'
	for a in "$arts"/crash-* "$arts"/leak-* "$arts"/timeout-* "$arts"/oom-*; do
		[ -f "$a" ] || continue
		if [ -n "$smoke" ]; then
			echo "    input kept in $a; run make fuzz or copy it to $regs/"
		else
			mkdir -p "$regs"
			cp "$a" "$regs/" && echo "    saved as $regs/$(basename "$a")"
		fi
	done
done
echo "fuzzing: $total_execs executions in ${total_secs} s over $# target(s), $failed failed"
[ "$failed" -eq 0 ]
