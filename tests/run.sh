#!/bin/bash
# Runs every test (unit programs and host scripts) with a timeout; each exits
# 0 pass, 77 skip (printing "skipped: why"), anything else fail.  Ends with
# "N passed, N failed, N skipped".  Usage: tests/run.sh [NAME-FILTER]
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-build}
export OUT IODIG="${IODIG:-$PWD/$OUT/iodig}"
LOGS=$OUT/test-logs
mkdir -p "$LOGS"
filter=${1:-}
default_timeout=${IODIG_TEST_TIMEOUT:-300}

tests=()
for t in "$OUT"/tests/unit/*; do
	[ -x "$t" ] && [ -f "$t" ] && [[ "$t" != *.d ]] && tests+=("$t")
done
for t in tests/host/*.sh; do
	[ -f "$t" ] && tests+=("$t")
done

passed=0 failed=0 skipped=0
failed_list=() skipped_list=()
for t in "${tests[@]}"; do
	name=$(basename "$t" .sh)
	[ -n "$filter" ] && [[ "$name" != *$filter* ]] && continue
	src=$t
	[[ "$t" == "$OUT"/tests/unit/* ]] && src=tests/unit/$name.c
	# A test may ask for more time with a "timeout: N" comment.
	limit=$(grep -m1 -o 'timeout: [0-9]*' "$src" 2>/dev/null | awk '{print $2}')
	limit=${limit:-$default_timeout}
	log=$LOGS/$name.log
	start=$(date +%s%N)
	if [[ "$t" == *.sh ]]; then
		timeout -k 10 "$limit" bash "$t" >"$log" 2>&1 </dev/null
	else
		timeout -k 10 "$limit" "$t" >"$log" 2>&1 </dev/null
	fi
	rc=$?
	ms=$((($(date +%s%N) - start) / 1000000))
	secs=$((ms / 1000)).$(((ms % 1000) / 100))
	case $rc in
	0)  passed=$((passed + 1)); printf 'PASS  %-32s %6ss\n' "$name" "$secs" ;;
	77) skipped=$((skipped + 1))
	    why=$(grep -m1 '^skipped:' "$log" | sed 's/^skipped: *//')
	    skipped_list+=("$name: ${why:-no reason given}")
	    printf 'SKIP  %-32s %s\n' "$name" "${why:-}" ;;
	124|137) failed=$((failed + 1)); failed_list+=("$name (timed out after ${limit}s)")
	    printf 'FAIL  %-32s timed out after %ss\n' "$name" "$limit" ;;
	*)  failed=$((failed + 1)); failed_list+=("$name (exit $rc)")
	    printf 'FAIL  %-32s exit %d\n' "$name" "$rc" ;;
	esac
done

if [ ${#failed_list[@]} -gt 0 ]; then
	echo
	echo "Failed tests (last lines of each log in $LOGS):"
	for f in "${failed_list[@]}"; do
		echo "--- $f"
		tail -n 15 "$LOGS/${f%% *}.log" | sed 's/^/    /'
	done
fi
if [ ${#skipped_list[@]} -gt 0 ]; then
	echo
	echo "Skipped tests:"
	for s in "${skipped_list[@]}"; do echo "    $s"; done
fi
echo
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
