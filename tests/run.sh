#!/bin/bash
# Runs every test (unit programs and host scripts) with a timeout; each exits
# 0 pass, 77 skip (printing "skipped: why"), anything else fail.  Ends with
# "N passed, N failed, N skipped".  Unit programs built with ASan+UBSan in
# $OUT/asan run again as "asan-<name>", and fail on any sanitizer report.
# Usage: tests/run.sh [NAME-SUBSTRING | -e NAME-REGEX]
set -u
cd "$(dirname "$0")/.."
OUT=${OUT:-build}
case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac
export OUT IODIG="${IODIG:-$OUT/iodig}"
# Trace files of test runs go to the build folder, not the working tree.
export IODIG_RUNS_DIR=${IODIG_RUNS_DIR:-$OUT/test-runs}
LOGS=$OUT/test-logs
mkdir -p "$LOGS"
filter=${1:-} regex=
[ "$filter" = -e ] && { regex=${2:-}; filter=; }
# What any sanitizer prints when it finds something; exit codes can hide it
# (a forked worker's report, a test that catches the abort).
SAN_REPORT='ERROR: (Address|Leak)Sanitizer|runtime error:|SUMMARY: UndefinedBehaviorSanitizer'
# Tests that assert exact kernel counts ASan itself changes (its shadow
# memory takes page faults): under ASan only a sanitizer report fails them.
SAN_COUNTS_PERTURBED=" test_probe_faults "
default_timeout=${IODIG_TEST_TIMEOUT:-300}

tests=()
# C tests: unit (no privileges), root (loop devices), bpf (load BPF).
for d in unit root bpf; do
	for t in "$OUT"/tests/$d/* "$OUT"/asan/tests/$d/*; do
		[ -x "$t" ] && [ -f "$t" ] && [[ "$t" != *.d ]] && tests+=("$t")
	done
done
for t in tests/lint/*.sh tests/host/*.sh; do
	# lib.sh is sourced by the others, not a test
	[ -f "$t" ] && [ "$(basename "$t")" != lib.sh ] && tests+=("$t")
done

passed=0 failed=0 skipped=0
failed_list=() skipped_list=()
for t in "${tests[@]}"; do
	name=$(basename "$t" .sh)
	src=$t san=
	dir=$(basename "$(dirname "$t")")
	[[ "$t" == "$OUT"/tests/* ]] && src=tests/$dir/$name.c
	[[ "$t" == "$OUT"/asan/tests/* ]] && { src=tests/$dir/$name.c; name=asan-$name; san=1; }
	[ -n "$filter" ] && [[ "$name" != *$filter* ]] && continue
	[ -n "$regex" ] && ! [[ "$name" =~ $regex ]] && continue
	# A test may ask for more time with a "timeout: N" comment.
	limit=$(grep -m1 -o 'timeout: [0-9]*' "$src" 2>/dev/null | awk '{print $2}')
	limit=${limit:-$default_timeout}
	log=$LOGS/$name.log
	start=$(date +%s%N)
	if [[ "$t" == *.sh ]]; then
		timeout -k 10 "$limit" bash "$t" >"$log" 2>&1 </dev/null
	elif [ -n "$san" ]; then
		ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1 \
		UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
			timeout -k 10 "$limit" "$t" >"$log" 2>&1 </dev/null
	else
		timeout -k 10 "$limit" "$t" >"$log" 2>&1 </dev/null
	fi
	rc=$?
	if [ -n "$san" ] && grep -Eq "$SAN_REPORT" "$log"; then
		echo "run.sh: sanitizer report in the log (exit status was $rc)" >>"$log"
		[ "$rc" -eq 0 ] || [ "$rc" -eq 77 ] && rc=1
	elif [ -n "$san" ] && [ "$rc" -eq 1 ] && [[ "$SAN_COUNTS_PERTURBED" == *" ${name#asan-} "* ]]; then
		echo "skipped: ASan's own page faults change the counts this test asserts; no sanitizer report" >>"$log"
		sed -i '1i skipped: ASan perturbs the counts it asserts; no sanitizer report' "$log"
		rc=77
	fi
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
	echo "Failed tests (the lines before each FAIL and the last lines of each log in $LOGS):"
	for f in "${failed_list[@]}"; do
		echo "--- $f"
		log=$LOGS/${f%% *}.log
		# a failed check's own diagnostics come before its FAIL line
		if grep -q '^FAIL' "$log"; then
			grep -B 12 -m 3 '^FAIL' "$log" | sed 's/^/    /'
			echo "    [...]"
			tail -n 3 "$log" | sed 's/^/    /'
		else
			tail -n 15 "$log" | sed 's/^/    /'
		fi
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
