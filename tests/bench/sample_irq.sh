#!/bin/bash
# What the sampling family's timer interrupts cost the CPU they land on.
# sampling opens a cpu-clock perf event on every CPU; each fires a timer
# interrupt HZ times a second, whatever runs there, and bpf_stats sees
# only the program, not the interrupt around it.  Rounds alternate an
# almost idle iodig job (null engine, 50 I/Os a second, pinned to CPU 0)
# with --probes=sampling --sample-freq=HZ and with --no-probes, while
# spin_rate (tests/bench/spin_rate.c) spins on CPU 1; its work per own
# CPU ms falls by the interrupts' share of that CPU.  Prints the paired
# ratio traced/untraced with its 95% CI and the cost per interrupt,
# (1 - ratio) / HZ.
#
# usage: [HZ=999] [ROUNDS=12] [OUT=build] tests/bench/sample_irq.sh
set -eu
cd "$(dirname "$0")/../.."
# shellcheck source=tests/bench/lib.sh
. tests/bench/lib.sh
OUT=${OUT:-build}
IODIG=${IODIG:-$PWD/$OUT/iodig}
SPIN=$PWD/$OUT/tests/bench/spin_rate
HZ=${HZ:-999}
ROUNDS=${ROUNDS:-12}
[ "$(id -u)" -eq 0 ] || { echo "sample_irq bench needs root (BPF)"; exit 1; }
[ "$(nproc)" -ge 2 ] || { echo "sample_irq bench needs 2 CPUs"; exit 1; }
[ -x "$SPIN" ] || { echo "sample_irq bench needs $SPIN (make unit)"; exit 1; }
TMP=$(mktemp -d /dev/shm/iodig-sample-irq.XXXXXX)
JOB_PID=
cleanup() {
	[ -n "$JOB_PID" ] && kill "$JOB_PID" 2>/dev/null && wait "$JOB_PID" 2>/dev/null
	rm -rf "$TMP"
}
trap cleanup EXIT
: >"$TMP/off.txt"
: >"$TMP/on.txt"
for _ in $(seq "$ROUNDS"); do
	for mode in off on; do
		probes=--no-probes
		[ $mode = on ] && probes="--probes=sampling --sample-freq=$HZ"
		# shellcheck disable=SC2086
		taskset -c 0 "$IODIG" run $probes --no-save --output-format=json --name=idle \
			--ioengine=null --size=1g --rw=read --bs=4k --rate_iops=50 \
			--runtime=5 --time_based >"$TMP/$mode.json" 2>"$TMP/$mode.err" &
		JOB_PID=$!
		# the probes are open well before 1.5 s on this VM (docs/overhead.md)
		sleep 1.5
		taskset -c 1 "$SPIN" 2 >>"$TMP/$mode.txt"
		wait "$JOB_PID" || { echo "iodig run failed: $(head -c 300 "$TMP/$mode.err")"; exit 1; }
		JOB_PID=
	done
	[ "$(jq -r '.iodig.kernel.sampling.frequency_hz // 0' "$TMP/on.json")" = "$HZ" ] ||
		{ echo "sampling did not run at $HZ Hz: $(head -c 300 "$TMP/on.err")"; exit 1; }
done
read -r g lo hi n < <(paired_ratio "$TMP/off.txt" "$TMP/on.txt")
echo "spin work per CPU ms, sampling at $HZ Hz / none: $g (95% CI $lo-$hi, $n rounds)"
awk -v g="$g" -v lo="$lo" -v hi="$hi" -v hz="$HZ" 'BEGIN {
	printf "cost per timer interrupt: %.1f us (%.1f to %.1f); at 99 Hz %.2f%% of each CPU\n",
		(1 - g) / hz * 1e6, (1 - hi) / hz * 1e6, (1 - lo) / hz * 1e6, (1 - g) / hz * 99 * 100 }'
