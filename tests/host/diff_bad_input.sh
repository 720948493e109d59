# iodig diff on bad input: truncated, non-iodig JSON, plain JSON report, newer major version, garbage, missing and repeated files each fail with a message naming the file, never a crash; with --fail-on every error exits 2, never 1 (which git bisect would read as "worse").
source tests/host/lib.sh
need_root
command -v jq >/dev/null || skip "jq not installed"
JOB=(--name=bad --ioengine=psync --rw=randread --bs=4k --runtime=1 --time_based --size=16m --no-probes --no-progress)
"$IODIG" run "${JOB[@]}" --filename="$TMP/data" --save="$TMP/a.json" --output-format=json \
	--output="$TMP/report.json" 2>"$TMP/err" || fail "iodig run: $(cat "$TMP/err")"
cp "$TMP/a.json" "$TMP/b.json"
"$IODIG" diff "$TMP/a.json" "$TMP/b.json" >"$TMP/ok.txt" 2>&1
check "single runs say so" grep -q "single run: no significance" "$TMP/ok.txt"

head -c 5000 "$TMP/a.json" >"$TMP/trunc.json"
echo '{"hello": "world"}' >"$TMP/other.json"
jq '.iodig_trace_version = "2.0"' "$TMP/a.json" >"$TMP/v2.json"
jq '.iodig_trace_version = "1.7"' "$TMP/a.json" >"$TMP/v17.json"
printf '\x00\x01garbage' >"$TMP/garbage.json"
ln "$TMP/a.json" "$TMP/hardlink.json"

expect_fail() { # expect_fail WHAT FILE-IN-MESSAGE ARGS...
	local what=$1 name=$2 rc; shift 2
	"$IODIG" diff "$@" >"$TMP/out" 2>"$TMP/msg"
	rc=$?
	check "$what: exit 1 (got $rc)" [ "$rc" -eq 1 ]
	check "$what: message names $name: $(cat "$TMP/msg")" grep -q "$name" "$TMP/msg"
	check "$what: no crash" [ "$rc" -lt 128 ]
}
expect_fail "truncated" "trunc.json.*truncated" "$TMP/a.json" "$TMP/trunc.json"
expect_fail "non-iodig JSON" "other.json.*not an iodig trace file" "$TMP/other.json" "$TMP/a.json"
expect_fail "plain JSON report" "report.json.*not an iodig trace file" "$TMP/a.json" "$TMP/report.json"
expect_fail "newer major" "v2.json.*newer" "$TMP/a.json" "$TMP/v2.json"
expect_fail "garbage" "garbage.json" "$TMP/a.json" "$TMP/garbage.json"
expect_fail "missing" "nothere.json" "$TMP/a.json" "$TMP/nothere.json"
expect_fail "same file twice" "a.json is given twice" "$TMP/a.json" "$TMP/a.json"
expect_fail "same file by hard link" "given twice" "$TMP/a.json" "$TMP/hardlink.json"

"$IODIG" diff "$TMP/a.json" "$TMP/v17.json" >"$TMP/out" 2>"$TMP/msg"
check "newer minor version: works (rc $?)" [ -s "$TMP/out" ]
check "newer minor version: warned" grep -q "trace versions differ" "$TMP/msg"
"$IODIG" diff --fail-on=iops "$TMP/a.json" "$TMP/trunc.json" >/dev/null 2>"$TMP/msg"
check "fail-on with a truncated file: exit 2 (got $?)" [ $? -eq 2 ]
"$IODIG" diff --fail-on=iops:lots "$TMP/a.json" "$TMP/b.json" >/dev/null 2>"$TMP/msg"
check "fail-on with a bad percentage: exit 2 (got $?)" [ $? -eq 2 ]
check "fail-on: bad percentage named" grep -q "lots" "$TMP/msg"
"$IODIG" diff --fail-on=iops "$TMP/a.json" "$TMP/b.json" >/dev/null 2>"$TMP/msg"
check "fail-on with single runs: nothing significant, exit 0 (got $?)" [ $? -eq 0 ]
"$IODIG" diff --min-change=-3 "$TMP/a.json" "$TMP/b.json" >/dev/null 2>"$TMP/msg"
check "bad --min-change is a usage error ($?)" grep -q "min-change" "$TMP/msg"
"$IODIG" diff --format=xml "$TMP/a.json" "$TMP/b.json" >/dev/null 2>"$TMP/msg"
check "bad --format is a usage error ($?)" grep -q "format" "$TMP/msg"
done_testing
