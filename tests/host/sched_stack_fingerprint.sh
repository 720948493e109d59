# sched finds a sampled switch-in's stack by a fingerprint of the sleeping task's stack words instead of walking it, on a run with the boot's symbols cached and on one before they are: with every switch sampled and IODIG_SCHED_STACK_VERIFY=1 (a stack found by fingerprint is walked too), on psync qd1 most stacks are found by fingerprint (on libaio qd32 and io_uring qd32 some), every one of them equals its walk's, and the top blocking function is that of a run that walks every stack (IODIG_SCHED_STACK_FP=0). timeout: 150
source tests/host/lib.sh
need_root
make_loop 256 || skip "no loop device"

S=.iodig.kernel.sched
q() { jqr "$1" "$TMP/$2.json"; }
run() { # NAME ENGINE DEPTH [VAR=VALUE...]
	local name=$1 engine=$2 depth=$3
	shift 3
	env IODIG_SCHED_STACK_PERIOD=1 "$@" "$IODIG" run --no-progress --no-save \
		--output-format=json --probes=sched --name=fp --filename="$LOOP" --rw=randread \
		--bs=4k --direct=1 --ioengine="$engine" --iodepth="$depth" \
		--iodepth_batch_complete_min="$depth" --runtime=2 --time_based \
		>"$TMP/$name.json" 2>"$TMP/err" || fail "$name: exit $? ($(head -c 200 "$TMP/err"))"
}

# Kernel code's start (what a fingerprint keeps of a stack) comes from
# the boot's cache file of symbols, or on the first run, before there is
# one, from the child reading kallsyms (its first lines): fingerprints
# work in both, and kallsyms is read by that child only.
export IODIG_KSYMS_CACHE=$TMP/ksyms/kallsyms
for pass in cold warm; do
	run "$pass" psync 1
	mech=$(q "$S.mechanism // \"\"" "$pass")
	[ "$mech" = tp_btf ] || skip "sched runs with $mech: stacks are taken at switch-out there"
	sampled=$(q "$S.sampled_switches" "$pass")
	hits=$(q "$S.stack_fingerprints.hits // -1" "$pass")
	check "psync qd1, $pass symbols: most stacks found by fingerprint ($hits of $sampled)" \
		[ "$((2 * hits))" -gt "$sampled" ]
done
check "the cold run kept the symbols for the warm one" [ -f "$IODIG_KSYMS_CACHE" ]
unset IODIG_KSYMS_CACHE

for spec in "psync 1" "libaio 32" "io_uring 32"; do
	set -- $spec
	job="$1 qd$2"
	run fp "$1" "$2" IODIG_SCHED_STACK_VERIFY=1
	mech=$(q "$S.mechanism // \"\"" fp)
	[ "$mech" = tp_btf ] || skip "sched runs with $mech: stacks are taken at switch-out there"
	sampled=$(q "$S.sampled_switches" fp)
	hits=$(q "$S.stack_fingerprints.hits // -1" fp)
	misses=$(q "$S.stack_fingerprints.misses // -1" fp)
	others=$(q "($S.stack_fingerprints.none // 0) + ($S.stack_fingerprints.skipped // 0)" fp)
	mism=$(q "$S.stack_fingerprints.mismatches // -1" fp)
	echo "$job: $sampled stacks, $hits by fingerprint, $misses walked, $mism mismatched"
	check "$job: >= 500 stacks taken ($sampled)" [ "$sampled" -ge 500 ]
	# psync's thread blocks at one point, its stack's other words the
	# same from call to call; libaio's and io_uring's wait functions keep
	# timers and wait entries in their frames, whose unused words hold
	# what earlier calls left there, so fewer of theirs repeat.
	if [ "$1" = psync ]; then
		check "$job: most stacks found by fingerprint ($hits of $sampled)" \
			[ "$((2 * hits))" -gt "$sampled" ]
	else
		check "$job: stacks found by fingerprint ($hits of $sampled)" [ "$hits" -gt 0 ]
	fi
	check "$job: hits, misses and the others are the samples ($hits + $misses + $others = $sampled)" \
		[ "$((hits + misses + others))" -eq "$sampled" ]
	check "$job: every stack found by fingerprint equals its walk ($mism differ)" [ "$mism" = 0 ]
	# The same job walking every stack: the same top blocking function,
	# by voluntary switches (the workload's waits; how often it is
	# preempted depends on what else the machine runs).
	run walk "$1" "$2" IODIG_SCHED_STACK_FP=0
	top="[$S.by_function[] | select(.voluntary > 0)] | max_by(.voluntary) | .function // \"\""
	top_fp=$(q "$top" fp)
	top_walk=$(q "$top" walk)
	check "$job: walks only when asked ($(q "$S.stack_fingerprints.hits // -1" walk) hits)" \
		[ "$(q "$S.stack_fingerprints.hits // -1" walk)" = 0 ]
	check "$job: the top blocking function is the walks' ($top_fp, $top_walk)" \
		[ -n "$top_fp" -a "$top_fp" = "$top_walk" ]
done
done_testing
