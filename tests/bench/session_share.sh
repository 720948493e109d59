#!/bin/bash
# The psync qd1 row of run.sh (iodig --no-probes beside fio, alternating)
# with one busy loop running in the caller's session all along: with
# sched_autogroup, a worker left in the caller's session splits that
# session's CPU share with the loop, where fio's job process, a session
# leader, has a share of its own.  IODIG_B: a second build, run third in
# each round, so two builds compare under the same load.  Prints each
# tool's median IOPS and the IOPS ratios to fio with their 95% CIs.
set -eu
cd "$(dirname "$0")/../.."
# shellcheck source=tests/bench/lib.sh
. tests/bench/lib.sh
OUT=${OUT:-build}
IODIG=${IODIG:-$PWD/$OUT/iodig}
IODIG_B=${IODIG_B:-}
PAIRS=${PAIRS:-9}
RUNTIME=${RUNTIME:-2}
HOG=${HOG:-1}                  # 0: no busy loop (the plain row)
[ "$(id -u)" -eq 0 ] || { echo "bench needs root (loop devices)"; exit 1; }
command -v fio >/dev/null || { echo "bench needs fio (make deps)"; exit 1; }

TMP=$(mktemp -d /dev/shm/iodig-bench.XXXXXX)
LOOP=
BUSY=
cleanup() {
	[ -n "$BUSY" ] && kill "$BUSY" 2>/dev/null
	[ -n "$LOOP" ] && losetup -d "$LOOP"
	rm -rf "$TMP"
}
trap cleanup EXIT
bench_loop

JOB=(--name=bench --filename="$LOOP" --direct=1 --rw=randread --bs=4k
     --ioengine=psync --iodepth=1 --runtime="$RUNTIME" --time_based
     --output-format=json)
iops() { jq -r '.jobs[0] | .read.total_ios / (.job_runtime / 1000) | floor' "$1"; }

if [ "$HOG" = 1 ]; then
	(while :; do :; done) &
	BUSY=$!
fi
: >"$TMP/a"; : >"$TMP/b"; : >"$TMP/f"
for _ in $(seq "$PAIRS"); do
	"$IODIG" run --no-probes --no-save "${JOB[@]}" >"$TMP/out.json"
	iops "$TMP/out.json" >>"$TMP/a"
	fio "${JOB[@]}" >"$TMP/out.json"
	iops "$TMP/out.json" >>"$TMP/f"
	if [ -n "$IODIG_B" ]; then
		"$IODIG_B" run --no-probes --no-save "${JOB[@]}" >"$TMP/out.json"
		iops "$TMP/out.json" >>"$TMP/b"
	fi
done
echo "psync qd1, busy loop in the caller's session: $([ "$HOG" = 1 ] && echo yes || echo no)"
echo "fio median IOPS $(median <"$TMP/f")"
echo "IODIG median IOPS $(median <"$TMP/a"), / fio $(paired_ci "$TMP/f" "$TMP/a")"
[ -z "$IODIG_B" ] ||
	echo "IODIG_B median IOPS $(median <"$TMP/b"), / fio $(paired_ci "$TMP/f" "$TMP/b")"
echo "(load average $(cut -d' ' -f1-3 /proc/loadavg) at the end)"
