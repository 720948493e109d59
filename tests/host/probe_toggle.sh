# --probe-toggle measures what tracing costs a job by detaching and attaching the probes in alternate phases (T U U T ...), leaving 25 ms after each switch unmeasured: a 4 s io_uring job on a tmpfs loop gets ~16 pairs, a ratio inside its own 95% CI and of a plausible size, a settle check of ~8 phases of each kind, and the block family, detached half the time, counts about half of the I/Os; nothing stays attached after the run. timeout: 120
source tests/host/lib.sh
source tests/host/fault.lib
need_root
make_loop 256 || skip "no loop device"

"$IODIG" run --no-progress --no-save --output-format=normal,json --probe-toggle=100 \
	--name=toggle --filename="$LOOP" --rw=randread --bs=4k --direct=1 \
	--ioengine=io_uring --iodepth=32 --runtime=4 --time_based \
	>"$TMP/out" 2>"$TMP/err" &
pid=$!
# This run's own programs and links, so that other iodig runs on the
# machine do not count as its leftovers.
bpf_track "$pid" "$TMP/bpf-ids" &
wait "$pid"
rc=$?
wait
check "exit 0 ($(head -c 200 "$TMP/err"))" [ "$rc" -eq 0 ]
split_report "$TMP/out"
q() { jqr "$1" "$TMP/out.json"; }
T=.iodig.probe_toggle
pairs=$(q "$T.pairs // 0")
switches=$(q "$T.switches // 0")
ratio=$(q "$T.ratio // 0")
lo=$(q "$T.ratio_ci95[0] // 0")
hi=$(q "$T.ratio_ci95[1] // 0")
ios=$(q '.jobs[0].read.total_ios // 0')
reqs=$(q '.iodig.kernel.block.requests.read // 0')
echo "$pairs pairs, $switches switches, ratio $ratio (95% CI $lo-$hi);" \
	"block counted $reqs requests of $ios I/Os"
check "phase length reported" [ "$(q "$T.phase_ms")" = 100 ]
check "default settle time reported" [ "$(q "$T.settle_ms")" = 25 ]
# ~35 phases of 100 ms, a switch and 25 ms to settle every second one;
# the first pair left out and the last phase cut
check "pairs: $pairs of ~16" [ "$pairs" -ge 12 -a "$pairs" -le 20 ]
# T U U T T U ...: a switch every second phase, ~18 in 4 s
check "switches: $switches (one every second phase)" [ "$switches" -ge 15 -a "$switches" -le 22 ]
check "every family switched" [ "$(q "$T.always_attached")" = "" -a "$(q "$T.switch_error")" = null ]
check "ratio $ratio within its CI $lo-$hi" \
	awk -v r="$ratio" -v l="$lo" -v h="$hi" 'BEGIN { exit !(l > 0 && l <= r && r <= h && h > l) }'
# Tracing costs a few percent here; a ratio far from 1 means the phases
# are not what they say (or a switch stalled the workload).
check "ratio $ratio between 0.7 and 1.3" awk -v r="$ratio" 'BEGIN { exit !(r > 0.7 && r < 1.3) }'
# The block family sees completions only while attached: half the phases.
check "block counted $reqs of $ios I/Os: 30-70% (detached half the time)" \
	awk -v r="$reqs" -v n="$ios" 'BEGIN { exit !(n > 10000 && r > 0.3 * n && r < 0.7 * n) }'
# The settle check pairs each first phase after a switch with the next:
# about half the pairs' worth of each kind, every one a real ratio.
att=$(q "$T.after_switch.attach.n // 0")
det=$(q "$T.after_switch.detach.n // 0")
check "settle check: $att after attach, $det after detach (~8 each)" \
	[ "$att" -ge 5 ] && [ "$det" -ge 5 ] && [ "$att" -le 10 ] && [ "$det" -le 10 ]
jq_true() { jq -e "$1" "$2" >/dev/null; }
check "settle check: ratios and the bias are numbers near 1" \
	jq_true "$T.after_switch | [.attach.ratio, .detach.ratio, .bias] |
		all(type == \"number\" and . > 0.7 and . < 1.3)" "$TMP/out.json"
check "text: the toggle lines" grep -q "probe toggle: 100 ms phases.*25 ms to settle.*pairs" "$TMP/out.txt"
check "text: the settle check" grep -Eq "settle check.*after attach [0-9.]+.*after detach [0-9.]+" "$TMP/out.txt"
check "text: traced and untraced IOPS with a CI" \
	grep -Eq "IOPS traced [0-9]+, untraced [0-9]+: ratio [0-9.]+ \(95% CI" "$TMP/out.txt"
check "BPF ids tracked: $(sort -u "$TMP/bpf-ids" | wc -l)" [ -s "$TMP/bpf-ids" ]
left=$(bpf_leftovers "$TMP/bpf-ids")
check "no program or link of the run left: $left" [ -z "$left" ]
done_testing
