# The counters family: the workers' software counters (perf_event_open on each worker thread) agree with the workers' getrusage (context switches exactly up to 1% + 2, minor/major faults up to 1% + 8, task-clock at least half of usr+sys CPU and at most the workers' run time + 5% + 50 ms: task-clock and usr+sys are measured differently (perf's clock most likely counts the time a busy host took the vCPU away, sum_exec_runtime does not), so against usr+sys it reads ~30% lower on a switch-heavy job and 50% higher on a busy host) and with the sched family's switch count (up to 5% + 200: sched also sees the workers' start and end); process and thread workers; an mmap job for faults; the hardware counters counted where the CPU has a PMU, else one line naming them and "no hardware PMU (perf_event_open: ENOENT)" in the text, JSON and `iodig probe`; the per-I/O figures in the trace file. timeout: 120
source tests/host/lib.sh
need_root
command -v jq >/dev/null || skip "jq not installed"
make_loop 256 || skip "cannot create a loop device"

# near A B ABS PCT: |A - B| <= ABS + PCT% of B
near() { awk -v a="$1" -v b="$2" -v abs="$3" -v pct="$4" \
	'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= abs + b * pct / 100) }'; }

run() { # run NAME OPTIONS...: the report in $TMP/NAME.{txt,json}, trace in $TMP/NAME.trace
	local name=$1; shift
	"$IODIG" run --name="$name" --filename="$LOOP" --runtime=2 --time_based --no-progress \
		--output-format=normal,json --save="$TMP/$name.trace" "$@" >"$TMP/$name" 2>"$TMP/$name.err"
	rc=$?
	check "$name: exit 0 ($(head -c 200 "$TMP/$name.err"))" [ "$rc" -eq 0 ]
	split_report "$TMP/$name"
}

run procs --rw=randread --bs=4k --ioengine=psync --direct=1 --numjobs=2
run threads --rw=randread --bs=4k --ioengine=mmap --size=64m --numjobs=2 --thread
state=$(jqr '.iodig.kernel.probes[]? | select(.family == "counters") | .state' "$TMP/procs.json")
[ "$state" = active ] || skip "the counters family is not active here (${state:-no probes})"

for name in procs threads; do
	q() { jqr "$1" "$TMP/$name.json"; }
	c() { q ".iodig.kernel.counters.events[\"$1\"].value // -1"; }
	ctx=$(q '[.jobs[].ctx] | add'); minf=$(q '[.jobs[].minf] | add'); majf=$(q '[.jobs[].majf] | add')
	# usr_cpu and sys_cpu are percentages of each job's runtime
	cpu_ns=$(q '[.jobs[] | (.usr_cpu + .sys_cpu) / 100 * .job_runtime * 1e6] | add')
	check "$name: both workers counted" [ "$(q '.iodig.kernel.counters.workers')" = 2 ]
	check "$name: context-switches $(c context-switches) ~ getrusage ctx $ctx" \
		near "$(c context-switches)" "$ctx" 2 1
	check "$name: minor-faults $(c minor-faults) ~ getrusage minf $minf" \
		near "$(c minor-faults)" "$minf" 8 1
	check "$name: major-faults $(c major-faults) ~ getrusage majf $majf" \
		near "$(c major-faults)" "$majf" 8 1
	check "$name: page-faults $(c page-faults) >= minor + major" \
		[ "$(c page-faults)" -ge $(( $(c minor-faults) + $(c major-faults) )) ]
	wall_ns=$(q '[.jobs[].job_runtime * 1e6] | add')
	check "$name: task-clock $(c task-clock) ns within [usr+sys $cpu_ns / 2, run time $wall_ns + 5% + 50 ms]" \
		awk -v t="$(c task-clock)" -v r="$cpu_ns" -v w="$wall_ns" \
		'BEGIN { exit !(t >= r / 2 && t <= w * 1.05 + 50000000) }'
	sched=$(q '.iodig.kernel.sched.switches // -1')
	[ "$sched" -ge 0 ] && check "$name: sched switches $sched ~ context-switches $(c context-switches)" \
		near "$sched" "$(c context-switches)" 200 5
	check "$name: per-I/O figure in the trace file" \
		[ "$(jqr '.iodig.repeats.runs[0].figures["kernel.counters.context_switches_per_io"] > 0' "$TMP/$name.trace")" = true ]
	check "$name: text line with task-clock per I/O" \
		grep -Eq '^    task-clock=[0-9.]+ ms \([0-9]+ ns/IO\)' "$TMP/$name.txt"
done
check "threads: the mmap job took minor faults ($(c minor-faults))" [ "$(c minor-faults)" -gt 100 ]

# the hardware counters: counted with a PMU, else named with the reason
pmu_line='not counted: cycles:k, instructions:k, cache-misses:k, L1-dcache-load-misses: no hardware PMU \(perf_event_open: ENOENT\)'
if [ -e /sys/bus/event_source/devices/cpu ] || [ -e /sys/bus/event_source/devices/cpu_core ]; then
	check "PMU: cycles:k counted" [ "$(jqr '.iodig.kernel.counters.events["cycles:k"].value > 0' "$TMP/procs.json")" = true ]
else
	check "no PMU: the text's one line" grep -Eq "^    $pmu_line\$" "$TMP/procs.txt"
	check "no PMU: JSON names each hardware counter's reason" \
		[ "$(jqr '[.iodig.kernel.counters.not_counted[]] | unique | join(";")' "$TMP/procs.json")" = \
		  "no hardware PMU (perf_event_open: ENOENT)" ]
	check "no PMU: JSON has 4 counters not counted" \
		[ "$(jqr '.iodig.kernel.counters.not_counted | length' "$TMP/procs.json")" = 4 ]
	check "no PMU: no hardware figure in the trace file" \
		[ "$(jqr '.iodig.repeats.runs[0].figures | has("kernel.counters.cycles_k_per_io")' "$TMP/procs.trace")" = false ]
	"$IODIG" probe >"$TMP/probe" 2>&1
	check "no PMU: iodig probe says why" grep -Eq '^counters +perf_event +active +cycles:k.*no hardware PMU \(perf_event_open: ENOENT\)' "$TMP/probe"
fi
done_testing
