#!/bin/bash
# The psync qd1 row of run.sh (iodig --no-probes beside fio, alternating),
# with where the scheduler put the I/O: each run also counts the IPIs the
# machine sent (perf stat -a, ipi:ipi_send_cpu), nearly all of them one
# CPU waking a task on the other.  A psync I/O on a loop device is three
# wakeups in a chain (the worker wakes the loop kworker, the kworker's
# softirq wakes ksoftirqd, ksoftirqd wakes the worker); when the scheduler
# keeps them on one CPU none of them is an IPI, when it spreads them each
# one that crosses is.  In a VM an IPI to an idle vCPU is a trip through
# the host, so the IOPS of this row follow the IPIs per I/O more than
# anything either tool does (docs/overhead.md, "psync qd1 and placement").
#
# Prints, for each tool, median IOPS and IPIs per I/O; the IOPS ratio
# iodig/fio with its 95% CI; and the ratio at equal IPIs per I/O: a least
# squares fit of log(IOPS) on IPIs per I/O over all runs, with a term for
# the tool, whose coefficient is what the tool itself changes.  PIN=1 runs
# both under `taskset -c 0` (nothing crosses: each tool's own loop).
# VS=probes compares iodig with its default probes against iodig
# --no-probes instead of iodig against fio: what tracing costs, and how
# much of it is where the scheduler put the traced runs.
set -eu
cd "$(dirname "$0")/../.."
# shellcheck source=tests/bench/lib.sh
. tests/bench/lib.sh
OUT=${OUT:-build}
IODIG=${IODIG:-$PWD/$OUT/iodig}
PAIRS=${PAIRS:-9}
RUNTIME=${RUNTIME:-2}
PIN=${PIN:-0}
VS=${VS:-fio}                  # fio: iodig --no-probes / fio; probes: iodig / iodig --no-probes
[ "$(id -u)" -eq 0 ] || { echo "bench needs root (loop devices)"; exit 1; }
command -v fio >/dev/null || { echo "bench needs fio (make deps)"; exit 1; }
command -v perf >/dev/null || { echo "skipped: placement.sh counts IPIs with perf (linux-perf)"; exit 0; }

TMP=$(mktemp -d /dev/shm/iodig-bench.XXXXXX)
LOOP=
MOUNTED_TRACEFS=
cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP"
	[ -n "$MOUNTED_TRACEFS" ] && umount /sys/kernel/tracing
	rm -rf "$TMP"
}
trap cleanup EXIT
# perf finds tracepoints through tracefs.
if [ ! -e /sys/kernel/tracing/available_events ]; then
	mount -t tracefs nodev /sys/kernel/tracing && MOUNTED_TRACEFS=1
fi
bench_loop

JOB=(--name=bench --filename="$LOOP" --direct=1 --rw=randread --bs=4k
     --ioengine=psync --iodepth=1 --runtime="$RUNTIME" --time_based
     --output-format=json)
PINNED=()
[ "$PIN" = 1 ] && PINNED=(taskset -c 0)

if [ "$VS" = probes ]; then
	A_NAME=untraced; A_CMD=("$IODIG" run --no-probes --no-save)
	B_NAME=traced; B_CMD=("$IODIG" run --no-save)
else
	A_NAME=fio; A_CMD=(fio)
	B_NAME=iodig; B_CMD=("$IODIG" run --no-probes --no-save)
fi

# one NAME CMD...: appends "iops ipis_per_io" to $TMP/NAME
one() {
	local tool=$1
	shift
	perf stat -a -x, -e ipi:ipi_send_cpu -o "$TMP/perf.txt" \
		"${PINNED[@]}" "$@" "${JOB[@]}" >"$TMP/out.json"
	jq -r '.jobs[0] | "\(.read.total_ios) \(.job_runtime)"' "$TMP/out.json" |
		awk -v ipis="$(awk -F, '/^[0-9]/ { print $1; exit }' "$TMP/perf.txt")" \
			'{ printf "%.0f %.4f\n", $1 / ($2 / 1000), ipis / $1 }' >>"$TMP/$tool"
}

: >"$TMP/b"; : >"$TMP/a"
for pair in $(seq "$PAIRS"); do # the first of a pair alternates
	if ((pair % 2)); then
		one b "${B_CMD[@]}"
		one a "${A_CMD[@]}"
	else
		one a "${A_CMD[@]}"
		one b "${B_CMD[@]}"
	fi
done

# "ratio (lo-hi)" of exp(c) in log(iops) = a + b ipis + c is_b, with a
# 95% bootstrap CI over the runs (resampled 2000 times)
fit_at_equal_ipis() {
	{ awk '{ print 0, $1, $2 }' "$TMP/a"; awk '{ print 1, $1, $2 }' "$TMP/b"; } |
	awk 'function fit(idx, n,   i, j, k, x, y, d, a, m, c) {
		for (j = 1; j <= 3; j++) { for (k = 1; k <= 4; k++) m[j, k] = 0 }
		for (i = 1; i <= n; i++) {
			j = idx[i]; x[1] = 1; x[2] = ipi[j]; x[3] = tool[j]; y = log(iops[j])
			for (a = 1; a <= 3; a++) { for (c = 1; c <= 3; c++) m[a, c] += x[a] * x[c]; m[a, 4] += x[a] * y }
		}
		# Gauss-Jordan on the 3x3 normal equations
		for (a = 1; a <= 3; a++) {
			if (m[a, a] == 0) return "nan"
			for (c = 1; c <= 3; c++) if (c != a) {
				d = m[c, a] / m[a, a]
				for (k = 1; k <= 4; k++) m[c, k] -= d * m[a, k]
			}
		}
		return m[3, 4] / m[3, 3]
	}
	{ tool[NR] = $1; iops[NR] = $2; ipi[NR] = $3 }
	END {
		for (i = 1; i <= NR; i++) all[i] = i
		print "all", fit(all, NR)
		srand(17)
		for (b = 1; b <= 2000; b++) {
			for (i = 1; i <= NR; i++) pick[i] = int(rand() * NR) + 1
			v = fit(pick, NR)
			if (v != "nan") print v
		}
	}' | sort -g | awk '$1 == "all" { est = $2; next } { boot[++n] = $1 }
		END { printf "%.3f (%.2f-%.2f)\n", exp(est), exp(boot[int(n * 0.025) + 1]), exp(boot[int(n * 0.975)]) }'
}

col() { cut -d' ' -f"$1" "$2"; }
col 1 "$TMP/a" >"$TMP/a.iops"; col 1 "$TMP/b" >"$TMP/b.iops"
echo "psync qd1 randread, $PAIRS alternating pairs of ${RUNTIME}s$([ "$PIN" = 1 ] && echo ', both under taskset -c 0')"
printf '%-9s %11s %13s\n' run "median IOPS" "IPIs per I/O"
printf '%-9s %11.0f %13.3f\n' "$A_NAME" "$(median <"$TMP/a.iops")" "$(col 2 "$TMP/a" | median)"
printf '%-9s %11.0f %13.3f\n' "$B_NAME" "$(median <"$TMP/b.iops")" "$(col 2 "$TMP/b" | median)"
echo "IOPS $B_NAME/$A_NAME: $(paired_ci "$TMP/a.iops" "$TMP/b.iops")"
[ "$PIN" = 1 ] || echo "IOPS $B_NAME/$A_NAME at equal IPIs per I/O (fit over all runs): $(fit_at_equal_ipis)"
echo "(load average $(cut -d' ' -f1-3 /proc/loadavg) at the end)"
