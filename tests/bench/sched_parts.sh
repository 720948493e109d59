#!/bin/bash
# What sched costs per kind of program run, psync qd1, robust to the
# machine's load: variants (iodig binaries, environments) run in rotation,
# each run beside stats_floor's empty programs (docs/overhead.md, "A floor
# from the same run").  Per-I/O figures follow each run's IOPS under load
# (the fewer I/Os a second, the more of the machine's other switches each
# carries), so besides the medians this fits, per variant, sched's net
# time per I/O as
#   a x workload runs/IO + b x other runs/IO + c x stacks/IO
# (a: a workload switch's run, b: any other switch's, c: a stack walk)
# with 95% bootstrap CIs, and gives each variant's paired ratios to the
# first one.
#
# usage: tests/bench/sched_parts.sh NAME=BINARY[,VAR=VALUE...] ...
#   e.g. base=/dev/shm/base/iodig new=build/iodig \
#        nostack=build/iodig,IODIG_SCHED_STACK_PERIOD=1000000000
set -eu
cd "$(dirname "$0")/../.."
OUT=${OUT:-build}
ROUNDS=${ROUNDS:-12}
RUNTIME=${RUNTIME:-2}
FLOOR_TOOL=${FLOOR_TOOL:-$PWD/$OUT/tests/bench/stats_floor}
[ $# -ge 1 ] || { sed -n '2,17p' "$0"; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "sched_parts needs root (BPF, loop devices)"; exit 1; }
[ -x "$FLOOR_TOOL" ] || { echo "sched_parts needs $FLOOR_TOOL (make unit)"; exit 1; }

TMP=$(mktemp -d /dev/shm/iodig-sched-parts.XXXXXX)
LOOP=
cleanup() {
	[ -n "$LOOP" ] && losetup -d "$LOOP"
	rm -rf "$TMP"
}
trap cleanup EXIT
truncate -s 256M "$TMP/backing"
LOOP=$(losetup -f --show "$TMP/backing")

# One line per run: iops sched_runs/IO sched_gross/IO floor_sw
# sched_net/IO workload_runs/IO stacks/IO stacks_by_fingerprint/stacks
one_run() { # BINARY [VAR=VALUE...]
	local bin=$1
	shift
	env "$@" "$FLOOR_TOOL" "$TMP/floor.txt" "$bin" run --bpf-stats --no-save \
		--output-format=json --name=sp --filename="$LOOP" --rw=randread --bs=4k \
		--direct=1 --ioengine=psync --iodepth=1 --runtime="$RUNTIME" --time_based \
		>"$TMP/run.json"
	jq -r --argjson fsw "$(awk '$1 == "floor_sw_btf" { print $2 ? $3 / $2 : 0 }' \
		"$TMP/floor.txt")" '
		.jobs[0].read.total_ios as $n | .iodig.kernel as $k |
		$k.overhead.families.sched as $s |
		"\(.jobs[0].read.iops) \($s.run_cnt / $n) \($s.run_time_ns / $n) \($fsw) " +
		"\(($s.run_time_ns - $fsw * $s.run_cnt) / $n) " +
		"\(($k.sched.switches + $k.sched.offcpu_timed) / $n) \($k.sched.sampled_switches / $n) " +
		"\(($k.sched.stack_fingerprints.hits // 0) / ([$k.sched.sampled_switches, 1] | max))"
		' "$TMP/run.json"
}

names=()
for v in "$@"; do names+=("${v%%=*}"); : >"$TMP/v.${v%%=*}"; done
for r in $(seq "$ROUNDS"); do
	for i in $(seq 0 $(($# - 1))); do
		# rotate the order so no variant always runs first
		v=${*:$(((i + r) % $# + 1)):1}
		spec=${v#*=}
		IFS=, read -r -a args <<<"$spec"
		one_run "${args[@]}" >>"$TMP/v.${v%%=*}"
	done
done
echo "psync qd1, $ROUNDS rounds of ${RUNTIME}s in rotation; ns are sched's, net of the"
echo "sched_switch floor of the same run; medians, then paired ratios to ${names[0]}"
python3 - "$TMP" "${names[@]}" <<'EOF'
import math, random, statistics as st, sys
tmp, names = sys.argv[1], sys.argv[2:]
data = {n: [list(map(float, l.split())) for l in open(f"{tmp}/v.{n}") if l.strip()]
        for n in names}
cols = ["IOPS", "runs/IO", "gross/IO", "floor", "net/IO", "wl runs/IO", "ns/run"]
def row(r):  # the columns above, ns per run last
    return r[:6] + [r[2] / r[1]]
print("%-12s" % "variant" + "".join("%11s" % c for c in cols))
for n, d in data.items():
    print("%-12s" % n + "".join("%11.1f" % st.median(row(r)[i] for r in d)
                                for i in range(len(cols))))
print("stacks found by fingerprint, not walked (median share): " +
      ", ".join(f"{n} {st.median(r[7] for r in d):.2f}" for n, d in data.items()))
random.seed(17)
def ci(xs, stat, k=2000):
    b = sorted(stat([random.choice(xs) for _ in xs]) for _ in range(k))
    return b[k // 40], b[k - 1 - k // 40]
for n in names[1:]:
    a, b = data[names[0]], data[n]
    for i, what in [(6, "ns/run"), (4, "net/IO"), (0, "IOPS")]:
        r = [math.log(row(y)[i] / row(x)[i]) for x, y in zip(a, b)
             if row(x)[i] > 0 and row(y)[i] > 0]
        if len(r) < 2:
            continue
        g = lambda s: math.exp(sum(s) / len(s))
        lo, hi = ci(r, g)
        print(f"{n}/{names[0]} {what}: {g(r):.3f} (95% CI {lo:.3f}-{hi:.3f}, {len(r)} pairs)")
def solve(X, y):  # least squares, no intercept, by the normal equations
    k = len(X[0])
    A = [[sum(x[i] * x[j] for x in X) for j in range(k)] + [sum(x[i] * v for x, v in zip(X, y))]
         for i in range(k)]
    for c in range(k):
        p = max(range(c, k), key=lambda r: abs(A[r][c]))
        A[c], A[p] = A[p], A[c]
        if abs(A[c][c]) < 1e-12:
            return None
        for r in range(k):
            if r != c:
                m = A[r][c] / A[c][c]
                A[r] = [u - m * v for u, v in zip(A[r], A[c])]
    return [A[i][k] / A[i][i] for i in range(k)]
print("fit: net/IO = a x workload runs/IO + b x other runs/IO [+ c x stacks/IO]")
for n, d in data.items():
    # stacks/IO x IOPS: a variant without stacks takes none, or the odd one
    stacks = st.median(r[6] * r[0] for r in d) > 10
    X = [[r[5], r[1] - r[5]] + ([r[6]] if stacks else []) for r in d]
    y = [r[4] for r in d]
    coef = solve(X, y)
    if coef is None or len(d) < 4:
        print(f"{n}: too few or too alike runs to fit")
        continue
    boots = [c for c in (solve(*zip(*[random.choice(list(zip(X, y))) for _ in d]))
                         for _ in range(1000)) if c]
    out = n
    for j, (what, unit) in enumerate([("a", "ns"), ("b", "ns"), ("c", "us")][:len(coef)]):
        s = sorted(c[j] for c in boots)
        f = 1e-3 if unit == "us" else 1
        out += f"  {what}={coef[j] * f:.1f} {unit} ({s[len(s) // 40] * f:.1f}-{s[-1 - len(s) // 40] * f:.1f})"
    print(out)
EOF
