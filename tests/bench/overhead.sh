#!/bin/bash
# make bench, part 2: what tracing costs.  (a) BPF time per I/O from the
# kernel's own accounting (bpf_stats) for iodig with every default probe
# family, libbpf-tools' biolatency and a bpftrace block-latency one-liner;
# (b) IOPS of the same jobs traced by each versus untraced, alternating
# runs, ratio of medians over PAIRS rounds; (c) iodig's own cost measured
# inside one long run: --probe-toggle detaches and attaches the probes in
# alternate short phases, pairs neighbouring phases and gives the ratio
# with a 95% CI, far tighter on this noisy machine than (b).
set -eu
cd "$(dirname "$0")/../.."
# shellcheck source=tests/bench/lib.sh
. tests/bench/lib.sh
OUT=${OUT:-build}
IODIG=${IODIG:-$PWD/$OUT/iodig}
PAIRS=${PAIRS:-7}
RUNTIME=${RUNTIME:-3}
REPS=${REPS:-3}         # part (a): runs per job and tracer, median shown
PARTS=${PARTS:-abc}     # which parts to run: any of a, b, c
A_JOBS=${A_JOBS:-psync:1 libaio:32 io_uring:32} # part (a): engine:iodepth
TOGGLE_RUNTIME=${TOGGLE_RUNTIME:-120} # part (c): seconds per job
TOGGLE_MS=${TOGGLE_MS:-50}           # part (c): phase length
TOGGLE_SETTLE=${TOGGLE_SETTLE:-25}   # part (c): unmeasured ms after each switch
TOGGLE_PROBES=${TOGGLE_PROBES:-default} # part (c): --probes specs, one row each
ENGINES=${ENGINES:-io_uring libaio}   # parts (b), (c): qd32 jobs (psync: qd1)
# Part (b)'s variants: none, iodig (default set), detail, no-FAMILY (the
# default set without FAMILY), hzN (the default set sampling at N Hz),
# biolatency, bpftrace.
VARIANTS=${VARIANTS:-}
BIOLATENCY=${BIOLATENCY:-$(command -v biolatency || echo /usr/sbin/biolatency)}
BPFTRACE=${BPFTRACE:-$(command -v bpftrace || true)}
[ "$(id -u)" -eq 0 ] || { echo "overhead bench needs root (BPF, loop devices)"; exit 1; }
for t in jq bpftool losetup; do
	command -v $t >/dev/null || { echo "overhead bench needs $t (make deps)"; exit 1; }
done
[ -x "$BIOLATENCY" ] || { echo "note: no biolatency (apt-get install libbpf-tools): its rows are skipped"; BIOLATENCY=; }
[ -n "$BPFTRACE" ] || echo "note: no bpftrace (apt-get install bpftrace): its rows are skipped"

# bpftrace's block latency, keyed by request as the tracepoints allow
# (dev, sector): a hash update at issue, a lookup and delete at completion.
BT_PROG='tracepoint:block:block_rq_issue { @start[args->dev, args->sector] = nsecs; }
tracepoint:block:block_rq_complete /@start[args->dev, args->sector]/ {
	@ns = hist(nsecs - @start[args->dev, args->sector]);
	delete(@start[args->dev, args->sector]); }'

TMP=$(mktemp -d /dev/shm/iodig-overhead.XXXXXX)
LOOP= TRACER_PID= MOUNTED_TRACEFS=
OLD_STATS=$(cat /proc/sys/kernel/bpf_stats_enabled)
cleanup() {
	[ -n "$TRACER_PID" ] && stop_tracer
	echo "$OLD_STATS" >/proc/sys/kernel/bpf_stats_enabled
	[ -n "$LOOP" ] && losetup -d "$LOOP"
	[ -n "$MOUNTED_TRACEFS" ] && umount /sys/kernel/tracing
	rm -rf "$TMP"
}
trap cleanup EXIT
# bpftrace finds tracepoints through tracefs; iodig mounts it only while
# it runs.
if [ -n "$BPFTRACE" ] && [ ! -e /sys/kernel/tracing/available_events ]; then
	mount -t tracefs nodev /sys/kernel/tracing && MOUNTED_TRACEFS=1
fi
bench_loop
DISK=$(basename "$LOOP")

job_args() {
	echo --name=ovh --filename="$LOOP" --rw=randread --bs=4k --direct=1 \
		--ioengine="$1" --iodepth="$2" --runtime="${3:-$RUNTIME}" --time_based
}
# "iops ios" of an iodig JSON report
iops_ios() { jq -r '.jobs[0].read | "\(.iops) \(.total_ios)"' "$1"; }

# Starts a third-party tracer in the background; waits until its BPF
# programs are attached (their ids appear with its pid in bpftool).
start_tracer() {
	case $1 in
	biolatency) "$BIOLATENCY" -d "$DISK" 3600 1 >"$TMP/tracer.out" 2>&1 & ;;
	bpftrace) "$BPFTRACE" -e "$BT_PROG" >"$TMP/tracer.out" 2>&1 & ;;
	esac
	TRACER_PID=$!
	for _ in $(seq 100); do
		[ -n "$(tracer_progs)" ] && { sleep 1; return 0; }
		kill -0 "$TRACER_PID" 2>/dev/null || break
		sleep 0.1
	done
	echo "$1 did not attach: $(head -c 300 "$TMP/tracer.out")" >&2
	return 1
}
# SIGINT makes both print their histogram and exit; a bpftrace that gets it
# while still attaching can miss it, hence TERM then KILL after 5 s.
stop_tracer() {
	kill -INT "$TRACER_PID" 2>/dev/null || true
	for sig in TERM KILL; do
		for _ in $(seq 50); do
			kill -0 "$TRACER_PID" 2>/dev/null || break 2
			sleep 0.1
		done
		kill -"$sig" "$TRACER_PID" 2>/dev/null || true
	done
	wait "$TRACER_PID" 2>/dev/null || true
	TRACER_PID=
}
# Ids of the tracer's programs, from its open fds (/proc/PID/fdinfo shows
# prog_id for a BPF program fd; this bpftool lists no pids).
tracer_progs() {
	grep -h '^prog_id:' /proc/"$TRACER_PID"/fdinfo/* 2>/dev/null | awk '{print $2}' | sort -u
}
# "run_cnt run_time_ns" summed over the tracer's programs
tracer_stats() {
	local ids
	ids=$(tracer_progs | paste -sd, -)
	[ -n "$ids" ] || { echo "0 0"; return; }
	bpftool -j prog show 2>/dev/null | jq -r "[.[] | select(.id | IN($ids))] |
		\"\\(map(.run_cnt // 0) | add // 0) \\(map(.run_time_ns // 0) | add // 0)\""
}

# The stats' own share of each run_time_ns: a program that returns at once
# still shows the clock reads and dispatch bpf_stats adds around every run,
# and what they cost moves with the load and with what else runs on the
# hook (cold caches after a context switch).  So every run of part (a)
# runs under stats_floor (tests/bench/stats_floor.c), which attaches empty
# programs on sched_switch (tp_btf) and block_rq_complete (tp_btf and
# tracepoint) for the same run, and each tracer's runs are priced at the
# floor of its own hook and mechanism from that run.
FLOOR_TOOL=${FLOOR_TOOL:-$PWD/$OUT/tests/bench/stats_floor}
# ns per run of the empty program $2 in stats_floor's output $1
floor_of() { awk -v p="$2" '$1 == p { printf "%.2f\n", $2 ? $3 / $2 : 0 }' "$1"; }

if [[ $PARTS == *a* ]]; then
[ -x "$FLOOR_TOOL" ] || { echo "part (a) needs $FLOOR_TOOL (make unit)"; exit 1; }
echo "== (a) BPF time per I/O, from bpf_stats (run_time_ns / I/Os)"
echo "   'net' subtracts, per program run, what an empty program on the same hook"
echo "   and mechanism cost in the same run (bpf_stats' clock reads and dispatch);"
echo "   floor = those costs in that run, ns per run: sched_switch tp_btf / block tp"
printf '%-22s %-11s %10s %8s %10s %10s %11s   %s\n' job tracer IOPS runs/IO "BPF ns/IO" \
	"net ns/IO" floor "per family (gross/net ns/IO@runs/IO:own runs/IO)"
# One line per run: "ns_per_io runs_per_io net_ns_per_io iops floor
# families"; the run with the median net ns/IO is shown.
show_median() {
	sort -g -k3 "$1" | awk -v job="$2" -v tr="$3" '{ l[NR] = $0 } END {
		split(l[int((NR + 1) / 2)], f, " ")
		fam = ""; for (i = 6; i <= length(f); i++) fam = fam " " f[i]
		printf "%-22s %-11s %10.0f %8.2f %10.0f %10.0f %11s  %s\n",
			job, tr, f[4], f[2], f[1], f[3], f[5], fam }'
}
for spec in $A_JOBS; do
	# shellcheck disable=SC2086
	set -- ${spec/:/ }
	job="randread $1 qd$2"
	tracers="iodig detail"
	[ -n "$BIOLATENCY" ] && tracers="$tracers biolatency"
	[ -n "$BPFTRACE" ] && tracers="$tracers bpftrace"
	for tracer in $tracers; do : >"$TMP/a-$tracer.txt"; done
	for _ in $(seq "$REPS"); do
		# iodig's default set, then every family and hook (--detail)
		for mode in iodig detail; do
			# shellcheck disable=SC2046
			"$FLOOR_TOOL" "$TMP/floor.txt" "$IODIG" run --bpf-stats --output-format=json \
				$([ $mode = detail ] && echo --detail) $(job_args "$1" "$2") >"$TMP/a.json"
			# sched runs on sched_switch (tp_btf); the other
			# families' hooks are classic tracepoints (sampling's
			# perf events, few a second, are priced alike)
			jq -r --argjson fsw "$(floor_of "$TMP/floor.txt" floor_sw_btf)" \
			      --argjson ftp "$(floor_of "$TMP/floor.txt" floor_rq_tp)" '
				.jobs[0].read.total_ios as $ios | .iodig.kernel.overhead as $o |
				# runs for events of the workload itself: its switches out
				# and timed switches in, its disk completions, its
				# samples, its page faults
				.iodig.kernel as $k |
				{sched: (($k.sched.switches // 0) + ($k.sched.offcpu_timed // 0)),
				 block: ($k.block.disk_completed // 0),
				 sampling: ($k.sampling.samples.total // 0),
				 faults: ($k.faults.user_faults // 0)} as $own |
				[$o.families | to_entries[] | select(.value.run_cnt > 0) |
				 .value.run_cnt as $c | .value.run_time_ns as $t |
				 {k: .key, g: ($t / $ios), r: ($c / $ios), w: (($own[.key] // 0) / $ios),
				  n: (($t - (if .key == "sched" then $fsw else $ftp end) * $c) / $ios)}] as $f |
				"\($o.ns_per_io) \($o.run_cnt / $ios) \($f | map(.n) | add) " +
				"\(.jobs[0].read.iops) \($fsw | round)/\($ftp | round) " +
				($f | map("\(.k)=\(.g | round)/\(.n | round)@\(.r * 100 | round / 100):\(.w * 1000 | round / 1000)") | join(" "))
				' "$TMP/a.json" >>"$TMP/a-$mode.txt"
		done
		for tracer in $tracers; do
			case $tracer in iodig|detail) continue ;; esac
			echo 1 >/proc/sys/kernel/bpf_stats_enabled
			if ! start_tracer "$tracer"; then
				echo "$OLD_STATS" >/proc/sys/kernel/bpf_stats_enabled
				continue
			fi
			read -r c0 t0 < <(tracer_stats)
			# shellcheck disable=SC2046
			"$FLOOR_TOOL" "$TMP/floor.txt" "$IODIG" run --no-probes --output-format=json \
				$(job_args "$1" "$2") >"$TMP/a.json"
			read -r c1 t1 < <(tracer_stats)
			stop_tracer
			echo "$OLD_STATS" >/proc/sys/kernel/bpf_stats_enabled
			read -r iops ios < <(iops_ios "$TMP/a.json")
			# biolatency's block hooks are tp_btf, bpftrace's classic
			fl=$(floor_of "$TMP/floor.txt" \
				"$([ "$tracer" = biolatency ] && echo floor_rq_btf || echo floor_rq_tp)")
			awk -v iops="$iops" -v ios="$ios" -v c=$((c1 - c0)) -v t=$((t1 - t0)) \
			    -v fl="$fl" 'BEGIN { printf "%f %f %f %f -/%.0f\n", t / ios, c / ios,
						       (t - fl * c) / ios, iops, fl }' >>"$TMP/a-$tracer.txt"
		done
	done
	for tracer in $tracers; do
		[ -s "$TMP/a-$tracer.txt" ] && show_median "$TMP/a-$tracer.txt" "$job" "$tracer"
	done
done
echo "(iodig = the default probe set, detail = iodig --detail: every family and hook;"
echo " median of $REPS runs of ${RUNTIME}s; every tracer's programs run for all of the"
echo " machine's block I/O and iodig's sched/syscalls ones for all its switches and"
echo " system calls, so other activity on the machine adds to runs/IO)"

fi
echo
if [[ $PARTS == *b* ]]; then
echo "== (b) IOPS traced / untraced: medians of $PAIRS rounds, each round runs every"
echo "   variant once in turn (${RUNTIME}s each, 4k randread direct, tmpfs-backed $LOOP)"
variants="none iodig"
[ -n "$BIOLATENCY" ] && variants="$variants biolatency"
[ -n "$BPFTRACE" ] && variants="$variants bpftrace"
[ -n "$VARIANTS" ] && variants=$VARIANTS
all_variants=$variants
printf '%-22s %12s' job "untraced"
for v in $all_variants; do [ $v = none ] || printf ' %12s %7s' "$v" ratio; done
echo
for engine in $ENGINES; do
	qd=32; [ "$engine" = psync ] && qd=1
	set -- "$engine" $qd
	for v in $variants; do : >"$TMP/$v.txt"; done
	for i in $(seq "$PAIRS"); do
		for v in $variants; do
			case $v in
			none) probes=--no-probes ;;
			iodig) probes= ;;
			detail) probes=--detail ;;
			no-*) probes=--probes=-${v#no-} ;;
			hz*) probes=--sample-freq=${v#hz} ;;
			*) probes=--no-probes; start_tracer "$v" || continue ;;
			esac
			# shellcheck disable=SC2046,SC2086
			"$IODIG" run $probes --output-format=json $(job_args "$1" "$2") >"$TMP/b.json"
			case $v in biolatency|bpftrace) stop_tracer ;; esac
			iops_ios "$TMP/b.json" | cut -d' ' -f1 >>"$TMP/$v.txt"
		done
		# Rotate the order so no variant always runs first in a round.
		variants="${variants#* } ${variants%% *}"
	done
	if [ "${VERBOSE:-0}" = 1 ]; then
		for v in $all_variants; do
			echo "   $1 $v (in run order): $(paste -sd' ' "$TMP/$v.txt")"
		done
	fi
	base=$(median <"$TMP/none.txt")
	printf '%-22s %12.0f' "randread $1 qd$2" "$base"
	for v in $all_variants; do
		[ $v = none ] && continue
		m=$(median <"$TMP/$v.txt")
		printf ' %12.0f %7.3f' "$m" "$(awk -v a="$m" -v b="$base" 'BEGIN { print b ? a / b : 0 }')"
	done
	echo
	for v in $all_variants; do
		[ $v = none ] || echo "   $v, paired by round: $(paired_ci "$TMP/none.txt" "$TMP/$v.txt")"
	done
done
echo "(ratio = median traced IOPS / median untraced IOPS; iodig = the default probe set;"
echo " paired = geometric mean of each round's traced/untraced, 95% bootstrap CI)"
fi

if [[ $PARTS == *c* ]]; then
echo
echo "== (c) iodig's cost inside one run: --probe-toggle=$TOGGLE_MS, ${TOGGLE_RUNTIME}s per job;"
echo "   probes detached and attached in alternate ${TOGGLE_MS} ms phases (T U U T ...),"
echo "   ${TOGGLE_SETTLE} ms left to settle after each switch; traced/untraced IOPS of"
echo "   neighbouring phases, geometric mean with 95% CI"
printf '%-22s %-14s %6s %12s %12s %7s %15s %9s %7s\n' job probes pairs "traced" "untraced" ratio \
	"95% CI" "medians" "settle"
for engine in $ENGINES; do
	# a synchronous engine has one I/O in flight whatever iodepth says
	qd=32; [ "$engine" = psync ] && qd=1
	for spec in $TOGGLE_PROBES; do
		# shellcheck disable=SC2046
		"$IODIG" run --probe-toggle="$TOGGLE_MS" --probe-toggle-settle="$TOGGLE_SETTLE" \
			$([ "$spec" = default ] || echo --probes="$spec") \
			--output-format=json $(job_args "$engine" $qd "$TOGGLE_RUNTIME") \
			>"$TMP/c.json"
		jq -r --arg job "randread $engine qd$qd" --arg spec "$spec" '.iodig.probe_toggle |
			"\($job) \($spec) \(.pairs) \(.iops_traced) \(.iops_untraced) \(.ratio // 0) " +
			"\(.ratio_ci95[0] // 0) \(.ratio_ci95[1] // 0) \(.ratio_of_medians // 0) " +
			"\(.after_switch.bias // 0)"' "$TMP/c.json" |
		awk '{ printf "%-22s %-14s %6d %12.0f %12.0f %7.3f %7.3f-%-7.3f %9.3f %7.3f\n",
			$1 " " $2 " " $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 }'
	done
done
echo "(ratio = geometric mean over pairs of traced/untraced phase IOPS; medians ="
echo " median traced / median untraced phase IOPS; TOGGLE_PROBES=\"default sched block\""
echo " gives one row per --probes spec, to price each family alone; settle = the"
echo " after-effect of switching left in the ratio, ~1.000 when TOGGLE_SETTLE suffices)"
fi
