#!/bin/bash
# make bench: iodig versus fio on the same scratch loop device, alternating
# runs, medians over PAIRS pairs (a shared machine is noisy: the same job
# varies widely run to run, so only alternating pairs and medians mean
# anything).
# Prints IOPS and CPU time per I/O for each and the iodig/fio ratios with
# their 95% CI over the pairs, for each job of ROWS below, then runs
# overhead.sh and startup.sh.
set -eu
cd "$(dirname "$0")/../.."
# shellcheck source=tests/bench/lib.sh
. tests/bench/lib.sh
OUT=${OUT:-build}
IODIG=${IODIG:-$PWD/$OUT/iodig}
PAIRS=${PAIRS:-7}
RUNTIME=${RUNTIME:-3}
VERIFY_SIZE=${VERIFY_SIZE:-256m} # the verify row: bytes written, then read back
RATE=${RATE:-5000}             # the rate_iops row: I/Os a second
ROW_MATCH=${ROW_MATCH:-.}      # only the rows whose label matches this regex
SECTIONS=${SECTIONS:-fio overhead startup}
VERBOSE=${VERBOSE:-0}          # 1: each pair's figures, on stderr
[ "$(id -u)" -eq 0 ] || { echo "bench needs root (loop devices)"; exit 1; }
command -v fio >/dev/null || { echo "bench needs fio (make deps)"; exit 1; }

TMP=$(mktemp -d /dev/shm/iodig-bench.XXXXXX)
LOOP=
cleanup() { [ -n "$LOOP" ] && losetup -d "$LOOP"; rm -rf "$TMP"; }
trap cleanup EXIT
bench_loop


# The jobs, one a line: "label | fio arguments" (after --name, --filename
# and --direct=1).  TIMED rows run RUNTIME seconds; the verify row is
# sized instead (a time_based job would spend its runtime writing and never
# verify), so both tools write VERIFY_SIZE and read it all back checking
# every block's crc32c, and must report the same I/O counts.  A rate_iops
# row runs below the device's limit: both must reach RATE (a note says
# when one did not), and only the CPU per I/O compares.  The null engine
# does no I/O: its row is each tool's own loop per I/O, without the kernel.
TIMED="--runtime=$RUNTIME --time_based"
ROWS="
randread io_uring qd32   | --rw=randread --bs=4k --ioengine=io_uring --iodepth=32 $TIMED
randread libaio qd32     | --rw=randread --bs=4k --ioengine=libaio --iodepth=32 $TIMED
randread psync qd1       | --rw=randread --bs=4k --ioengine=psync --iodepth=1 $TIMED
randread null qd1        | --rw=randread --bs=4k --ioengine=null --iodepth=1 --size=1g $TIMED
randwrite+verify=crc32c  | --rw=randwrite --bs=4k --ioengine=io_uring --iodepth=32 --verify=crc32c --size=$VERIFY_SIZE
bssplit randread         | --rw=randread --bssplit=4k/50:64k/30:256k/20 --ioengine=io_uring --iodepth=32 $TIMED
rate_iops=$RATE randread | --rw=randread --bs=4k --ioengine=io_uring --iodepth=32 --rate_iops=$RATE $TIMED
"

# "iops cpu_ns_per_io reads writes" of one run's fio-format JSON.  Both
# directions count (a verify job's reads are its verify phase), and IOPS is
# I/Os over the job's runtime: fio gives a verify phase's reads no iops of
# their own when it interleaves them.
figures() {
	jq -r '.jobs[0] as $j | ($j.job_runtime / 1000) as $secs
	       | ($j.read.total_ios + $j.write.total_ios) as $ios
	       | (($j.usr_cpu + $j.sys_cpu) / 100 * $secs * 1e9 / ([$ios,1]|max)) as $cpu
	       | "\($ios / ([$secs,0.001]|max)) \($cpu) \($j.read.total_ios) \($j.write.total_ios)"' "$1"
}
med_col() { cut -d' ' -f"$1" "$2" | median; }
# "geomean (lo-hi)" of the pairs' iodig/fio ratios of column COL
ratio_ci() {
	cut -d' ' -f"$1" "$TMP/fio.txt" >"$TMP/f.col"
	cut -d' ' -f"$1" "$TMP/iodig.txt" >"$TMP/i.col"
	paired_ratio "$TMP/f.col" "$TMP/i.col" | awk '$1 == "-" { print "-"; next }
		{ printf "%.3f (%.2f-%.2f)\n", $1, $2, $3 }'
}

counts() { tail -1 "$1" | cut -d' ' -f3-; } # "reads writes" of the last run

# compare LABEL FIO-ARGS: one table row from PAIRS alternating pairs
compare() {
	local label=$1 extra=$2 args ii fi_ ic fc iops_ratio cpu_ratio
	# shellcheck disable=SC2206
	args=(--name=bench --filename="$LOOP" --direct=1 $extra)
	: >"$TMP/iodig.txt"; : >"$TMP/fio.txt"
	for pair in $(seq "$PAIRS"); do
		# in TMP: both save a verify job's state file where they run;
		# the first of a pair alternates, so neither tool always follows
		# the other (a device or a CPU left warm, or busy, by it)
		for tool in $( ((pair % 2)) && echo iodig fio || echo fio iodig); do
			if [ "$tool" = iodig ]; then
				(cd "$TMP" && "$IODIG" run --no-probes --output-format=json "${args[@]}") >"$TMP/i.json"
				figures "$TMP/i.json" >>"$TMP/iodig.txt"
			else
				(cd "$TMP" && fio --output-format=json "${args[@]}") >"$TMP/f.json"
				figures "$TMP/f.json" >>"$TMP/fio.txt"
			fi
		done
		if [[ $extra != *time_based* ]] && [ "$(counts "$TMP/iodig.txt")" != "$(counts "$TMP/fio.txt")" ]; then
			echo "$label: reads and writes differ: iodig $(counts "$TMP/iodig.txt")," \
				"fio $(counts "$TMP/fio.txt")" >&2
			return 1
		fi
	done
	if [ "$VERBOSE" = 1 ]; then # each pair: iodig's and fio's IOPS, then ns/IO
		paste -d' ' "$TMP/iodig.txt" "$TMP/fio.txt" |
			awk '{ printf "   pair %d: IOPS %.0f %.0f (%.3f), ns/IO %.0f %.0f (%.3f)\n",
				NR, $1, $5, $1 / $5, $2, $6, $2 / $6 }' >&2
	fi
	ii=$(med_col 1 "$TMP/iodig.txt"); fi_=$(med_col 1 "$TMP/fio.txt")
	ic=$(med_col 2 "$TMP/iodig.txt"); fc=$(med_col 2 "$TMP/fio.txt")
	iops_ratio=$(ratio_ci 1); cpu_ratio=$(ratio_ci 2)
	if [[ $extra == *rate_iops* ]]; then
		iops_ratio=-
		awk -v a="$ii" -v b="$fi_" -v r="$RATE" 'BEGIN { exit !(a < 0.95 * r || b < 0.95 * r) }' &&
			echo "$label: a tool stayed below $RATE IOPS: lower RATE" >&2
	fi
	printf '%-24s %11.0f %11.0f %-19s %11.0f %11.0f %s\n' "$label" \
		"$ii" "$fi_" "$iops_ratio" "$ic" "$fc" "$cpu_ratio"
}

if [[ $SECTIONS == *fio* ]]; then
printf '%-24s %11s %11s %-19s %11s %11s %s\n' job "iodig IOPS" "fio IOPS" "IOPS ratio (CI)" \
	"iodig ns/IO" "fio ns/IO" "CPU ratio (CI)"
while IFS='|' read -r label extra; do
	label=$(sed 's/ *$//' <<<"$label")
	[[ -n $label && $label =~ $ROW_MATCH ]] || continue
	compare "$label" "$extra"
done <<<"$ROWS"
echo "(medians of $PAIRS alternating pairs, direct I/O on a tmpfs-backed loop device;"
echo " timed rows ${RUNTIME}s, the verify row writes and verifies $VERIFY_SIZE; IOPS = reads +"
echo " writes over the job's runtime, ns/IO = usr + sys CPU over them; ratios = iodig/fio,"
echo " the geometric mean of the pairs' ratios and its 95% bootstrap CI; the rate_iops row"
echo " shows the rate each reached, not a ratio: below the device's limit only CPU compares;"
echo " the null row does no I/O: each tool's own loop)"
fi

# What the probes cost: BPF time per I/O and IOPS traced/untraced, beside
# biolatency and bpftrace.
if [[ $SECTIONS == *overhead* ]]; then
	echo
	OUT=$OUT IODIG=$IODIG PAIRS=$PAIRS RUNTIME=$RUNTIME tests/bench/overhead.sh
fi

# How long iodig takes around the I/O: start-up and finish, beside fio.
if [[ $SECTIONS == *startup* ]]; then
	echo
	OUT=$OUT IODIG=$IODIG PAIRS=$PAIRS tests/bench/startup.sh
fi
