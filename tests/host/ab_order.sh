# iodig ab runs two job files alternately in ABBA order: the runs' start times in the two trace files interleave as A B B A A B; the default trace file names come from the job files and the side; --repeat=auto stops after whole pairs; --target=scratch puts both sides on one scratch device; SIGINT writes no trace file and leaves no scratch device; a bad command line is exit 2 naming the problem.
source tests/host/lib.sh
need_root
command -v jq >/dev/null || skip "jq not installed"
make_loop 32 || skip "cannot create a loop device"

job() { # job FILE BS: a short psync randread job file on the loop device
	printf '[%s]\nfilename=%s\nrw=randread\nbs=%s\nioengine=psync\ndirect=1\nruntime=200ms\ntime_based\n' \
		"$(basename "$1" .fio)" "$LOOP" "$2" >"$1"
}
job "$TMP/small.fio" 4k
job "$TMP/large.fio" 64k
export IODIG_RUNS_DIR=$TMP/runs

# order RUNS_A RUNS_B: the sides of every run, by start time
order() {
	{ jq -r '.iodig.repeats.runs[] | "\(.start_unix_ns) A"' "$1"
	  jq -r '.iodig.repeats.runs[] | "\(.start_unix_ns) B"' "$2"; } |
		sort -n | awk '{ printf "%s", $2 }'
}

"$IODIG" ab "$TMP/small.fio" "$TMP/large.fio" --repeat=3 --no-probes --no-progress \
	--format=json >"$TMP/d.json" 2>"$TMP/err"
check "ab exits 0 ($?): $(head -c 300 "$TMP/err")" [ -s "$TMP/d.json" ]
A=$(ls "$TMP"/runs/small-A-*.json 2>/dev/null)
B=$(ls "$TMP"/runs/large-B-*.json 2>/dev/null)
check "default names: runs/small-A-TIME.json, runs/large-B-TIME.json ($(ls "$TMP/runs" | tr '\n' ' '))" \
	[ -f "$A" -a -f "$B" -a "$(ls "$TMP/runs" | wc -l)" = 2 ]
check "3 runs of each side" [ "$(jqr '.iodig.repeats.count' "$A")/$(jqr '.iodig.repeats.count' "$B")" = 3/3 ]
got=$(order "$A" "$B")
check "runs in ABBA order: ABBAAB (got $got)" [ "$got" = ABBAAB ]
check "each side's job from its file" \
	[ "$(jqr '.jobs[0]["job options"].bs' "$A")/$(jqr '.jobs[0]["job options"].bs' "$B")" = 4k/64k ]
check "the diff compares the two trace files, A first" \
	[ "$(jq -r '[.files[].path] | join(" ")' "$TMP/d.json")" = "$A $B" ]
check "the diff judges 3 repeats a side" \
	[ "$(jq -r '.story.headline[0].values[1].test' "$TMP/d.json")" = "Welch t" ]

# --repeat=auto: whole pairs, so the order stays ABBA whatever the count
"$IODIG" ab "$TMP/small.fio" "$TMP/large.fio" --repeat=auto:50% --no-probes --no-progress \
	--save-a="$TMP/auto-a.json" --save-b="$TMP/auto-b.json" >"$TMP/auto.txt" 2>"$TMP/err"
check "ab --repeat=auto exits 0 ($?): $(head -c 300 "$TMP/err")" [ -s "$TMP/auto-b.json" ]
na=$(jqr '.iodig.repeats.count' "$TMP/auto-a.json")
nb=$(jqr '.iodig.repeats.count' "$TMP/auto-b.json")
got=$(order "$TMP/auto-a.json" "$TMP/auto-b.json")
want=$(printf 'ABBA%.0s' 1 2 3 4 5 | head -c $((na + nb)))
echo "info: auto: $na + $nb runs, $(jqr '.iodig.repeats.auto_stopped' "$TMP/auto-b.json")"
check "auto: as many runs of A as of B, 3 to 10 ($na, $nb)" [ "$na" = "$nb" -a "$na" -ge 3 -a "$na" -le 10 ]
check "auto: ABBA order ($got)" [ "$got" = "$want" ]
check "auto: each side says why it stopped" \
	[ -n "$(jqr '.iodig.repeats.auto_stopped // empty' "$TMP/auto-a.json")" ]
check "text output is the diff" grep -q "^iodig diff (each file against A)" "$TMP/auto.txt"

# --target=scratch: one scratch device for both sides, removed after
before=$(scratch_loops | wc -l)
"$IODIG" ab "$TMP/small.fio" "$TMP/large.fio" --target=scratch --repeat=1 --no-probes \
	--no-progress --save-a="$TMP/s-a.json" --save-b="$TMP/s-b.json" >/dev/null 2>"$TMP/err"
da=$(jqr '.iodig.environment.devices[0].name' "$TMP/s-a.json")
db=$(jqr '.iodig.environment.devices[0].name' "$TMP/s-b.json")
check "scratch: both sides on one device ($da, $db)" [ -n "$da" -a "$da" = "$db" ]
check "scratch: no device warning" [ -z "$(grep -l "different target device" "$TMP/err")" ]
check "scratch: the device is removed" [ "$(scratch_loops | wc -l)" -eq "$before" ]

# Ctrl-C: no trace file (not even a temp one), no scratch device left
rm -rf "$TMP/runs"
before=$(scratch_loops | wc -l)
"$IODIG" ab "$TMP/small.fio" "$TMP/large.fio" --target=scratch --runtime=20 --repeat=2 \
	--no-progress >"$TMP/int.out" 2>"$TMP/int.err" &
pid=$!
sleep 3
kill -INT $pid
wait $pid
rc=$?
check "SIGINT: exit 128+2 (got $rc)" [ "$rc" = 130 ]
check "SIGINT: says no trace file was written: $(cat "$TMP/int.err")" \
	grep -q "interrupted by signal 2 (runs done: A [0-9]*, B [0-9]*); no trace file written" "$TMP/int.err"
check "SIGINT: no trace or temp file" [ -z "$(ls -A "$TMP/runs" 2>/dev/null)" ]
check "SIGINT: no scratch loop device left" [ "$(scratch_loops | wc -l)" -eq "$before" ]
check "SIGINT: no scratch file left" [ -z "$(ls /dev/shm | grep "iodig-scratch-$pid-")" ]

# bad command lines
"$IODIG" ab "$TMP/small.fio" >/dev/null 2>"$TMP/err"
rc=$?
check "one job file: exit 2 ($rc)" [ "$rc" = 2 -a -n "$(grep -l "give two job files" "$TMP/err")" ]
"$IODIG" ab "$TMP/small.fio" "$TMP/nonesuch.fio" >/dev/null 2>"$TMP/err"
rc=$?
check "missing B: exit 2 ($rc), names the file: $(cat "$TMP/err")" \
	[ "$rc" = 2 -a -n "$(grep -l "nonesuch.fio" "$TMP/err")" ]
"$IODIG" ab "$TMP/small.fio" "$TMP/large.fio" --repeat=0 >/dev/null 2>"$TMP/err"
rc=$?
check "--repeat=0: exit 2 naming the option ($rc)" [ "$rc" = 2 -a -n "$(grep -l "option --repeat" "$TMP/err")" ]
check "no trace file from a bad command line" [ -z "$(ls -A "$TMP/runs" 2>/dev/null)" ]
done_testing
