# sched's stack fingerprint code (a hash over the sleeping task's stack words, a search for its span) is verified once per batch of words, not for each of the stack's words: loaded with fingerprints, the sched_switch program's instructions are each verified at most a few times as often as without them (IODIG_SCHED_STACK_FP=0, where the verifier drops that code), which a loop walked per word multiplies by tens (issue 17 point 1: probes attached within 0.1 s). timeout: 60
source tests/host/lib.sh
need_root
command -v bpftool >/dev/null || skip "bpftool not installed"
truncate -s 1M "$TMP/f"

# measure NAME [VAR=VALUE...]: the loaded sched_switch program's verified
# and translated instructions into $TMP/NAME.verified and .xlated
measure() {
	local name=$1
	shift
	loaded_prog iodig_sw_btf "$TMP/$name" env "$@" "$IODIG" run --no-progress --no-save \
		--output-format=json --probes=sched --name=vi --filename="$TMP/f" --rw=read \
		--bs=4k --runtime=3 --time_based ||
		fail "$name: exit $? ($(head -c 200 "$TMP/$name.err"))"
	mech=$(jqr '.iodig.kernel.sched.mechanism // ""' "$TMP/$name.json")
	[ "$mech" = tp_btf ] || skip "sched runs with $mech: no stack fingerprints there"
	[ -s "$TMP/$name.verified" ] ||
		skip "no verified_insns in the program's fdinfo (kernel before 5.16?)"
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
