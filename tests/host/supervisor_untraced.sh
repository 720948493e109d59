# iodig's supervisor thread shares its process with thread workers but runs no I/O: the probes leave it out.  A 3 s io_uring job with one thread worker: sched's off-CPU total is the worker's runtime less its CPU time, less at most the run's steal time (the supervisor would add about the whole run, asleep between ticks), no blocking function is the supervisor's do_sigtimedwait, and sched's switch count agrees with the worker's own getrusage (5%). timeout: 120
source tests/host/lib.sh
need_root
make_loop 256 || skip "no loop device"

runtime=3
steal() { awk '/^cpu / { print $9 }' /proc/stat; }  # all CPUs, in USER_HZ ticks
steal0=$(steal)
"$IODIG" run --no-progress --no-save --output-format=json --probes=sched,sampling \
	--name=sup --filename="$LOOP" --rw=randread --bs=4k --direct=1 --thread \
	--ioengine=io_uring --iodepth=32 --runtime=$runtime --time_based \
	>"$TMP/out.json" 2>"$TMP/err"
rc=$?
steal_ns=$((($(steal) - steal0) * 1000000000 / $(getconf CLK_TCK)))
check "exit 0 ($(head -c 200 "$TMP/err"))" [ "$rc" -eq 0 ]
q() { jqr "$1" "$TMP/out.json"; }
S=.iodig.kernel.sched
offcpu=$(q "$S.offcpu_ns // 0")
switches=$(q "$S.switches // 0")
ctx=$(q "($S.workers_rusage.voluntary // 0) + ($S.workers_rusage.involuntary // 0)")
funcs=$(q "[$S.by_function[]?.function] | join(\",\")")
echo "sched: $switches switches, $offcpu ns off-CPU; the worker's getrusage: $ctx; functions: $funcs"
check "sched saw the worker's switches ($switches)" [ "$switches" -gt 100 ]
# A thread is either on a CPU or off it: the worker's off-CPU time is
# its runtime less its CPU time (fio's usr_cpu + sys_cpu, in percent),
# whatever the machine's load, except for the time the hypervisor took
# while it ran, which counts as neither (a CI run came out 606 ms short
# of 3 s).  So off-CPU is at most runtime less CPU, and at least that
# less the run's steal time on all CPUs, each within 15% of the run.
# The supervisor, asleep in sigtimedwait between ticks, would add about
# the whole run on top.
rt=$(q '.jobs[0].job_runtime // 0')
cpu=$(q '(.jobs[0].usr_cpu // 0) + (.jobs[0].sys_cpu // 0)')
check "off-CPU $offcpu ns is the worker's runtime $rt ms less its CPU $cpu%, less at most the steal $steal_ns ns (15% of the run either way)" \
	awk -v o="$offcpu" -v r="$rt" -v c="$cpu" -v s="$steal_ns" \
	'BEGIN { w = r * 1e6 * (1 - c / 100); m = 0.15 * r * 1e6;
		 exit !(o > 0 && r > 0 && o < w + m && o > w - s - m) }'
check "no blocking function of the supervisor's ($funcs)" \
	bash -c "! grep -q sigtimedwait <<<'$funcs'"
# The workers' own getrusage: sched counted the same switches, and the
# supervisor's would be on top.
check "sched's $switches switches within 5% of the worker's getrusage $ctx" \
	awk -v s="$switches" -v c="$ctx" 'BEGIN { exit !(c > 0 && s > 0.95 * c && s < 1.05 * c) }'
done_testing
