# sched's per-function figures add up to the exact totals and rest on a fair sample: on a psync qd1 and an io_uring qd16 job (own loop device on tmpfs), with >= 1,000 sampled switches, the sampled switches' off-CPU time (intervals cut at 250 us) and returns scaled by the stack period are within 10% of the exact totals (uncut, they ran 1.2-1.8x when the stack was taken at switch-out), and the functions' off-CPU times sum to the total. timeout: 300
source tests/host/lib.sh
need_root
make_loop 256 || skip "no loop device"
dd if=/dev/urandom of="$LOOP" bs=1M count=256 oflag=direct status=none

# run ENGINE DEPTH PERIOD SECONDS: the job's JSON into $TMP/out.json
run() {
	IODIG_SCHED_STACK_PERIOD=$3 "$IODIG" run --no-progress --no-save --output-format=json \
		--probes=sched --name=parts --filename="$LOOP" --rw=randread --bs=4k --direct=1 \
		--ioengine="$1" --iodepth="$2" --runtime="$4" --time_based \
		>"$TMP/out.json" 2>"$TMP/err"
}
S=.iodig.kernel.sched
q() { jqr "$1" "$TMP/out.json"; }

# PERIOD: 1 in N switches sampled, high enough that a walk at switch-out
# would lengthen the intervals it samples, low enough for 1,000 samples.
for spec in "psync 1 16 6" "io_uring 16 2 5"; do
	set -- $spec
	job="$1 qd$2"
	valid=
	# A run whose own sampling error exceeds 5% (long intervals of a busy
	# machine) cannot tell 10% apart; the first run that can is judged.
	# The uncut sum is printed, not judged: a few intervals of tens of ms
	# on a shared machine decide it.
	for attempt in 1 2 3; do
		run "$@" || { fail "$job: exit $? ($(head -c 200 "$TMP/err"))"; break; }
		mech=$(q "$S.mechanism // \"\"")
		[ "$mech" = tp_btf ] || skip "sched runs with $mech: stacks are taken at switch-out there"
		sampled=$(q "$S.samples.switches // 0")
		se=$(q "$S.samples.clipped_estimate_se_ns / ($S.offcpu_clipped_ns + 1)")
		echo "$job, run $attempt: $sampled sampled switches, sampling error $se of the total"
		if [ "$sampled" -ge 1000 ] && awk -v e="$se" 'BEGIN { exit !(e <= 0.05) }'; then
			valid=1
			break
		fi
	done
	[ -n "$valid" ] || skip "$job: no run with >= 1000 samples and a sampling error <= 5% (machine too busy)"
	period=$(q "$S.stack_sample_period")
	check "$job: stacks sampled 1 in $period, as set" [ "$period" = "$3" ]
	total=$(q "$S.offcpu_ns")
	clipped=$(q "$S.offcpu_clipped_ns")
	est=$(q "$S.samples.clipped_estimate_ns")
	uncut=$(q "$S.samples.offcpu_estimate_ns / $S.offcpu_ns")
	uncut_se=$(q "$S.samples.offcpu_estimate_se_ns / $S.offcpu_ns")
	returns=$(q "$S.offcpu_timed")
	sreturns=$(q "$S.samples.returns_estimate")
	parts=$(q "[$S.by_function[].offcpu_ns] | add")
	echo "$job: off-CPU cut at 250 us exact $clipped ns, sampled x $period $est ns (+-$se of it);" \
		"uncut $uncut of the exact $total ns (+-$uncut_se); returns $returns, sampled x $period" \
		"$sreturns; functions sum $parts ns"
	within() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { exit !(b > 0 && a >= (1 - t) * b && a <= (1 + t) * b) }'; }
	check "$job: sampled off-CPU time (cut) x period within 10% of the exact total ($est / $clipped)" \
		within "$est" "$clipped" 0.10
	check "$job: sampled returns x period within 10% of the exact count ($sreturns / $returns)" \
		within "$sreturns" "$returns" 0.10
	check "$job: the functions' off-CPU times sum to the total ($parts / $total)" \
		within "$parts" "$total" 0.001
done
done_testing
