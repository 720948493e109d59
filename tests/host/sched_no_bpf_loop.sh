# sched on a kernel without bpf_loop() (before 5.17), taken here with IODIG_DISABLE=bpf_loop: on psync qd1 with every switch sampled, the status reason names the fallback, every sampled stack is walked (no fingerprint), the blocking functions and the top stack are those of the same job with bpf_loop(), and the loaded program holds none of the fingerprints' bpf_loop() callbacks (the verifier dropped them as dead code, as it must where the helper is unknown), verifying fewer instructions than with them and each at most 4 times. timeout: 90
source tests/host/lib.sh
need_root
command -v bpftool >/dev/null || skip "bpftool not installed"
make_loop 64 || skip "no loop device"

S=.iodig.kernel.sched
q() { jqr "$1" "$TMP/$2.json"; }
reason() { q '.iodig.kernel.probes[] | select(.family == "sched") | .reason' "$1"; }
run() { # NAME [VAR=VALUE...]
	local name=$1
	shift
	loaded_prog iodig_sw_btf "$TMP/$name" env IODIG_SCHED_STACK_PERIOD=1 "$@" "$IODIG" run \
		--no-progress --no-save --output-format=json --probes=sched --name=nl \
		--filename="$LOOP" --rw=randread --bs=4k --direct=1 --ioengine=psync \
		--runtime=2 --time_based ||
		fail "$name: exit $? ($(head -c 200 "$TMP/$name.err"))"
	mech=$(q "$S.mechanism // \"\"" "$name")
	[ "$mech" = tp_btf ] || skip "sched runs with $mech: stacks are taken at switch-out there"
}

run loop
case $(reason loop) in
*bpf_loop*) skip "this kernel has no bpf_loop(): nothing to compare the fallback with" ;;
esac
run fallback IODIG_DISABLE=bpf_loop

why=$(reason fallback)
check "the fallback's status reason names it ('$why')" \
	matches "$why" 'bpf_loop.*every sampled stack walked'
why=$(reason loop)
check "with bpf_loop() the reason does not name it ('$why')" [ "${why/bpf_loop/}" = "$why" ]

sampled=$(q "$S.sampled_switches" fallback)
hits=$(q "$S.stack_fingerprints.hits // -1" fallback)
none=$(q "$S.stack_fingerprints.none // -1" fallback)
echo "fallback: $sampled stacks sampled, $hits by fingerprint, $none walked without one"
check "fallback: >= 500 stacks taken ($sampled)" [ "$sampled" -ge 500 ]
check "fallback: every sampled stack walked ($none of $sampled, $hits by fingerprint)" \
	[ "$hits" = 0 -a "$none" = "$sampled" ]
check "with bpf_loop(): most stacks found by fingerprint ($(q "$S.stack_fingerprints.hits" loop) of $(q "$S.sampled_switches" loop))" \
	[ "$((2 * $(q "$S.stack_fingerprints.hits // 0" loop)))" -gt "$(q "$S.sampled_switches" loop)" ]

# Attribution, structure only: the functions holding a tenth or more of
# the voluntary switches (the workload's waits; preemptions depend on
# what else the machine runs), and the stack taken most often.
tops="[$S.by_function[] | select(.voluntary > 0)] | (map(.voluntary) | add) as \$all |
	[.[] | select(10 * .voluntary >= \$all) | .function] | sort | join(\",\")"
top_fb=$(q "$tops" fallback) top_loop=$(q "$tops" loop)
check "the blocking functions are those with bpf_loop() ($top_fb; $top_loop)" \
	[ -n "$top_fb" -a "$top_fb" = "$top_loop" ]
stack="$S.stacks[0].stack // \"\""
stack_fb=$(q "$stack" fallback) stack_loop=$(q "$stack" loop)
check "the top stack is the one with bpf_loop() ($stack_fb)" \
	[ -n "$stack_fb" -a "$stack_fb" = "$stack_loop" ]

# The verifier walks only what a run can reach: where bpf_loop() is
# unknown a reachable call fails the load, so the callbacks must be gone.
vi_fb=$(cat "$TMP/fallback.verified") xl_fb=$(cat "$TMP/fallback.xlated")
vi_loop=$(cat "$TMP/loop.verified") xl_loop=$(cat "$TMP/loop.xlated")
[ -n "$vi_fb" -a -n "$vi_loop" ] || skip "no verified_insns in the program's fdinfo (kernel before 5.16?)"
echo "verified (translated) instructions: fallback $vi_fb ($xl_fb), bpf_loop() $vi_loop ($xl_loop)"
echo "functions: fallback $(tr '\n' ' ' <"$TMP/fallback.funcs"); bpf_loop() $(tr '\n' ' ' <"$TMP/loop.funcs")"
check "with bpf_loop() the callbacks are loaded" grep -qx hash_words "$TMP/loop.funcs"
check "fallback: no bpf_loop() callback loaded ($(tr '\n' ' ' <"$TMP/fallback.funcs"))" \
	[ "$(cat "$TMP/fallback.funcs")" = iodig_sw_btf ]
check "fallback: fewer instructions verified than with bpf_loop() ($vi_fb < $vi_loop)" \
	[ "$vi_fb" -lt "$vi_loop" ]
# the bound sched_fp_verified_once.sh holds the fingerprints to
check "fallback: each instruction verified at most 4 times ($vi_fb of $xl_fb)" \
	[ "$vi_fb" -le "$((4 * xl_fb))" ]
done_testing
