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
near() { # near IOPS TARGET: within 30% of TARGET
	[ "${1:-0}" -ge $(($2 * 7 / 10)) ] && [ "${1:-0}" -le $(($2 * 13 / 10)) ]
}
# paced NAME TARGET ARGS...: iodig and fio within 30% of TARGET.  On a
# loaded machine a sleep can overrun by milliseconds (fio's 10 ms
# thinktime every 4 blocks has come out at 59% of its target there), so
# a pair outside the band is run once more before it counts
paced() {
	local name=$1 target=$2 i o try; shift 2
	ARGS=("$@")
	for try in 1 2; do
		i=$(iops "$IODIG" run --no-probes) o=$(iops fio)
		near "$i" "$target" && near "$o" "$target" && break
		echo "$name: iodig $i IOPS, fio $o, outside +-30% of $target at try $try"
	done
	check "$name: iodig $i IOPS, fio $o, target $target (+-30%)" \
		eval 'near "$i" "$target" && near "$o" "$target"'
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
