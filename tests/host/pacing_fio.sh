# rate, rate_iops (linear and poisson), thinktime and rate_iops_min pace the I/O as fio 3.33 does: IOPS near the target (a wide behavioural band, not timing precision) and a job below its minimum rate fails.
source tests/host/lib.sh
need_root
command -v fio >/dev/null || skip "fio not installed"
FILE=$TMP/file
truncate -s 16m "$FILE"

iops() { # iops PROGRAM... : read IOPS of a 2 s paced randread on the file
	"$@" --name=p --filename="$FILE" --size=16m --ioengine=psync --rw=randread \
		--runtime=2 --time_based --output-format=json "${ARGS[@]}" 2>/dev/null |
		sed -n '/^{/,$p' | jq -r '.jobs[0].read.iops | floor'
}
paced() { # paced NAME TARGET ARGS...: iodig and fio within 30% of TARGET
	local name=$1 target=$2; shift 2
	ARGS=("$@")
	local i o
	i=$(iops "$IODIG" run --no-probes) o=$(iops fio)
	check "$name: iodig $i IOPS, fio $o, target $target (+-30%)" \
		[ "${i:-0}" -ge $((target * 7 / 10)) -a "${i:-0}" -le $((target * 13 / 10)) \
		  -a "${o:-0}" -ge $((target * 7 / 10)) -a "${o:-0}" -le $((target * 13 / 10)) ]
}
paced "rate_iops=200" 200 --rate_iops=200
paced "rate=400k (100 x 4k)" 100 --rate=400k
paced "rate_process=poisson" 200 --rate_iops=200 --rate_process=poisson
paced "thinktime=10ms" 95 --thinktime=10ms
paced "thinktime=10ms every 4 blocks" 370 --thinktime=10ms --thinktime_blocks=4

out=$("$IODIG" run --no-probes --name=m --filename="$FILE" --size=16m --rw=randread --thinktime=50ms \
	--rate_iops_min=100 --runtime=3 --time_based 2>&1)
check "rate_iops_min not met fails the job, naming it" grep -q "below rate_min/rate_iops_min" <<<"$out"
out=$("$IODIG" run --no-probes --name=m --filename="$FILE" --size=16m --rate=1m --rate_iops=10 2>&1)
check "rate with rate_iops is refused, as fio refuses it" grep -q "mutually exclusive" <<<"$out"
done_testing
