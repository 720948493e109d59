# jobs/gup-libaio.fio shortened to 1 s per group (1 job, then 20 stonewalled): a kernel section under each group's jobs, naming them, in the text and in iodig.groups[] of the JSON; each group's figures in the trace file under g0/ and g1/ are that group's own (block requests per I/O ~1 in each, not the two groups summed); diff of the trace file against a copy of it compares group by group and calls nothing changed. timeout: 120
source tests/host/lib.sh
need_root
command -v jq >/dev/null || skip "jq not installed"
make_loop 256 || skip "cannot create a loop device"

"$IODIG" run jobs/gup-libaio.fio --runtime=1 --target="$LOOP" --no-progress \
	--output-format=normal,json --save="$TMP/trace.json" >"$TMP/out" 2>"$TMP/err"
rc=$?
check "exit 0 ($(head -c 200 "$TMP/err"))" [ "$rc" -eq 0 ]
split_report "$TMP/out"
for fam in block sched; do
	state=$(jqr --arg f "$fam" '.iodig.kernel.probes[]? | select(.family == $f) | .state' "$TMP/out.json")
	[ "$state" = active ] || skip "the $fam family is not active here (${state:-no probes})"
done

# text: each group's section after its own jobs, before the group lines
line() { grep -n -m1 -F -- "$1" "$TMP/out.txt" | cut -d: -f1; }
j0=$(line "gup-1job: (groupid=0, jobs=1)")
k0=$(line "Kernel, group 0 (job gup-1job: 1 worker):")
j1=$(line "gup-20jobs: (groupid=1, jobs=20)")
k1=$(line "Kernel, group 1 (job gup-20jobs: 20 workers):")
rs=$(line "Run status group 0")
check "text: group 0's kernel section follows its job (lines $j0 < $k0 < $j1)" \
	[ -n "$j0" ] && [ -n "$k0" ] && [ -n "$j1" ] && [ "$j0" -lt "$k0" ] && [ "$k0" -lt "$j1" ]
check "text: group 1's kernel section follows its job (lines $j1 < $k1 < $rs)" \
	[ -n "$k1" ] && [ -n "$rs" ] && [ "$j1" -lt "$k1" ] && [ "$k1" -lt "$rs" ]
check "text: no whole-run Kernel: section" [ -z "$(line "Kernel:")" ]

# JSON report: iodig.groups[] with each group's section, iodig.kernel only the probe list
q() { jqr "$1" "$TMP/out.json"; }
check "JSON: two groups" [ "$(q '.iodig.groups | length')" = 2 ]
check "JSON: group 0 covers gup-1job, 1 worker" \
	[ "$(q '.iodig.groups[0] | "\(.group) \(.jobs | join(",")) \(.workers)"')" = "0 gup-1job 1" ]
check "JSON: group 1 covers gup-20jobs, 20 workers" \
	[ "$(q '.iodig.groups[1] | "\(.group) \(.jobs | join(",")) \(.workers)"')" = "1 gup-20jobs 20" ]
check "JSON: each group's sched counted switches" \
	[ "$(q '[.iodig.groups[].kernel.sched.switches > 0] | all')" = true ]
check "JSON: iodig.kernel has the probe list only" [ "$(q '.iodig.kernel | keys | join(",")')" = probes ]

# trace file: per-group figures with their definitions
t() { jqr "$1" "$TMP/trace.json"; }
F=.iodig.repeats.runs[0].figures
check "trace version 1.4" [ "$(t .iodig_trace_version)" = 1.4 ]
check "trace: iodig.groups as in the report" [ "$(t '[.iodig.groups[].workers] | join(",")')" = "1,20" ]
for g in 0 1; do
	check "trace: g$g/iops and g$g/kernel.switches_per_io" \
		[ "$(t "$F | has(\"g$g/iops\") and has(\"g$g/kernel.switches_per_io\")")" = true ]
	ios=$(t "$F[\"g$g/ios\"] // 0")
	total=$(t ".jobs[$g].read.total_ios // -1")
	check "trace: g$g/ios ($ios) is group $g's job's I/Os ($total)" [ "${ios%.*}" = "$total" ]
	rpi=$(t "$F[\"g$g/kernel.requests_per_io\"] // 0")
	check "trace: group $g's block requests per I/O ($rpi) are its own, ~1" \
		awk "BEGIN{exit !($rpi > 0.9 && $rpi < 1.1)}"
done
check "trace: no whole-run kernel figures" [ "$(t "$F | has(\"kernel.switches_per_io\")")" = false ]
check "trace: definition of kernel.switches_per_io" \
	[ "$(t '.iodig.figure_definitions[] | select(.key == "kernel.switches_per_io") | .label')" = "sched switches per I/O" ]

# diff against a copy: group by group, nothing changed
cp "$TMP/trace.json" "$TMP/copy.json"
"$IODIG" diff --format=json "$TMP/trace.json" "$TMP/copy.json" >"$TMP/diff.json" 2>"$TMP/diff.err"
rc=$?
check "diff exit 0 ($(head -c 200 "$TMP/diff.err"))" [ "$rc" -eq 0 ]
check "diff: sections of group 0 and group 1" \
	[ "$(jqr '[.rows[].section | select(test("^group [01] \\(gup-[0-9]+jobs?\\) kernel$"))] | unique | length' "$TMP/diff.json")" = 2 ]
check "diff: group 1's sched switches compared" \
	[ "$(jqr '[.rows[] | select(.section == "group 1 (gup-20jobs) kernel" and .figure == "sched switches per I/O")] | length' "$TMP/diff.json")" = 1 ]
check "diff: nothing changed" [ "$(jqr '[.rows[].values[1].verdict] | map(select(. == "changed")) | length' "$TMP/diff.json")" = 0 ]
check "diff: every change is 0" [ "$(jqr '[.rows[].values[1].change // 0 | select(. != 0)] | length' "$TMP/diff.json")" = 0 ]
done_testing
