# sched's stack fingerprint code (a hash over the sleeping task's stack words, a search for its span) is verified once per batch of words, not for each of the stack's words: loaded with fingerprints, the sched_switch program's instructions are each verified at most a few times as often as without them (IODIG_SCHED_STACK_FP=0, where the verifier drops that code), which a loop walked per word multiplies by tens (issue 17 point 1: probes attached within 0.1 s). timeout: 60
source tests/host/lib.sh
need_root
command -v bpftool >/dev/null || skip "bpftool not installed"
truncate -s 1M "$TMP/f"

# measure NAME [VAR=VALUE...]: the loaded sched_switch program's verified
# and translated instructions, from the running iodig's fdinfo (the
# kernel's verified_insns, 5.16) and bpftool, into $TMP/NAME.
measure() {
	local name=$1 pid fd id="" vi=""
	shift
	env "$@" "$IODIG" run --no-progress --no-save --output-format=json --probes=sched \
		--name=vi --filename="$TMP/f" --rw=read --bs=4k --runtime=3 --time_based \
		>"$TMP/$name.json" 2>"$TMP/err" &
	pid=$!
	# the program is loaded before the workload starts and stays until
	# the run ends: look until it is there or the run is over
	while [ -z "$vi" ] && kill -0 "$pid" 2>/dev/null; do
		for fd in /proc/$pid/fdinfo/*; do
			id=$(awk '$1 == "prog_id:" {print $2}' "$fd" 2>/dev/null)
			[ -n "$id" ] || continue
			bpftool prog show id "$id" 2>/dev/null | grep -q "name iodig_sw_btf " || continue
			vi=$(awk '$1 == "verified_insns:" {print $2}' "$fd")
			bpftool prog show id "$id" --json | jq -r '.bytes_xlated / 8' >"$TMP/$name.xlated"
			break
		done
		[ -n "$vi" ] || sleep 0.1
	done
	wait "$pid" || fail "$name: exit $? ($(head -c 200 "$TMP/err"))"
	mech=$(jqr '.iodig.kernel.sched.mechanism // ""' "$TMP/$name.json")
	[ "$mech" = tp_btf ] || skip "sched runs with $mech: no stack fingerprints there"
	[ -n "$vi" ] || skip "no verified_insns in the program's fdinfo (kernel before 5.16?)"
	echo "$vi" >"$TMP/$name.verified"
}

measure fp
measure walk IODIG_SCHED_STACK_FP=0
vi_fp=$(cat "$TMP/fp.verified") xl_fp=$(cat "$TMP/fp.xlated")
vi_walk=$(cat "$TMP/walk.verified") xl_walk=$(cat "$TMP/walk.xlated")
echo "with fingerprints: $vi_fp verified of $xl_fp; without: $vi_walk of $xl_walk"
check "the fingerprint code was loaded ($xl_fp instructions against $xl_walk)" \
	[ "$xl_fp" -gt "$xl_walk" ]
# Branches make the verifier walk some instructions more than once; the
# program without fingerprints says how often.  The bpf_loop() callbacks'
# batches of 32 words, each word walked once, take that to about twice;
# a loop over the stack's 512 words walked an iteration at a time, to
# ten times and more.
check "fingerprints' instructions verified at most a few times as often as the rest's ($vi_fp / $xl_fp against $vi_walk / $xl_walk, at most 4 times)" \
	[ "$((vi_fp * xl_walk))" -le "$((4 * vi_walk * xl_fp))" ]
done_testing
