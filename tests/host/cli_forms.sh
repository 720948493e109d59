# Every subcommand takes "--opt value" as well as "--opt=value" (iodig probe --target X, iodig diff --format json A B, run's own options) with the same result; a missing value, a value given to a flag, a bad value or an unknown option is exit status 2 with one line naming the option; iodig SUB --help shows that subcommand.
source tests/host/lib.sh
need_root
command -v jq >/dev/null || skip "jq not installed"
make_loop 16 || skip "cannot create a loop device"

"$IODIG" probe --target "$LOOP" >"$TMP/probe1" 2>&1
rc=$?
"$IODIG" probe --target="$LOOP" >"$TMP/probe2" 2>&1
check "probe --target X works (rc $rc): $(head -2 "$TMP/probe1")" \
	[ $rc -eq 0 ] && grep -q "^block " "$TMP/probe1"
check "probe --target X equals --target=X" cmp -s "$TMP/probe1" "$TMP/probe2"

JOB=(--name=forms --filename="$LOOP" --ioengine=psync --rw=randread --bs=4k --size=4m
     --runtime=1 --time_based --no-probes --no-progress)
"$IODIG" run "${JOB[@]}" --output-format json --output "$TMP/report.json" \
	--save "$TMP/a.json" --repeat 2 --repeat-delay 10ms 2>"$TMP/err"
rc=$?
check "run with --opt value options works (rc $rc): $(head -c 300 "$TMP/err")" [ $rc -eq 0 ]
check "--output-format json --output FILE: a JSON report" \
	[ "$(jqr '.jobs[0].jobname' "$TMP/report.json")" = forms ]
check "--repeat 2: two repeats" [ "$(jqr '.iodig.repeats.count' "$TMP/report.json")" = 2 ]
check "--save FILE: the trace file" [ -s "$TMP/a.json" ]
cp "$TMP/a.json" "$TMP/b.json"

"$IODIG" diff --format json "$TMP/a.json" "$TMP/b.json" >"$TMP/d1.json" 2>"$TMP/err"
rc=$?
check "diff --format json A B works (rc $rc): $(head -c 300 "$TMP/err")" [ $rc -eq 0 ]
check "diff --format json: JSON" jq -e . "$TMP/d1.json" >/dev/null
"$IODIG" diff --format=json "$TMP/a.json" "$TMP/b.json" >"$TMP/d2.json" 2>/dev/null
check "diff --format json equals --format=json" cmp -s "$TMP/d1.json" "$TMP/d2.json"
"$IODIG" diff "$TMP/a.json" --alpha 0.05 --format md "$TMP/b.json" >"$TMP/d.md" 2>/dev/null
check "diff A --alpha P --format md B: Markdown" grep -q '^|' "$TMP/d.md"

expect_usage() { # expect_usage PATTERN ARGS...: exit 2, one line matching PATTERN
	local pattern=$1 rc; shift
	"$IODIG" "$@" >"$TMP/out" 2>"$TMP/msg"
	rc=$?
	check "$* -> exit 2 (got $rc)" [ $rc -eq 2 ]
	check "$* -> '$pattern' (got: $(head -c 300 "$TMP/msg"))" grep -q -- "$pattern" "$TMP/msg"
	check "$* -> one line" [ "$(wc -l <"$TMP/msg")" -eq 1 ]
}
A=$TMP/a.json B=$TMP/b.json
expect_usage "option --format needs a value" diff "$A" "$B" --format
expect_usage "option --format: 'xml' is not one of text, json, md" diff --format xml "$A" "$B"
expect_usage "option --alpha: '1' is not a probability between 0 and 0.5" diff --alpha 1 "$A" "$B"
expect_usage "unknown option '--bogus' (see iodig diff --help)" diff --bogus "$A" "$B"
expect_usage "option --target needs a value" probe --target
expect_usage "unknown option '--repeat' (see iodig probe --help)" probe --repeat 2
expect_usage "option --repeat needs a value" run "${JOB[@]}" --repeat
expect_usage "option --repeat: '0' is not a number from 1 to 1000" run "${JOB[@]}" --repeat 0
expect_usage "option --no-save takes no value" run "${JOB[@]}" --no-save=yes
expect_usage "option --man takes no value" help --man=1

for sub in run probe diff help version; do
	"$IODIG" "$sub" --help >"$TMP/out" 2>&1
	rc=$?
	check "iodig $sub --help: exit 0 (got $rc), its usage" \
		[ $rc -eq 0 ] && grep -q "^usage: iodig $sub" "$TMP/out"
	"$IODIG" help "$sub" | cmp -s - "$TMP/out"
	check "iodig help $sub equals iodig $sub --help" [ $? -eq 0 ]
done
done_testing
