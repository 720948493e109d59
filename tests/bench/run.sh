#!/bin/bash
# make bench: iodig versus fio on the same scratch loop device, alternating
# runs, medians over PAIRS pairs (a shared machine is noisy: the same job
# varies widely run to run, so only alternating pairs and medians mean
# anything).
# Prints IOPS and CPU time per I/O for each and the iodig/fio ratios.
set -eu
cd "$(dirname "$0")/../.."
OUT=${OUT:-build}
IODIG=${IODIG:-$PWD/$OUT/iodig}
PAIRS=${PAIRS:-7}
RUNTIME=${RUNTIME:-3}
[ "$(id -u)" -eq 0 ] || { echo "bench needs root (loop devices)"; exit 1; }
command -v fio >/dev/null || { echo "bench needs fio (make deps)"; exit 1; }

TMP=$(mktemp -d /dev/shm/iodig-bench.XXXXXX)
LOOP=
cleanup() { [ -n "$LOOP" ] && losetup -d "$LOOP"; rm -rf "$TMP"; }
trap cleanup EXIT
truncate -s 1G "$TMP/backing"
LOOP=$(losetup -f --show "$TMP/backing")
# Fill it so reads move real pages, not holes.
dd if=/dev/urandom of="$LOOP" bs=1M count=1024 oflag=direct status=none

median() { sort -g | awk '{a[NR]=$1} END {if (NR%2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }

# prints "iops cpu_ns_per_io" of one run's fio-format JSON
figures() {
	jq -r '.jobs[0] as $j | ($j.read.iops) as $iops
	       | ($j.job_runtime / 1000) as $secs
	       | (($j.usr_cpu + $j.sys_cpu) / 100 * $secs * 1e9 / ([$j.read.total_ios,1]|max)) as $cpu
	       | "\($iops) \($cpu)"' "$1"
}

printf '%-22s %12s %12s %8s %14s %14s %8s\n' job "iodig IOPS" "fio IOPS" ratio \
	"iodig ns/IO" "fio ns/IO" "cpu ratio"
for spec in "io_uring 32" "libaio 32" "psync 1"; do
	set -- $spec
	engine=$1 depth=$2
	args=(--name=bench --filename="$LOOP" --rw=randread --bs=4k --direct=1
	      --ioengine="$engine" --iodepth="$depth" --runtime="$RUNTIME" --time_based)
	: >"$TMP/iodig.txt"; : >"$TMP/fio.txt"
	for i in $(seq "$PAIRS"); do
		"$IODIG" run --no-probes --output-format=json "${args[@]}" >"$TMP/i.json"
		figures "$TMP/i.json" >>"$TMP/iodig.txt"
		fio --output-format=json "${args[@]}" >"$TMP/f.json"
		figures "$TMP/f.json" >>"$TMP/fio.txt"
	done
	ii=$(cut -d' ' -f1 "$TMP/iodig.txt" | median); fi=$(cut -d' ' -f1 "$TMP/fio.txt" | median)
	ic=$(cut -d' ' -f2 "$TMP/iodig.txt" | median); fc=$(cut -d' ' -f2 "$TMP/fio.txt" | median)
	printf '%-22s %12.0f %12.0f %8.3f %14.0f %14.0f %8.3f\n' "randread $engine qd$depth" \
		"$ii" "$fi" "$(echo "$ii $fi" | awk '{print $1/$2}')" "$ic" "$fc" \
		"$(echo "$ic $fc" | awk '{print ($2 > 0) ? $1/$2 : 0}')"
done
echo "(medians of $PAIRS alternating pairs, ${RUNTIME}s each, 4k randread direct on a tmpfs-backed loop device)"

# What the probes cost: BPF time per I/O and IOPS traced/untraced, beside
# biolatency and bpftrace.
echo
OUT=$OUT IODIG=$IODIG PAIRS=$PAIRS RUNTIME=$RUNTIME tests/bench/overhead.sh

# How long iodig takes around the I/O: start-up and finish, beside fio.
echo
OUT=$OUT IODIG=$IODIG PAIRS=$PAIRS tests/bench/startup.sh
